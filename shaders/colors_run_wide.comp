// colors_run_wide.comp: solver kernel shaders/solver/colors.glsl, a run of colours in one workgroup, with 64-bit memory accesses (CPU devices: see solver/buffers.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
#define CLOTH_WIDE_ACCESS 1
#define CLOTH_COLOR_RUN 1
#include "solver/colors.glsl"
