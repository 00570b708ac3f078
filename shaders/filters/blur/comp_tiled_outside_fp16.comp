#version 460
// comp.tiled, the pixels outside the target ROI, RGBA16F output: see comp_tiled_common.glsl.
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#define TILED_OUTSIDE
#include "comp_tiled_common.glsl"
