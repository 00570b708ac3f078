#version 460
// The taa family's fragment resolves (taa_resolve.glsl): the statistics by the fetch loop or
// through fine or coarse derivatives.
//! variant full2d TAA_STATS_LOOP
//! variant fine QUAD_FRAGMENT_FINE
//! variant coarse QUAD_FRAGMENT_COARSE
#extension GL_GOOGLE_include_directive : require
#include "filters/taa/taa_resolve.glsl"

layout(location = 0) out vec4 result;

void main() { result = taa(ivec2(gl_FragCoord.xy)); }
