// rigid.comp: solver kernel shaders/solver/rigid.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/rigid.glsl"
