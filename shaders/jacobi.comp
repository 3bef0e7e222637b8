// jacobi.comp: solver kernel shaders/solver/jacobi.glsl (Jacobi and Chebyshev iterations).
// cloth: wide variant (also built as jacobi_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/jacobi.glsl"
