#version 460
// comp.tiled, RGBA16F output: see comp_tiled_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define TILED_CONVOLUTION
#include "comp_tiled_common.glsl"
