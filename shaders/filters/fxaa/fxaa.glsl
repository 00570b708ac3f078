// The fxaa family's filter (renderer/filters/fxaa; docs/families/fxaa.md), shared by fxaa.comp and
// fxaa.frag: FXAA 3.11's quality algorithm (Lottes 2011) on linear HDR colour. Every decision reads a
// perceptual luma of a tonemapped estimate; the blend is of the linear colours. The CPU reference
// (renderer/filters/fxaa/reference.cpp) is this function, step for step, in double.
//
// Every fetch is a texelFetch clamped to the edge, and the one blend is two texels mixed by hand:
// the hardware's bilinear weights (8 fractional bits on most GPUs) would make the method inexact.
#extension GL_EXT_control_flow_attributes : require
#include "filters/fxaa/fxaa_config.h"

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(constant_id = FXAA_SUBPIX_ID) const float SUBPIX = 0.75;
layout(constant_id = FXAA_EDGE_THRESHOLD_ID) const float EDGE_THRESHOLD = 0.166;
layout(constant_id = FXAA_EDGE_THRESHOLD_MIN_ID) const float EDGE_THRESHOLD_MIN = 0.0833;

const int FXAA_STEPS[FXAA_STEP_COUNT] = int[](FXAA_STEP_LIST);

vec4 fxaa_texel(ivec2 q) {
  return texelFetch(source, clamp(q, ivec2(0), textureSize(source, 0) - 1), 0);
}

// FXAA's thresholds are tuned for gamma-encoded display luma in [0, 1], but the chain is linear HDR:
// the luminance L through Reinhard's L / (1 + L) (a tonemap that never clips, so that edges between
// highlights still count) and a square root (close to the display's encoding). Then rounded to
// FXAA_LUMA_STEPS levels, as FXAA 3.11 reads its luma from an 8-bit alpha: every decision below is
// then exact arithmetic on multiples of a power of two, the same in float here and in the reference's
// double, ties included.
float fxaa_luma(vec4 c) {
  const float l = max(dot(c.rgb, vec3(FXAA_LUMA_R, FXAA_LUMA_G, FXAA_LUMA_B)), 0.0);
  return floor(sqrt(l / (1.0 + l)) * FXAA_LUMA_STEPS + 0.5) / FXAA_LUMA_STEPS;
}

float fxaa_luma_at(ivec2 q) { return fxaa_luma(fxaa_texel(q)); }

vec4 fxaa(ivec2 p) {
  const vec4 centre = fxaa_texel(p);
  const float m = fxaa_luma(centre);
  const float n = fxaa_luma_at(p + ivec2(0, -1)), s = fxaa_luma_at(p + ivec2(0, 1));
  const float w = fxaa_luma_at(p + ivec2(-1, 0)), e = fxaa_luma_at(p + ivec2(1, 0));
  const float range_max = max(max(max(n, s), max(w, e)), m);
  const float range = range_max - min(min(min(n, s), min(w, e)), m);
  // Local contrast too low to be a visible edge: the pixel as it is.
  if (range <= max(EDGE_THRESHOLD_MIN, EDGE_THRESHOLD * range_max)) return centre;

  const float nw = fxaa_luma_at(p + ivec2(-1, -1)), ne = fxaa_luma_at(p + ivec2(1, -1));
  const float sw = fxaa_luma_at(p + ivec2(-1, 1)), se = fxaa_luma_at(p + ivec2(1, 1));
  // The edge runs along the direction whose second differences across it are the larger: a
  // horizontal edge changes down the columns.
  const float edge_h = abs((nw + sw) - 2.0 * w) + 2.0 * abs((n + s) - 2.0 * m) + abs((ne + se) - 2.0 * e);
  const float edge_v = abs((nw + ne) - 2.0 * n) + 2.0 * abs((w + e) - 2.0 * m) + abs((sw + se) - 2.0 * s);
  const bool horizontal = edge_h >= edge_v;
  const ivec2 along = horizontal ? ivec2(1, 0) : ivec2(0, 1);
  const ivec2 across_unit = horizontal ? ivec2(0, 1) : ivec2(1, 0);

  // The edge lies between the pixel and its neighbour across with the steeper gradient.
  const float before = horizontal ? n : w, after = horizontal ? s : e;
  const bool toward_before = abs(before - m) >= abs(after - m);
  const ivec2 across = toward_before ? -across_unit : across_unit;
  const float pair = toward_before ? before : after;
  const float gradient = max(abs(before - m), abs(after - m));
  const float edge_luma = 0.5 * (m + pair);
  const float threshold = 0.25 * gradient;

  // Each way along the edge, the first sample (the mean luma of the two pixels either side of the
  // edge) that differs from the edge's own by a quarter of its gradient: the edge ends there.
  int distance[2] = int[](0, 0);
  float end_luma[2] = float[](0.0, 0.0);
  [[unroll]] for (int way = 0; way < 2; ++way) {
    const ivec2 dir = way == 0 ? -along : along;
    [[dont_unroll]] for (int i = 0; i < FXAA_STEP_COUNT; ++i) {
      distance[way] += FXAA_STEPS[i];
      const ivec2 q = p + distance[way] * dir;
      end_luma[way] = 0.5 * (fxaa_luma_at(q) + fxaa_luma_at(q + across)) - edge_luma;
      if (abs(end_luma[way]) >= threshold) break;
    }
  }
  // From the nearer end, the pixel's share of the edge's stair step: 0.5 at the end, 0 mid-span;
  // none where the luma there changes the wrong way (the pixel is on the far side of the step).
  const bool nearer_before = distance[0] < distance[1];
  const float dist = float(nearer_before ? distance[0] : distance[1]);
  const float span = float(distance[0] + distance[1]);
  const float end = nearer_before ? end_luma[0] : end_luma[1];
  const bool good_span = (end < 0.0) != (m - edge_luma < 0.0);
  const float edge_offset = good_span ? 0.5 - dist / span : 0.0;

  // Sub-pixel aliasing: how far the 3x3 low-pass lies from the pixel, relative to the contrast.
  const float low_pass = (2.0 * (n + s + w + e) + (nw + ne + sw + se)) / 12.0;
  const float c = clamp(abs(low_pass - m) / range, 0.0, 1.0);
  const float f = (3.0 - 2.0 * c) * c * c;
  const float subpix_offset = f * f * SUBPIX;

  const float offset = max(edge_offset, subpix_offset);
  // The bilinear sample `offset` pixels across, from the two texels it lies between.
  return centre + offset * (fxaa_texel(p + across) - centre);
}
