// tethers.comp: solver kernel shaders/solver/tethers.glsl.
// cloth: wide variant (also built as tethers_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/tethers.glsl"
