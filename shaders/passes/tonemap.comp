#version 460
// HDR -> display: exposure, ACES filmic fit (Narkowicz 2015), exact sRGB encoding.
// The output is RGBA8_UNORM holding sRGB-encoded values (storage images cannot be sRGB).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform sampler2D hdr;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D display;
layout(push_constant) uniform Push { float exposure; };

vec3 aces_fit(vec3 x) {
  return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 srgb_encode(vec3 linear) {
  vec3 low = linear * 12.92;
  vec3 high = 1.055 * pow(linear, vec3(1.0 / 2.4)) - 0.055;
  return mix(high, low, lessThanEqual(linear, vec3(0.0031308)));
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(display)))) return;
  vec3 color = max(texelFetch(hdr, p, 0).rgb * exposure, vec3(0.0));
  imageStore(display, p, vec4(srgb_encode(aces_fit(color)), 1.0));
}
