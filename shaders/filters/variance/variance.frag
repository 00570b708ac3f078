#version 460
// The variance family's fragment methods: frag.full2d, frag.quad_derivative(_coarse).
//! variant full2d WINDOW_FULL2D
//! variant fine QUAD_FRAGMENT_FINE
//! variant coarse QUAD_FRAGMENT_COARSE
#extension GL_GOOGLE_include_directive : require
#define ACC_VEC4S 2
#include "filters/common/window.glsl"
#include "filters/common/window_statistics.glsl"
#include "filters/common/window_main.glsl"
