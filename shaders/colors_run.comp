// colors_run.comp: solver kernel shaders/solver/colors.glsl, a run of colours in one workgroup.
// cloth: wide variant (also built as colors_run_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#define CLOTH_COLOR_RUN 1
#include "solver/colors.glsl"
