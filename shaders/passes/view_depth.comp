#version 460
#extension GL_GOOGLE_include_directive : require
#include "view_common.glsl"
// The viewport's view of a depth image, in two steps (specializations): kRange finds this frame's
// nearest and farthest geometry depth, kShow maps raw depth to gray over that range or the one
// the push constants give. ViewPass documents the mapping (io::depth_to_display is the CPU one).
const uint kShow = 0, kRange = 1;
layout(constant_id = 0) const uint kStep = kShow;

// The nearest and farthest geometry depth of this frame, as order keys (see order_key), from the
// kRange step, which ViewPass's "range reset" pass starts at 0xffffffff and 0.
layout(set = 0, binding = 2, std430) buffer DepthRange {
  uint range_lo;
  uint range_hi;
};

// io::depth_to_display's ramp: the farthest geometry stops at dark gray, so it stays distinct from
// clear (depth 1) pixels, which are black.
const float kNearGray = 1.0, kFarGray = 48.0 / 255.0;

// A float's bits reordered so that unsigned order is float order (negative values too), for
// integer atomics min/max.
uint order_key(float value) {
  const uint bits = floatBitsToUint(value);
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

float from_order_key(uint key) {
  return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key);
}

shared uint group_lo, group_hi;

// One shared-memory min/max per workgroup, then one global atomic per workgroup: a global atomic
// per pixel would serialize millions of operations on one address.
void reduce_depth_range(ivec2 p, bool inside) {
  if (gl_LocalInvocationIndex == 0u) {
    group_lo = 0xffffffffu;
    group_hi = 0u;
  }
  barrier();
  if (inside) {
    const float d = texelFetch(source, p, 0).r;
    if (d < 1.0) {  // geometry; clear pixels (1) and NaN do not count
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

vec4 depth_view(ivec2 p) {
  const float d = texelFetch(source, p, 0).r;
  if (!(d < 1.0)) return vec4(0.0, 0.0, 0.0, 1.0);  // clear, beyond far, or NaN
  float lo = depth_lo, hi = depth_hi;
  if (!(hi > lo)) {
    lo = from_order_key(range_lo);
    hi = from_order_key(range_hi);
  }
  // Auto range with a single depth value: mid-ramp, as the capture does.
  const float t = hi > lo ? clamp((d - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  return vec4(vec3(mix(kNearGray, kFarGray, t)), 1.0);
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const bool inside = all(lessThan(p, imageSize(view)));
  if (kStep == kRange) {
    reduce_depth_range(p, inside);  // contains barrier(): every invocation must reach it
    return;
  }
  if (inside) imageStore(view, p, depth_view(p));
}
