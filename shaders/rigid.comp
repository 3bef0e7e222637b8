// rigid.comp: solver kernel shaders/solver/rigid.glsl.
// cloth: wide variant (also built as rigid_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/rigid.glsl"
