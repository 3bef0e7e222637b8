// normals.comp: solver kernel shaders/solver/normals.glsl.
// cloth: wide variant (also built as normals_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/normals.glsl"
