// colors.comp: solver kernel shaders/solver/colors.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/colors.glsl"
