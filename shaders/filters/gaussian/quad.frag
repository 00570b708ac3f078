#version 460
// frag.quad_derivative (fine derivatives) and frag.quad_derivative_coarse: quad_common.glsl.
//! variant fine QUAD_FRAGMENT_FINE
//! variant coarse QUAD_FRAGMENT_COARSE
#extension GL_GOOGLE_include_directive : require
#include "quad_common.glsl"
