#ifndef FLIP_RANGE_GLSL
#define FLIP_RANGE_GLSL
#include "flip_common.glsl"
// HDR-FLIP's exposure range from the reference, on the GPU (passes_config.h says the steps): the
// largest luminance and the exact median (flip_range.comp), then common::flip_exposures' start,
// stop and count (flip_range_exposures.comp).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_FLIP_REFERENCE) uniform sampler2D reference;
layout(set = 0, binding = BINDING_FLIP_RANGE, std430) buffer Range {
  uint high[FLIP_RANGE_BINS];
  uint low[FLIP_RANGE_BINS];
  uint largest_key;  // the largest luminance's key
  uint median_high;  // the median's high 16 bits
  uint rank;         // the median's rank among the keys with those high bits
  uint pad;
};

// Luminance as common::flip_exposures takes it, and a key whose unsigned order is the float order.
uint luminance_key(ivec2 p) {
  const vec3 c = texelFetch(reference, p, 0).rgb;
  const uint bits = floatBitsToUint(0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b);
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

float key_value(uint key) {
  return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key);
}

shared uint share[256];

// One workgroup: the bin of `bins` holding the element of rank `target` (from 0), and that rank
// among the bin's own elements. Each thread totals 256 bins, a running sum over the threads finds
// the thread whose bins hold the rank, which walks them.
void select_bin(uint target, bool high_bins, out uint bin, out uint rank_in_bin, out bool found) {
  const uint t = gl_LocalInvocationIndex;
  uint total = 0u;
  for (uint i = 0u; i < 256u; ++i) total += high_bins ? high[t * 256u + i] : low[t * 256u + i];
  share[t] = total;
  barrier();
  uint before = 0u;
  for (uint i = 0u; i < t; ++i) before += share[i];
  found = target >= before && target < before + total;
  bin = 0u, rank_in_bin = 0u;
  if (!found) return;
  for (uint i = 0u; i < 256u; ++i) {
    const uint n = high_bins ? high[t * 256u + i] : low[t * 256u + i];
    if (target < before + n) {
      bin = t * 256u + i;
      rank_in_bin = target - before;
      return;
    }
    before += n;
  }
}

#endif
