// phantoms.comp: solver kernel shaders/solver/phantoms.glsl.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/phantoms.glsl"
