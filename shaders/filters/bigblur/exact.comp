#version 460
// bigblur comp.exact, one direction: the normalized Gaussian truncated at r = ceil(4 sigma), every
// tap a texelFetch (clamp to edge). Slow at large r and meant to be: it is the reference the
// approximations are measured against. The horizontal pass writes fp32.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_GROUP, local_size_y = BIGBLUR_GROUP) in;
layout(constant_id = BIGBLUR_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = BIGBLUR_VERTICAL_ID) const int VERTICAL = 0;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) readonly buffer Weights {
  float weight[];  // weight[|i|], i = -r..r
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy), size = textureSize(source, 0);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  // Not a const: see recursive.comp.
  ivec2 along = ivec2(1, 0);
  if (VERTICAL != 0) along = ivec2(0, 1);
  // Blocks of 64 taps summed apart, then the blocks: shorter chains of fp32 additions at r = 1024.
  vec4 total = vec4(0.0);
  for (int first = -RADIUS; first <= RADIUS; first += 64) {
    vec4 block = vec4(0.0);
    for (int i = first; i < min(first + 64, RADIUS + 1); ++i)
      block += weight[abs(i)] * texelFetch(source, clamp(p + i * along, ivec2(0), size - 1), 0);
    total += block;
  }
  imageStore(destination, p, total);
}
