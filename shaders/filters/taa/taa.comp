#version 460
// The taa family's compute resolves (taa_resolve.glsl): the statistics by the fetch loop, from a
// tile in shared memory, by subgroup quad swaps or by compute-shader derivatives, inside the
// resolve's own pass.
//! variant full2d.fp16 TAA_STATS_LOOP OUTPUT_FORMAT=rgba16f
//! variant full2d.fp32 TAA_STATS_LOOP OUTPUT_FORMAT=rgba32f
//! variant shared.fp16 TAA_SHARED TILE_HALF OUTPUT_FORMAT=rgba16f
//! variant shared.fp32 TAA_SHARED OUTPUT_FORMAT=rgba32f
//! variant subgroup.fp16 QUAD_SUBGROUP OUTPUT_FORMAT=rgba16f
//! variant subgroup.fp32 QUAD_SUBGROUP OUTPUT_FORMAT=rgba32f
//! variant derivative.fp16 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba16f
//! variant derivative.fp32 QUAD_COMPUTE_DERIVATIVES OUTPUT_FORMAT=rgba32f
//! variant full2d.views.fp16 TAA_STATS_LOOP TAA_VIEWS OUTPUT_FORMAT=rgba16f
//! variant full2d.views.fp32 TAA_STATS_LOOP TAA_VIEWS OUTPUT_FORMAT=rgba32f
//! variant shared.views.fp16 TAA_SHARED TILE_HALF TAA_VIEWS OUTPUT_FORMAT=rgba16f
//! variant shared.views.fp32 TAA_SHARED TAA_VIEWS OUTPUT_FORMAT=rgba32f
//! variant subgroup.views.fp16 QUAD_SUBGROUP TAA_VIEWS OUTPUT_FORMAT=rgba16f
//! variant subgroup.views.fp32 QUAD_SUBGROUP TAA_VIEWS OUTPUT_FORMAT=rgba32f
//! variant derivative.views.fp16 QUAD_COMPUTE_DERIVATIVES TAA_VIEWS OUTPUT_FORMAT=rgba16f
//! variant derivative.views.fp32 QUAD_COMPUTE_DERIVATIVES TAA_VIEWS OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/taa/taa_resolve.glsl"

layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D destination;
#if defined(TAA_VIEWS)
layout(set = 0, binding = BINDING_TAA_HISTORY_VIEW, OUTPUT_FORMAT) writeonly uniform image2D history_view;
layout(set = 0, binding = BINDING_TAA_MASK_VIEW, OUTPUT_FORMAT) writeonly uniform image2D mask_view;
#endif
#if defined(TAA_SHARED)
layout(local_size_x = TAA_SHARED_GROUP, local_size_y = TAA_SHARED_GROUP) in;
ivec2 quad_pixel() { return ivec2(gl_GlobalInvocationID.xy); }
#elif !defined(QUAD_IN_COMPUTE)
layout(local_size_x = TAA_GROUP, local_size_y = TAA_GROUP) in;
ivec2 quad_pixel() { return ivec2(gl_GlobalInvocationID.xy); }
#endif

void main() {
  const ivec2 p = quad_pixel();
#if defined(TAA_SHARED)
  stage_tile();
#endif
  Views views;
  const vec4 value = taa(p, views);  // every invocation: the quads need the ones past the edge too
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, value);
#if defined(TAA_VIEWS)
  imageStore(history_view, p, views.history);
  imageStore(mask_view, p, views.mask);
#endif
}
