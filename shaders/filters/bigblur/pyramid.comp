#version 460
// bigblur's chain passes: each writes one level from the level beside it (renderer/filters/bigblur/
// pyramid.cpp; comp.mip_poisson's box levels come from shaders/passes/pyramid.comp). A level's
// texel i covers the texels 2i and 2i + 1 of the finer level (its size is
// rounded up: past the edge, clamp to edge), so in level-0 pixels, texel i of level k covers
// [2^k i, 2^k (i + 1)) whatever the sizes. Offsets below are in texels of the pass's source.
//   cod13      down: Jimenez 2014's 13 taps (four overlapping 2x2 boxes and a central one, each a
//              bilinear tap at a texel corner, weighted 1/2 centre, 1/8 each corner box)
//   dual_down  down: Bjorge 2015, a bilinear tap at the block's centre (weight 4/8) and at its four
//              diagonal corners (1/8 each)
//   tent       up: a 3x3 tent (1 2 1) of bilinear taps one source texel apart (Jimenez 2014)
//   dual_up    up: Bjorge 2015, bilinear taps at (+-1, 0), (0, +-1) (weight 1/12) and (+-1/2, +-1/2)
//              (2/12)
//! variant cod13.fp16 PYRAMID_COD13 OUTPUT_FORMAT=rgba16f
//! variant cod13.fp32 PYRAMID_COD13 OUTPUT_FORMAT=rgba32f
//! variant dual_down.fp16 PYRAMID_DUAL_DOWN OUTPUT_FORMAT=rgba16f
//! variant dual_down.fp32 PYRAMID_DUAL_DOWN OUTPUT_FORMAT=rgba32f
//! variant tent.fp16 PYRAMID_TENT OUTPUT_FORMAT=rgba16f
//! variant tent.fp32 PYRAMID_TENT OUTPUT_FORMAT=rgba32f
//! variant dual_up.fp16 PYRAMID_DUAL_UP OUTPUT_FORMAT=rgba16f
//! variant dual_up.fp32 PYRAMID_DUAL_UP OUTPUT_FORMAT=rgba32f
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
#if defined(PYRAMID_COD13) || defined(PYRAMID_DUAL_DOWN)
  const vec2 c = 2.0 * vec2(p) + 1.0;  // the 2x2 block's centre, a texel corner
#if defined(PYRAMID_COD13)
  const vec4 inner = tap(c + vec2(-1, -1)) + tap(c + vec2(1, -1)) + tap(c + vec2(-1, 1)) + tap(c + vec2(1, 1));
  const vec4 corners = tap(c + vec2(-2, -2)) + tap(c + vec2(2, -2)) + tap(c + vec2(-2, 2)) + tap(c + vec2(2, 2));
  const vec4 edges = tap(c + vec2(0, -2)) + tap(c + vec2(-2, 0)) + tap(c + vec2(2, 0)) + tap(c + vec2(0, 2));
  const vec4 v = 0.125 * inner + 0.03125 * corners + 0.0625 * edges + 0.125 * tap(c);
#else
  const vec4 v = 0.5 * tap(c) + 0.125 * (tap(c + vec2(-1, -1)) + tap(c + vec2(1, -1)) + tap(c + vec2(-1, 1)) +
                                         tap(c + vec2(1, 1)));
#endif
#else
  const vec2 c = (vec2(p) + 0.5) * 0.5;  // this texel's centre in the coarser source's texels
#if defined(PYRAMID_TENT)
  vec4 v = vec4(0.0);
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) v += float((2 - abs(x)) * (2 - abs(y))) / 16.0 * tap(c + vec2(x, y));
#else
  const vec4 v = (tap(c + vec2(-1, 0)) + tap(c + vec2(1, 0)) + tap(c + vec2(0, -1)) + tap(c + vec2(0, 1)) +
                  2.0 * (tap(c + vec2(-0.5, -0.5)) + tap(c + vec2(0.5, -0.5)) + tap(c + vec2(-0.5, 0.5)) +
                         tap(c + vec2(0.5, 0.5)))) /
                 12.0;
#endif
#endif
  imageStore(destination, p, v);
}
