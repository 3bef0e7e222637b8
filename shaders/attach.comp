// attach.comp: solver kernel shaders/solver/attach.glsl.
// cloth: wide variant (also built as attach_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/attach.glsl"
