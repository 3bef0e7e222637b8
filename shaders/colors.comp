// colors.comp: solver kernel shaders/solver/colors.glsl.
// cloth: wide variant (also built as colors_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/colors.glsl"
