#ifndef DISPLAY_COMMON_GLSL
#define DISPLAY_COMMON_GLSL
// HDR -> display curves shared by the tonemap and the viewport's view pass, so "final" and a
// viewed HDR image go through one copy of them (passes::tonemap in tonemap_curves.h is the CPU model, in double).
#include "passes/passes_config.h"

// ACES filmic fit (Narkowicz 2015). Reaches 1 near x = 7.24.
vec3 aces_fit(vec3 x) {
  return (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14);
}

vec3 reinhard_luminance(vec3 x) {
  const float l = dot(x, vec3(0.2126, 0.7152, 0.0722));
  return l > 0.0 ? x / (1.0 + l) : vec3(0.0);
}

vec3 hable_partial(vec3 x) {
  const float a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
  return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f;
}

vec3 hable(vec3 x) {
  return hable_partial(2.0 * x) / hable_partial(vec3(11.2)).x;
}

vec3 agx(vec3 c) {
  const mat3 to_agx = mat3(0.842479062253094, 0.0423282422610123, 0.0423756549057051,
                           0.0784335999999992, 0.878468636469772, 0.0784336,
                           0.0792237451477643, 0.0791661274605434, 0.879142973793104);
  const mat3 from_agx = mat3(1.19687900512017, -0.0528968517574562, -0.0529716355144438,
                             -0.0980208811401368, 1.15190312990417, -0.0980434501171241,
                             -0.0990297440797205, -0.0989611768448433, 1.15107367264116);
  const float min_ev = -12.47393, max_ev = 4.026069;
  const vec3 e = clamp(log2(max(to_agx * c, vec3(1e-10))), min_ev, max_ev);
  const vec3 x = (e - min_ev) / (max_ev - min_ev);
  const vec3 x2 = x * x, x4 = x2 * x2;
  const vec3 v = 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x -
                 0.00232;
  return pow(clamp(from_agx * v, 0.0, 1.0), vec3(2.2));
}

vec3 pbr_neutral(vec3 c) {
  const float start = 0.8 - 0.04, desaturation = 0.15;
  const float x = min(c.r, min(c.g, c.b));
  const float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  c -= offset;
  const float peak = max(c.r, max(c.g, c.b));
  if (peak < start) return c;
  const float d = 1.0 - start;
  const float new_peak = 1.0 - d * d / (peak + d - start);
  c *= new_peak / peak;
  const float g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
  return mix(c, vec3(new_peak), g);
}

// An exposed linear colour to display-linear RGB in [0, 1]: TONEMAP_* picks the curve.
vec3 tonemap(vec3 x, uint curve) {
  // Below 0 is no light, past 64 every curve has saturated; NaN is black (clamp of NaN is undefined
  // in SPIR-V, so it is picked out first).
  x = mix(clamp(x, 0.0, 64.0), vec3(0.0), isnan(x));
  vec3 y;
  if (curve == TONEMAP_REINHARD) y = reinhard_luminance(x);
  else if (curve == TONEMAP_HABLE) y = hable(x);
  else if (curve == TONEMAP_AGX) y = agx(x);
  else if (curve == TONEMAP_NEUTRAL) y = pbr_neutral(x);
  else if (curve == TONEMAP_NONE) y = x;
  else y = aces_fit(x);
  return clamp(y, 0.0, 1.0);
}

// Exact sRGB encoding (the piecewise curve, not a 2.2 power).
vec3 srgb_encode(vec3 linear) {
  vec3 low = linear * 12.92;
  vec3 high = 1.055 * pow(linear, vec3(1.0 / 2.4)) - 0.055;
  return mix(high, low, lessThanEqual(linear, vec3(0.0031308)));
}

#endif
