#version 460
#extension GL_GOOGLE_include_directive : require
#include "view_source.glsl"
#include "view_depth_range.glsl"
// The depth view's range step: this frame's nearest and farthest geometry depth (depth < 1; clear
// pixels and NaN do not count) into the range buffer, for view_depth.comp to show. It binds only
// the source and the buffer, so the graph orders it against nothing it does not touch.

layout(set = 0, binding = BINDING_VIEW_RANGE, std430) buffer DepthRange {
  uint range_lo;
  uint range_hi;
};

shared uint group_lo, group_hi;

// One shared-memory min/max per workgroup, then one global atomic per workgroup: a global atomic
// per pixel would serialize millions of operations on one address.
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (gl_LocalInvocationIndex == 0u) {
    group_lo = 0xffffffffu;
    group_hi = 0u;
  }
  barrier();
  if (all(lessThan(p, textureSize(source, 0)))) {
    const float d = texelFetch(source, p, 0).r;
    if (d < 1.0) {
      atomicMin(group_lo, order_key(d));
      atomicMax(group_hi, order_key(d));
    }
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u && group_lo <= group_hi) {
    atomicMin(range_lo, group_lo);
    atomicMax(range_hi, group_hi);
  }
}
