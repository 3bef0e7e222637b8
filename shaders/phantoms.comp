// phantoms.comp: solver kernel shaders/solver/phantoms.glsl.
// cloth: wide variant (also built as phantoms_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/phantoms.glsl"
