#version 460
#extension GL_GOOGLE_include_directive : require
#include "flip_range.glsl"
// The exposure range's last step (FLIP_RANGE_SELECT_LOW), one workgroup: the median's low 16 bits,
// then the exposures as common::flip_exposures derives them: from log2(x / the largest luminance)
// to log2(x / the median), x the value FLIP's ACES takes to 0.85, max(2, ceil(stop - start)) of
// them (at most FLIP_MAX_EXPOSURES); none where either luminance is not above 0.
layout(set = 0, binding = BINDING_FLIP_EXPOSURES, std430) writeonly buffer Exposures {
  FlipExposuresGpu exposures;
};

void main() {
  uint bin, rank_in_bin;
  bool found;
  select_bin(rank, false, bin, rank_in_bin, found);
  if (!found) return;
  const float median = key_value((median_high << 16) | bin), largest = key_value(largest_key);
  FlipExposuresGpu e = FlipExposuresGpu(0.0, 0.0, 0u, 0u);
  if (largest > 0.0 && median > 0.0) {
    e.start = log2(push.aces_085 / largest);
    e.stop = log2(push.aces_085 / median);
    e.count = uint(clamp(ceil(e.stop - e.start), 2.0, float(FLIP_MAX_EXPOSURES)));
  }
  exposures = e;
}
