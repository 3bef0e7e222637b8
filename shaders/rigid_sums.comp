// rigid_sums.comp: solver kernel shaders/solver/rigid_sums.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/rigid_sums.glsl"
