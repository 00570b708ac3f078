#version 460
// The gaussian family's fragment methods from the window drivers: frag.full2d,
// frag.quad_derivative(_coarse).
//! variant full2d WINDOW_FULL2D
//! variant fine QUAD_FRAGMENT_FINE
//! variant coarse QUAD_FRAGMENT_COARSE
#extension GL_GOOGLE_include_directive : require
#define WINDOW_TERMS 1
#include "filters/common/window.glsl"
#include "filters/gaussian/gaussian_window.glsl"
#include "filters/common/window_terms.glsl"
#include "filters/common/window_main.glsl"
