#version 460
#extension GL_GOOGLE_include_directive : require
#define QUAD_COMPUTE_DERIVATIVES
#define QUAD_OUTPUT_FORMAT rgba16f
#include "quad_common.glsl"
