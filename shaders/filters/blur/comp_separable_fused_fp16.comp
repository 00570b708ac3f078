#version 460
// comp.separable_fused, fp16 images (texels staged packed as half): the body is in
// comp_separable_fused_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define PACKED_HALF
#include "comp_separable_fused_common.glsl"
