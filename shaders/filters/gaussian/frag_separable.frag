#version 460
// One pass of the separable convolution: 2r+1 fetches along DIRECTION (0: x, 1: y).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(constant_id = GAUSSIAN_DIRECTION_ID) const int DIRECTION = 0;
layout(location = 0) out vec4 result;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 step = ivec2(1 - DIRECTION, DIRECTION);  // arithmetic, not a spec-constant select (lavapipe)
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i) sum += weight(i) * fetch_clamped(p + i * step);
  result = sum;
}
