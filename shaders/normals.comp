// normals.comp: solver kernel shaders/solver/normals.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/normals.glsl"
