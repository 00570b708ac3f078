#ifndef COMPARE_REDUCTION_GLSL
#define COMPARE_REDUCTION_GLSL
#include "passes/passes_config.h"
// The last step of both metrics shaders: each of a workgroup's 256 invocations holds the sums of
// squared differences of R, G, B and the largest |A-B| of its share, and a shared-memory tree
// folds them into one (sums added, maxima kept). A tree keeps the fp32 error near log2(256)
// roundings; one running sum would lose digits as it grows. It contains barrier(): every
// invocation must call it. The result is the workgroup's in every invocation.
shared vec4 reduction_scratch[256];

vec4 reduce_workgroup(vec4 share) {
  const uint index = gl_LocalInvocationIndex;
  reduction_scratch[index] = share;
  barrier();
  for (uint stride = 128; stride > 0; stride >>= 1) {
    if (index < stride) {
      const vec4 mine = reduction_scratch[index], other = reduction_scratch[index + stride];
      reduction_scratch[index] = vec4(mine.xyz + other.xyz, max(mine.w, other.w));
    }
    barrier();
  }
  return reduction_scratch[0];
}

#endif
