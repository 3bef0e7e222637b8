// vertices.comp: solver kernel shaders/solver/vertices.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/vertices.glsl"
