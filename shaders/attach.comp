// attach.comp: solver kernel shaders/solver/attach.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/attach.glsl"
