#version 460
// The gaussian family's compute methods from the window drivers: comp.full2d_shared,
// comp.quad_subgroup, comp.quad_derivative, comp.separable_shared (its rows and columns passes,
// the rows in the output's format).
//! variant shared.fp16 WINDOW_SHARED OUTPUT_FORMAT=rgba16f
//! variant shared.fp32 WINDOW_SHARED OUTPUT_FORMAT=rgba32f
//! variant subgroup.fp16 QUAD_SUBGROUP OUTPUT_FORMAT=rgba16f
//! variant subgroup.fp32 QUAD_SUBGROUP OUTPUT_FORMAT=rgba32f
//! variant derivative.fp16 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba16f
//! variant derivative.fp32 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba32f
//! variant rows.fp16 WINDOW_ROWS_PASS OUTPUT_FORMAT=rgba16f
//! variant rows.fp32 WINDOW_ROWS_PASS OUTPUT_FORMAT=rgba32f
//! variant columns.fp16 WINDOW_COLUMNS_PASS OUTPUT_FORMAT=rgba16f
//! variant columns.fp32 WINDOW_COLUMNS_PASS OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#define WINDOW_TERMS 1
#include "filters/common/window.glsl"
#include "filters/gaussian/gaussian_window.glsl"
#include "filters/common/window_terms.glsl"
#include "filters/common/window_main.glsl"
