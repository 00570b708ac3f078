#version 460
// The taa family's fragment resolves (taa_resolve.glsl): the statistics by the fetch loop or
// through fine or coarse derivatives.
//! variant full2d TAA_STATS_LOOP
//! variant fine QUAD_FRAGMENT_FINE
//! variant coarse QUAD_FRAGMENT_COARSE
//! variant full2d.views TAA_STATS_LOOP TAA_VIEWS
//! variant fine.views QUAD_FRAGMENT_FINE TAA_VIEWS
//! variant coarse.views QUAD_FRAGMENT_COARSE TAA_VIEWS
#extension GL_GOOGLE_include_directive : require
#include "filters/taa/taa_resolve.glsl"

layout(location = 0) out vec4 result;
#if defined(TAA_VIEWS)
layout(location = 1) out vec4 history_view;
layout(location = 2) out vec4 mask_view;
#endif

void main() {
  Views views;
  result = taa(ivec2(gl_FragCoord.xy), views);
#if defined(TAA_VIEWS)
  history_view = views.history;
  mask_view = views.mask;
#endif
}
