#version 460
#extension GL_GOOGLE_include_directive : require
#define QUAD_FRAGMENT_COARSE
#include "quad_common.glsl"
