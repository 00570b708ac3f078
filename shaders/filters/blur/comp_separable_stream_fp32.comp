#version 460
// comp.separable_stream, fp32 images. The body is in comp_separable_stream_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba32f
#define STORE_HALF 0
#include "comp_separable_stream_common.glsl"
