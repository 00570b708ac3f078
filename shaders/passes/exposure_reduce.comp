#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// Automatic exposure, step 1: each 16x16 group sums the log luminance of a 32x32 tile (2x2 pixels
// an invocation) in a shared-memory tree, and counts its pixels; step 2 adds the tiles (the same
// two-level sum as the compare's metrics, for the same fp32 reason).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D hdr;
layout(set = 0, binding = BINDING_EXPOSURE_PARTIALS, std430) writeonly buffer Partials { vec4 partials[]; };

void main() {
  const ivec2 size = textureSize(hdr, 0);
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * EXPOSURE_TILE + ivec2(gl_LocalInvocationID.xy);
  float sum = 0.0, count = 0.0;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const ivec2 p = origin + 16 * ivec2(i, j);
      if (any(greaterThanEqual(p, size))) continue;
      const float l = dot(texelFetch(hdr, p, 0).rgb, vec3(0.2126, 0.7152, 0.0722));
      // max() with NaN is undefined: NaN counts as the floor, as on the CPU.
      sum += log(isnan(l) ? EXPOSURE_MIN_LUMINANCE : max(l, EXPOSURE_MIN_LUMINANCE));
      count += 1.0;
    }
  const vec4 tile = reduce_workgroup(vec4(sum, count, 0.0, 0.0));
  if (gl_LocalInvocationIndex == 0u)
    partials[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = tile;
}
