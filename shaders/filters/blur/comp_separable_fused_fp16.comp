#version 460
// comp.separable_fused, fp16 images: the body is in comp_separable_fused_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#include "comp_separable_fused_common.glsl"
