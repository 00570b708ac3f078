#version 460
// The variance family's compute methods: comp.full2d_shared, comp.quad_subgroup,
// comp.quad_derivative, comp.separable_shared.
//! variant shared.fp16 WINDOW_SHARED OUTPUT_FORMAT=rgba16f
//! variant shared.fp32 WINDOW_SHARED OUTPUT_FORMAT=rgba32f
//! variant subgroup.fp16 QUAD_SUBGROUP OUTPUT_FORMAT=rgba16f
//! variant subgroup.fp32 QUAD_SUBGROUP OUTPUT_FORMAT=rgba32f
//! variant derivative.fp16 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba16f
//! variant derivative.fp32 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba32f
//! variant separable.fp16 WINDOW_SEPARABLE OUTPUT_FORMAT=rgba16f
//! variant separable.fp32 WINDOW_SEPARABLE OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#define ACC_VEC4S 2
#include "filters/common/window.glsl"
#include "filters/common/window_statistics.glsl"
#include "filters/common/window_main.glsl"
