#version 460
// comp.separable_stream_half: comp.separable_stream for fp16 images with its horizontal step in
// packed half arithmetic (the vertical step stays fp32). There is no fp32 version: the method serves
// fp16 images only. The body is in comp_separable_stream_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define STORE_HALF 1
#define HALF_HORIZONTAL 1
#include "comp_separable_stream_common.glsl"
