// tethers.comp: solver kernel shaders/solver/tethers.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/tethers.glsl"
