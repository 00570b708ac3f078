#version 460
// The pixel inspector: the values of PROBE_IMAGES images at PROBE_PIXELS pixels, one invocation
// each, as stored (texelFetch at mip 0), into the frame's host-visible buffer, with the pixel and
// the frame they are of.
#extension GL_GOOGLE_include_directive : require
#include "passes/passes_config.h"

layout(local_size_x = PROBE_PIXELS) in;
layout(set = 0, binding = BINDING_PROBE_IMAGE_0) uniform sampler2D image0;
layout(set = 0, binding = BINDING_PROBE_IMAGE_0 + 1) uniform sampler2D image1;
layout(set = 0, binding = BINDING_PROBE_IMAGE_0 + 2) uniform sampler2D image2;
layout(set = 0, binding = BINDING_PROBE_IMAGE_0 + 3) uniform sampler2D image3;
struct Probe {
  vec4 values[PROBE_IMAGES];
  uvec4 info;  // x, y, frame (low, high word); info.z == info.w == 0xffffffff: never written
};
layout(set = 0, binding = BINDING_PROBE_RESULT, std430) writeonly buffer Result { Probe probes[PROBE_PIXELS]; };
layout(push_constant) uniform Push {
  ivec2 pixels[PROBE_PIXELS];
  uint frame_low;
  uint frame_high;
};

vec4 at(sampler2D image, ivec2 pixel) {
  return texelFetch(image, clamp(pixel, ivec2(0), textureSize(image, 0) - 1), 0);
}

void main() {
  const uint i = gl_LocalInvocationID.x;
  const ivec2 pixel = pixels[i];
  probes[i].values[0] = at(image0, pixel);
  probes[i].values[1] = at(image1, pixel);
  probes[i].values[2] = at(image2, pixel);
  probes[i].values[3] = at(image3, pixel);
  probes[i].info = uvec4(uint(pixel.x), uint(pixel.y), frame_low, frame_high);
}
