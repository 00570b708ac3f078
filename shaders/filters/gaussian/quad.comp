#version 460
// comp.quad_subgroup (subgroup quad swaps) and comp.quad_derivative (derivatives in a compute
// shader): quad_common.glsl.
//! variant subgroup.fp16 QUAD_SUBGROUP OUTPUT_FORMAT=rgba16f
//! variant subgroup.fp32 QUAD_SUBGROUP OUTPUT_FORMAT=rgba32f
//! variant derivative.fp16 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba16f
//! variant derivative.fp32 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "quad_common.glsl"
