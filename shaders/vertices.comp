// vertices.comp: solver kernel shaders/solver/vertices.glsl.
// cloth: wide variant (also built as vertices_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/vertices.glsl"
