#version 460
// bench/copy_study.cpp's copy: one source read and one store per pixel, PIXELS rows per thread,
// the source read through the sampler (texelFetch) or as a storage image (imageLoad).
#extension GL_GOOGLE_include_directive : require
#include "bench/copy_study.h"
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int PIXELS = 1;  // pixels per thread
layout(constant_id = 3) const bool STORAGE_READ = false;
layout(set = 0, binding = STUDY_SAMPLED_SOURCE) uniform sampler2D sampled_source;
layout(set = 0, binding = STUDY_STORAGE_SOURCE, rgba16f) uniform readonly image2D storage_source;
layout(set = 0, binding = STUDY_DESTINATION, rgba16f) uniform writeonly image2D destination;

void main() {
  const ivec2 size = imageSize(destination);
  // A group covers local_size_x x (local_size_y * PIXELS) pixels; a thread takes PIXELS of them,
  // local_size_y rows apart, so that each row of loads is still one contiguous run across the group.
  const ivec2 base = ivec2(gl_WorkGroupID.xy * uvec2(gl_WorkGroupSize.x, gl_WorkGroupSize.y * PIXELS) +
                           gl_LocalInvocationID.xy);
  vec4 texels[PIXELS];
  for (int i = 0; i < PIXELS; ++i) {
    const ivec2 p = base + ivec2(0, i * int(gl_WorkGroupSize.y));
    const ivec2 q = min(p, size - 1);
    texels[i] = STORAGE_READ ? imageLoad(storage_source, q) : texelFetch(sampled_source, q, 0);
  }
  for (int i = 0; i < PIXELS; ++i) {
    const ivec2 p = base + ivec2(0, i * int(gl_WorkGroupSize.y));
    if (all(lessThan(p, size))) imageStore(destination, p, texels[i]);
  }
}
