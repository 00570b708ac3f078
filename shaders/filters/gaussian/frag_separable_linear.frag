#version 460
// One separable pass with hardware bilinear fetches (Chapman appendix A): r+1 fetches, each
// blending two neighbouring texels. Not exact: the sampler's sub-texel weights are quantized.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(constant_id = GAUSSIAN_DIRECTION_ID) const int DIRECTION = 0;
layout(location = 0) out vec4 result;

void main() {
  vec2 size = vec2(textureSize(source, 0));
  vec2 center = gl_FragCoord.xy;  // pixel centers are at .5
  vec2 axis = vec2(1 - DIRECTION, DIRECTION);
  vec4 sum = vec4(0.0);
  for (int k = 0; k <= RADIUS; ++k) sum += taps[k].y * textureLod(source, (center + taps[k].x * axis) / size, 0.0);
  result = sum;
}
