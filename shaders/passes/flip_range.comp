#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "flip_range.glsl"
// The exposure range, steps FLIP_RANGE_CLEAR to FLIP_RANGE_LOW (FLIP_RANGE_STEP_ID).
layout(constant_id = FLIP_RANGE_STEP_ID) const int kStep = FLIP_RANGE_CLEAR;

// One atomic per distinct bin among the subgroup's invocations, not one per pixel: flat regions
// put most of a subgroup's pixels in one bin, and atomics on one address serialize.
void count_in(uint bin, bool high_bins) {
  bool pending = true;
  while (pending) {
    const uint leader = subgroupBroadcastFirst(bin);
    if (bin == leader) {
      const uint n = subgroupBallotBitCount(subgroupBallot(true));
      if (subgroupElect()) {
        if (high_bins) atomicAdd(high[leader], n);
        else atomicAdd(low[leader], n);
      }
      pending = false;
    }
  }
}

void main() {
  const ivec2 size = textureSize(reference, 0);
  const uint index = gl_LocalInvocationIndex;
  if (kStep == FLIP_RANGE_CLEAR) {
    const uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u + index;
    if (i < FLIP_RANGE_BINS) high[i] = 0u, low[i] = 0u;
    if (i == 0u) largest_key = 0u, median_high = 0u, rank = 0u;
  } else if (kStep == FLIP_RANGE_SELECT_HIGH) {  // one workgroup: the median is rank n / 2
    uint bin, rank_in_bin;
    bool found;
    select_bin(uint(size.x) * uint(size.y) / 2u, true, bin, rank_in_bin, found);
    if (found) median_high = bin, rank = rank_in_bin;
  } else {
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size))) return;
    const uint key = luminance_key(p);
    if (kStep == FLIP_RANGE_HIGH) {
      count_in(key >> 16, true);
      const uint largest = subgroupMax(key);
      if (subgroupElect()) atomicMax(largest_key, largest);
    } else if ((key >> 16) == median_high) {
      count_in(key & 0xffffu, false);
    }
  }
}
