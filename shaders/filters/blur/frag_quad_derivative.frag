#version 460
#extension GL_GOOGLE_include_directive : require
#define QUAD_FRAGMENT_FINE
#include "quad_common.glsl"
