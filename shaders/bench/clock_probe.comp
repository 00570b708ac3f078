#version 460
// bench's clock probe (renderer/bench/clock_watch.h): one warp's chain of dependent multiply-adds,
// after the method's passes (it reads a texel of their output, so the graph puts a barrier before
// it). Its time is the chain's cycles over the SM clock: bench compares it with the fastest it has
// seen to tell whether a case ran at the top clock.
#extension GL_GOOGLE_include_directive : require
#include "config.h"

layout(local_size_x = 32) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D after;
layout(set = 0, binding = BINDING_DESTINATION, r32f) uniform writeonly image2D sink;

// Long enough that the launch, and a switch from a graphics pass, stay a small share of it, well
// inside the clock watch's band (bench/results/h100-2026-11-28-clock, calls e20 and e21).
const int STEPS = 32768;

void main() {
  // From the output, so that no compiler folds the chain.
  float x = 1.0 + 1e-9 * texelFetch(after, ivec2(0), 0).r + 1e-9 * float(gl_LocalInvocationID.x);
  for (int i = 0; i < STEPS; ++i) x = fma(x, 0.99999994, 1e-7);
  if (gl_LocalInvocationID.x == 0u) imageStore(sink, ivec2(0), vec4(x));
}
