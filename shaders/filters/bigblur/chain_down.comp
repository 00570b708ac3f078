#version 460
// bigblur's chains' down passes: each writes one level from the finer level before it
// (renderer/filters/bigblur/pyramid.cpp; the up passes are chain_up.comp, comp.mip_poisson's box
// levels shaders/passes/pyramid.comp). A level's texel i covers the texels 2i and 2i + 1 of the finer
// level (its size is rounded up: past the edge, clamp to edge), so in level-0 pixels, texel i of
// level k covers [2^k i, 2^k (i + 1)) whatever the sizes. Offsets below are in texels of the source.
// Every tap sits on a texel corner, so each is a 2x2 box mean from one filtered fetch: 1.25 (dual)
// or 3.25 (13-tap) fetches per source texel.
//   cod13      down: Jimenez 2014's 13 taps (four overlapping 2x2 boxes and a central one, each a
//              bilinear tap at a texel corner, weighted 1/2 centre, 1/8 each corner box)
//   dual_down  down: Bjorge 2015, a bilinear tap at the block's centre (weight 4/8) and at its four
//              diagonal corners (1/8 each)
//! variant cod13.fp16 CHAIN_COD13 OUTPUT_FORMAT=rgba16f
//! variant cod13.fp32 CHAIN_COD13 OUTPUT_FORMAT=rgba32f
//! variant dual_down.fp16 CHAIN_DUAL_DOWN OUTPUT_FORMAT=rgba16f
//! variant dual_down.fp32 CHAIN_DUAL_DOWN OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_GROUP, local_size_y = BIGBLUR_GROUP) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // bilinear, clamp to edge
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// A bilinear tap at `at`, in source texels (texel centres at i + 0.5).
vec4 tap(vec2 at) { return textureLod(source, at / vec2(textureSize(source, 0)), 0.0); }

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  const vec2 c = 2.0 * vec2(p) + 1.0;  // the 2x2 block's centre, a texel corner
#if defined(CHAIN_COD13)
  const vec4 inner = tap(c + vec2(-1, -1)) + tap(c + vec2(1, -1)) + tap(c + vec2(-1, 1)) + tap(c + vec2(1, 1));
  const vec4 corners = tap(c + vec2(-2, -2)) + tap(c + vec2(2, -2)) + tap(c + vec2(-2, 2)) + tap(c + vec2(2, 2));
  const vec4 edges = tap(c + vec2(0, -2)) + tap(c + vec2(-2, 0)) + tap(c + vec2(2, 0)) + tap(c + vec2(0, 2));
  const vec4 v = 0.125 * inner + 0.03125 * corners + 0.0625 * edges + 0.125 * tap(c);
#else
  const vec4 v = 0.5 * tap(c) + 0.125 * (tap(c + vec2(-1, -1)) + tap(c + vec2(1, -1)) + tap(c + vec2(-1, 1)) +
                                         tap(c + vec2(1, 1)));
#endif
  imageStore(destination, p, v);
}
