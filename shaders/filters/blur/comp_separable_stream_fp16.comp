#version 460
// comp.separable_stream, fp16 images: texels and horizontal sums kept in shared memory as packed
// halves. The body is in comp_separable_stream_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define STORE_HALF 1
#include "comp_separable_stream_common.glsl"
