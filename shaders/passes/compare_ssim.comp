#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// A/B compare, SSIM (Wang et al. 2004, the definition of common::ssim): an 11x11 Gaussian window,
// sigma 1.5, K1 = 0.01, K2 = 0.03, L = 1, per channel at every position where the window lies
// inside the image ('valid'). Each 16x16 workgroup sums the SSIM of 16x16 positions per channel
// (R, G, B) into one partial (xyz; w 0); compare_finish.comp adds the partials as it adds the
// squared differences, and the host divides by the positions.
//
// Per channel, the workgroup loads its 26x26 texels of A and B, filters the five moments (a, b,
// a^2, b^2, ab) along rows into shared memory, then along columns. The moments are of the values
// minus the tile's centre texel of A: variance and covariance do not change with a common shift,
// and E[x^2] - E[x]^2 cancels fewer digits in fp32 where values sit near the shift.
layout(local_size_x = COMPARE_SSIM_GROUP, local_size_y = COMPARE_SSIM_GROUP) in;
layout(set = 0, binding = BINDING_COMPARE_A) uniform sampler2D image_a;
layout(set = 0, binding = BINDING_COMPARE_B) uniform sampler2D image_b;
layout(set = 0, binding = BINDING_COMPARE_PARTIALS, std430) writeonly buffer Partials { vec4 partials[]; };

const int kRadius = COMPARE_SSIM_RADIUS, kTaps = 2 * kRadius + 1;
const int kGroup = COMPARE_SSIM_GROUP, kSpan = kGroup + 2 * kRadius;
const float kC1 = 0.01 * 0.01, kC2 = 0.03 * 0.03;

shared float tile_a[kSpan * kSpan], tile_b[kSpan * kSpan];
// The row-filtered moments: kSpan rows of kGroup columns each.
shared float row_a[kSpan * kGroup], row_b[kSpan * kGroup], row_aa[kSpan * kGroup], row_bb[kSpan * kGroup],
    row_ab[kSpan * kGroup];

void main() {
  const ivec2 size = textureSize(image_a, 0);
  const ivec2 positions = size - 2 * kRadius;  // the host dispatches only when both are >= 1
  const ivec2 base = ivec2(gl_WorkGroupID.xy) * kGroup;  // first position (= first texel) of the tile
  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  const uint index = gl_LocalInvocationIndex, threads = kGroup * kGroup;

  float weights[kTaps];
  float total = 0.0;
  for (int i = 0; i < kTaps; ++i) {
    weights[i] = exp(-float((i - kRadius) * (i - kRadius)) / (2.0 * 1.5 * 1.5));
    total += weights[i];
  }
  for (int i = 0; i < kTaps; ++i) weights[i] /= total;

  vec3 ssim = vec3(0.0);
  for (int c = 0; c < 3; ++c) {
    for (uint i = index; i < kSpan * kSpan; i += threads) {
      const ivec2 p = min(base + ivec2(int(i) % kSpan, int(i) / kSpan), size - 1);
      tile_a[i] = texelFetch(image_a, p, 0)[c];
      tile_b[i] = texelFetch(image_b, p, 0)[c];
    }
    barrier();
    const float shift = tile_a[(kSpan / 2) * kSpan + kSpan / 2];
    for (uint i = index; i < kSpan * kGroup; i += threads) {
      const int row = int(i) / kGroup, column = int(i) % kGroup;
      float a = 0.0, b = 0.0, aa = 0.0, bb = 0.0, ab = 0.0;
      for (int t = 0; t < kTaps; ++t) {
        const float x = tile_a[row * kSpan + column + t] - shift, y = tile_b[row * kSpan + column + t] - shift;
        const float w = weights[t];
        a += w * x;
        b += w * y;
        aa += w * x * x;
        bb += w * y * y;
        ab += w * x * y;
      }
      row_a[i] = a, row_b[i] = b, row_aa[i] = aa, row_bb[i] = bb, row_ab[i] = ab;
    }
    barrier();
    if (all(lessThan(base + local, positions))) {
      float a = 0.0, b = 0.0, aa = 0.0, bb = 0.0, ab = 0.0;
      for (int t = 0; t < kTaps; ++t) {
        const int i = (local.y + t) * kGroup + local.x;
        const float w = weights[t];
        a += w * row_a[i];
        b += w * row_b[i];
        aa += w * row_aa[i];
        bb += w * row_bb[i];
        ab += w * row_ab[i];
      }
      const float var_a = aa - a * a, var_b = bb - b * b, covariance = ab - a * b;
      const float mean_a = a + shift, mean_b = b + shift;
      ssim[c] = ((2.0 * mean_a * mean_b + kC1) * (2.0 * covariance + kC2)) /
                ((mean_a * mean_a + mean_b * mean_b + kC1) * (var_a + var_b + kC2));
    }
    barrier();  // the next channel overwrites the tiles
  }
  const vec4 partial = reduce_workgroup(vec4(ssim, 0.0));
  if (index == 0u) partials[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = partial;
}
