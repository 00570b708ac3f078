#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// FLIP's mean and maximum, step 1: each 16x16 workgroup sums a FLIP_REDUCE_TILE square of the map
// (2x2 pixels a thread) into (sum, 0, 0, max); compare_finish.comp folds the partials.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_FLIP_MAP, r32f) readonly uniform image2D flip_map;
layout(set = 0, binding = BINDING_FLIP_PARTIALS, std430) writeonly buffer Partials { vec4 partials[]; };

void main() {
  const ivec2 size = imageSize(flip_map);
  const ivec2 base = ivec2(gl_WorkGroupID.xy) * FLIP_REDUCE_TILE + ivec2(gl_LocalInvocationID.xy) * 2;
  float sum = 0.0, worst = 0.0;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const ivec2 p = base + ivec2(i, j);
      if (all(lessThan(p, size))) {
        const float v = imageLoad(flip_map, p).r;
        sum += v;
        worst = max(worst, v);
      }
    }
  const vec4 partial = reduce_workgroup(vec4(sum, 0.0, 0.0, worst));
  if (gl_LocalInvocationIndex == 0u) partials[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = partial;
}
