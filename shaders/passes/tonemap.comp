#version 460
#extension GL_GOOGLE_include_directive : require
#include "config.h"
#include "display_common.glsl"
// HDR -> display: exposure (times this frame's automatic exposure where it is on), the curve the
// push constant names, exact sRGB encoding. The output is RGBA8_UNORM holding sRGB-encoded values
// (storage images cannot be sRGB).
//! variant fixed
//! variant auto AUTO_EXPOSURE
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D hdr;
layout(set = 0, binding = BINDING_DESTINATION, rgba8) uniform writeonly image2D display;
#ifdef AUTO_EXPOSURE
layout(set = 0, binding = BINDING_EXPOSURE_RESULT, std430) readonly buffer Exposure { float auto_exposure; };
#endif
layout(push_constant) uniform Push {
  float exposure;
  uint curve;
};

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(display)))) return;
#ifdef AUTO_EXPOSURE
  const float scale = exposure * auto_exposure;
#else
  const float scale = exposure;
#endif
  vec3 color = texelFetch(hdr, p, 0).rgb * scale;
  imageStore(display, p, vec4(srgb_encode(tonemap(color, curve)), 1.0));
}
