// wind.comp: solver kernel shaders/solver/wind.glsl.
// cloth: wide variant (also built as wind_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/wind.glsl"
