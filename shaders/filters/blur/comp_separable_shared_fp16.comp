#version 460
// comp.separable_shared, fp16 images: the body is in comp_shared_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define SEPARABLE_SHARED
#include "comp_shared_common.glsl"
