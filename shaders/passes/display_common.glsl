#ifndef DISPLAY_COMMON_GLSL
#define DISPLAY_COMMON_GLSL
// HDR -> display curves shared by the tonemap and the viewport's view pass, so "final" and a
// viewed HDR image go through one copy of them (io::hdr_to_display is the CPU mirror).

// ACES filmic fit (Narkowicz 2015). Reaches 1 near x = 7.24.
vec3 aces_fit(vec3 x) {
  return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

// Exact sRGB encoding (the piecewise curve, not a 2.2 power).
vec3 srgb_encode(vec3 linear) {
  vec3 low = linear * 12.92;
  vec3 high = 1.055 * pow(linear, vec3(1.0 / 2.4)) - 0.055;
  return mix(high, low, lessThanEqual(linear, vec3(0.0031308)));
}

#endif
