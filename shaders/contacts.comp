// contacts.comp: solver kernel shaders/solver/contacts.glsl.
// cloth: wide variant (also built as contacts_wide.comp with CLOTH_WIDE_ACCESS)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "solver/contacts.glsl"
