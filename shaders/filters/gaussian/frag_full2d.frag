#version 460
// The default 2D convolution: (2r+1)^2 fetches per pixel.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(location = 0) out vec4 result;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 sum = vec4(0.0);
  for (int y = -RADIUS; y <= RADIUS; ++y) {
    vec4 row = vec4(0.0);
    for (int x = -RADIUS; x <= RADIUS; ++x) row += weight(x) * fetch_clamped(p + ivec2(x, y));
    sum += weight(y) * row;
  }
  result = sum;
}
