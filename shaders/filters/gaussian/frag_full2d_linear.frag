#version 460
// 2D convolution with bilinear fetches (Chapman's 2D variant): (r+1)^2 fetches, each blending
// a 2x2 block; exact in exact arithmetic because the kernel is an outer product.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(location = 0) out vec4 result;

void main() {
  vec2 size = vec2(textureSize(source, 0));
  vec4 sum = vec4(0.0);
  for (int ky = 0; ky <= RADIUS; ++ky)
    for (int kx = 0; kx <= RADIUS; ++kx)
      sum += taps[kx].y * taps[ky].y *
             textureLod(source, (gl_FragCoord.xy + vec2(taps[kx].x, taps[ky].x)) / size, 0.0);
  result = sum;
}
