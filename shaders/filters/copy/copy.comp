#version 460
// The copy family (renderer/filters/copy): one fetch and one store per pixel, PIXELS pixels a
// thread, COPY_GROUP_Y rows apart so that each row of a group's loads stays one contiguous run.
// More pixels a thread keep more loads in flight, which copies random data faster on the H100
// (docs/copy-floor.md). The two_images variants write each pixel twice, to two images: the yardstick
// of a step that writes two (variance's mean and standard deviation).
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
//! variant two_images.fp16 OUTPUT_FORMAT=rgba16f COPY_TWO_IMAGES
//! variant two_images.fp32 OUTPUT_FORMAT=rgba32f COPY_TWO_IMAGES
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "filters/copy/copy_config.h"

layout(local_size_x = COPY_GROUP_X, local_size_y = COPY_GROUP_Y) in;
layout(constant_id = COPY_PIXELS_ID) const int PIXELS = 1;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // texelFetch, like the filters
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
#ifdef COPY_TWO_IMAGES
layout(set = 0, binding = BINDING_COPY_SECOND, OUTPUT_FORMAT) uniform writeonly image2D destination2;
#endif

void main() {
  const ivec2 size = imageSize(destination);
  const ivec2 base =
      ivec2(gl_WorkGroupID.xy * uvec2(COPY_GROUP_X, COPY_GROUP_Y * PIXELS) + gl_LocalInvocationID.xy);
  vec4 texels[PIXELS];
  [[unroll]] for (int i = 0; i < PIXELS; ++i)
    texels[i] = texelFetch(source, min(base + ivec2(0, i * COPY_GROUP_Y), size - 1), 0);
  [[unroll]] for (int i = 0; i < PIXELS; ++i) {
    const ivec2 p = base + ivec2(0, i * COPY_GROUP_Y);
    if (all(lessThan(p, size))) {
      imageStore(destination, p, texels[i]);
#ifdef COPY_TWO_IMAGES
      imageStore(destination2, p, texels[i]);
#endif
    }
  }
}
