#version 460
#extension GL_GOOGLE_include_directive : require
#include "config.h"
#include "display_common.glsl"
// HDR -> display: exposure, ACES filmic fit (Narkowicz 2015), exact sRGB encoding.
// The output is RGBA8_UNORM holding sRGB-encoded values (storage images cannot be sRGB).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D hdr;
layout(set = 0, binding = BINDING_DESTINATION, rgba8) uniform writeonly image2D display;
layout(push_constant) uniform Push { float exposure; };

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(display)))) return;
  vec3 color = max(texelFetch(hdr, p, 0).rgb * exposure, vec3(0.0));
  imageStore(display, p, vec4(srgb_encode(aces_fit(color)), 1.0));
}
