#version 460
// bigblur comp.recursive, one direction (Deriche 1993, fourth order): one thread a line. Each of two
// second-order sections runs forward (causal: this texel and the one before) and backward
// (anticausal: the two after), the four summed and scaled. Before the first texel and after the last
// the input is the edge texel repeated (clamp to edge), so each recursion starts in its steady state
// for that constant: exact initial conditions, and the borders meet the bound like the middle. The
// cost is the line's length, whatever sigma. The forward results wait in the destination (each
// thread reads back only what it wrote), which is fp32 for the first direction.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_LINE_GROUP) in;
layout(constant_id = BIGBLUR_VERTICAL_ID) const int VERTICAL = 0;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform image2D destination;
layout(push_constant) uniform Push { RecursiveCoefficients k; };

void main() {
  const ivec2 size = textureSize(source, 0);
  // Not consts: a const vector chosen by the specialization constant becomes a specialization-
  // constant select, which lavapipe evaluated wrongly here (the vertical pass ran horizontally).
  ivec2 along = ivec2(1, 0), origin = ivec2(0, gl_GlobalInvocationID.x);
  int length = size.x, lines = size.y;
  if (VERTICAL != 0) {
    along = ivec2(0, 1);
    origin = ivec2(gl_GlobalInvocationID.x, 0);
    length = size.y;
    lines = size.x;
  }
  if (int(gl_GlobalInvocationID.x) >= lines) return;

  // Forward: both sections at once; y1, y2 their last two outputs.
  const vec4 first = texelFetch(source, origin, 0);
  vec4 y1[2], y2[2];
  for (int s = 0; s < 2; ++s) y1[s] = y2[s] = first * k.anticausal[4 * s + 2];
  vec4 before = first;
  for (int n = 0; n < length; ++n) {
    const ivec2 at = origin + n * along;
    const vec4 x = texelFetch(source, at, 0);
    vec4 sum = vec4(0.0);
    for (int s = 0; s < 2; ++s) {
      const vec4 y = k.causal[4 * s] * x + k.causal[4 * s + 1] * before - k.causal[4 * s + 2] * y1[s] -
                     k.causal[4 * s + 3] * y2[s];
      y2[s] = y1[s];
      y1[s] = y;
      sum += y;
    }
    before = x;
    imageStore(destination, at, sum * k.inv_scale);  // scaled: near the input's magnitude, for fp16
  }
  // Backward, adding to what the forward pass left.
  const vec4 last = texelFetch(source, origin + (length - 1) * along, 0);
  for (int s = 0; s < 2; ++s) y1[s] = y2[s] = last * k.anticausal[4 * s + 3];
  vec4 x1 = last, x2 = last;  // the input one and two texels ahead
  for (int n = length - 1; n >= 0; --n) {
    const ivec2 at = origin + n * along;
    vec4 sum = vec4(0.0);
    for (int s = 0; s < 2; ++s) {
      const vec4 y = k.anticausal[4 * s] * x1 + k.anticausal[4 * s + 1] * x2 - k.causal[4 * s + 2] * y1[s] -
                     k.causal[4 * s + 3] * y2[s];
      y2[s] = y1[s];
      y1[s] = y;
      sum += y;
    }
    x2 = x1;
    x1 = texelFetch(source, at, 0);
    imageStore(destination, at, imageLoad(destination, at) + sum * k.inv_scale);
  }
}
