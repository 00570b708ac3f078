#version 460
#extension GL_GOOGLE_include_directive : require
#define OUTPUT_FORMAT rgba16f
#include "compare_common.glsl"
