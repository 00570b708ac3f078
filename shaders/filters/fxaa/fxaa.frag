#version 460
// The fxaa family's fragment method (fxaa.glsl): the full-screen triangle, a fragment a pixel.
#extension GL_GOOGLE_include_directive : require
#include "filters/fxaa/fxaa.glsl"

layout(location = 0) out vec4 result;

void main() { result = fxaa(ivec2(gl_FragCoord.xy)); }
