#version 460
// bigblur comp.recursive, one direction (Deriche 1993, fourth order), block-parallel. Two second-
// order sections each run forward (causal: this texel and the one before) and backward (anticausal:
// the two after); the four are summed and scaled. A line is cut into blocks of BIGBLUR_BLOCK texels
// so that every (block, line) has a thread of its own, in three passes:
//   BLOCKS  each block's recursions from a zero state (its inputs at the edges read from the
//           neighbours): the state each leaves, into the states buffer;
//   SCAN    one thread a line carries the true states across its blocks: the state entering block
//           b + 1 is the zero-state one block b left plus block b's entering state carried through
//           its length by the homogeneous recursion (a 2x2 matrix a section, from the host in
//           double, on the state as (y1, y1 - y2), which does not cancel as (y1, y2) does where
//           the poles are near 1: at sigma 256 and blocks of 32, 1.9e-4 of error against 5.3e-4);
//           before the first texel and after the last the input is the edge texel repeated (clamp
//           to edge), whose steady state starts each recursion exactly;
//   OUTPUT  each block's recursions again from its true entering states: the forward results wait
//           in the destination (each thread reads back only what it wrote), the backward ones add.
// The recursion is linear, so a block's output from its true state is its zero-state output plus
// the state's own response: the result equals one thread running the whole line (the previous
// design, 2160 or 3840 threads on the H100: latency-bound). The states buffer holds, per (block,
// line), 8 vec4: causal (section 0: y[n-1], y[n-2]; section 1: the same), then anticausal (y[n+1],
// y[n+2] per section).
//! variant blocks BLOCKS OUTPUT_FORMAT=rgba32f
//! variant scan SCAN OUTPUT_FORMAT=rgba32f
//! variant output.fp16 OUTPUT OUTPUT_FORMAT=rgba16f
//! variant output.fp32 OUTPUT OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_LINE_GROUP) in;
layout(constant_id = BIGBLUR_VERTICAL_ID) const int VERTICAL = 0;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
#if defined(OUTPUT)
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform image2D destination;
#endif
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) buffer States { vec4 states[]; };
layout(push_constant) uniform Push { RecursiveCoefficients k; };

// Not consts: a const vector chosen by the specialization constant becomes a specialization-
// constant select, which lavapipe evaluated wrongly here (the vertical pass ran horizontally).
ivec2 along, size;
int length, lines;

ivec2 origin_of(int line, int n) { return along.y != 0 ? ivec2(line, n) : ivec2(n, line); }
vec4 x_at(int line, int n) { return texelFetch(source, origin_of(line, clamp(n, 0, length - 1)), 0); }
int state_index(int block, int line, int slot) { return (block * lines + line) * 8 + slot; }

// One step of section s, forward and backward.
vec4 forward(int s, vec4 x, vec4 before, vec4 y1, vec4 y2) {
  return k.causal[4 * s] * x + k.causal[4 * s + 1] * before - k.causal[4 * s + 2] * y1 - k.causal[4 * s + 3] * y2;
}
vec4 backward(int s, vec4 x1, vec4 x2, vec4 y1, vec4 y2) {
  return k.anticausal[4 * s] * x1 + k.anticausal[4 * s + 1] * x2 - k.causal[4 * s + 2] * y1 - k.causal[4 * s + 3] * y2;
}

// Section s's zero-input recursion carried `steps` steps, as the 2x2 matrix it is (the same in both
// directions: the recursion's own coefficients): columns the images of the states (1, 0), (0, 1).
mat2 carry(int s, int steps) {
  vec2 y1 = vec2(1.0, 0.0), y2 = vec2(0.0, 1.0);
  for (int n = 0; n < steps; ++n) {
    const vec2 y = -k.causal[4 * s + 2] * y1 - k.causal[4 * s + 3] * y2;
    y2 = y1;
    y1 = y;
  }
  return mat2(vec2(y1.x, y2.x), vec2(y1.y, y2.y));  // column j: (y1, y2) from basis state j
}
void apply(mat2 m, inout vec4 y1, inout vec4 y2) {
  const vec4 a = m[0][0] * y1 + m[1][0] * y2, b = m[0][1] * y1 + m[1][1] * y2;
  y1 = a;
  y2 = b;
}
// The same on the state as (y1, y1 - y2), which does not cancel (the host's block_carry).
void apply_difference(mat2 m, inout vec4 y1, inout vec4 y2) {
  const vec4 u = y1, v = y1 - y2;
  const vec4 u2 = m[0][0] * u + m[1][0] * v, v2 = m[0][1] * u + m[1][1] * v;
  y1 = u2;
  y2 = u2 - v2;
}

void main() {
  size = textureSize(source, 0);
  along = ivec2(1, 0);
  length = size.x;
  lines = size.y;
  if (VERTICAL != 0) {
    along = ivec2(0, 1);
    length = size.y;
    lines = size.x;
  }
  const int line = int(gl_GlobalInvocationID.x);
  if (line >= lines) return;
  const int blocks = (length + BIGBLUR_BLOCK - 1) / BIGBLUR_BLOCK;
#if defined(SCAN)
  // Each section's carry through a whole block (from the host, in double: it compounds over the
  // line's blocks), and through the last (shorter) one, used once.
  const int tail = length - (blocks - 1) * BIGBLUR_BLOCK;
  mat2 whole[2], last_block[2];
  for (int s = 0; s < 2; ++s) {
    whole[s] = mat2(k.block_carry[4 * s], k.block_carry[4 * s + 1], k.block_carry[4 * s + 2], k.block_carry[4 * s + 3]);
    last_block[s] = carry(s, tail);
  }
  // Forward: the state entering block 0 is the steady state of the edge texel repeated.
  vec4 y1[2], y2[2];
  const vec4 first = x_at(line, 0), last = x_at(line, length - 1);
  for (int s = 0; s < 2; ++s) y1[s] = y2[s] = first * k.anticausal[4 * s + 2];
  for (int b = 0; b < blocks; ++b) {
    for (int s = 0; s < 2; ++s) {
      const vec4 left1 = states[state_index(b, line, 2 * s)], left2 = states[state_index(b, line, 2 * s + 1)];
      states[state_index(b, line, 2 * s)] = y1[s];
      states[state_index(b, line, 2 * s + 1)] = y2[s];
      if (b == blocks - 1) apply(last_block[s], y1[s], y2[s]);
      else apply_difference(whole[s], y1[s], y2[s]);
      y1[s] += left1;
      y2[s] += left2;
    }
  }
  // Backward, from the last block.
  for (int s = 0; s < 2; ++s) y1[s] = y2[s] = last * k.anticausal[4 * s + 3];
  for (int b = blocks - 1; b >= 0; --b) {
    for (int s = 0; s < 2; ++s) {
      const int slot = 4 + 2 * s;
      const vec4 left1 = states[state_index(b, line, slot)], left2 = states[state_index(b, line, slot + 1)];
      states[state_index(b, line, slot)] = y1[s];
      states[state_index(b, line, slot + 1)] = y2[s];
      if (b == blocks - 1) apply(last_block[s], y1[s], y2[s]);
      else apply_difference(whole[s], y1[s], y2[s]);
      y1[s] += left1;
      y2[s] += left2;
    }
  }
#else
  const int block = int(gl_GlobalInvocationID.y), start = block * BIGBLUR_BLOCK;
  const int end = min(start + BIGBLUR_BLOCK, length);
  vec4 y1[2], y2[2];
  // Forward over the block: from a zero state (BLOCKS) or the true one (OUTPUT).
  for (int s = 0; s < 2; ++s) {
#if defined(OUTPUT)
    y1[s] = states[state_index(block, line, 2 * s)];
    y2[s] = states[state_index(block, line, 2 * s + 1)];
#else
    y1[s] = y2[s] = vec4(0.0);
#endif
  }
  vec4 before = x_at(line, start - 1);
  for (int n = start; n < end; ++n) {
    const vec4 x = x_at(line, n);
    vec4 sum = vec4(0.0);
    for (int s = 0; s < 2; ++s) {
      const vec4 y = forward(s, x, before, y1[s], y2[s]);
      y2[s] = y1[s];
      y1[s] = y;
      sum += y;
    }
    before = x;
#if defined(OUTPUT)
    imageStore(destination, origin_of(line, n), sum * k.inv_scale);  // scaled: near the input's magnitude, for fp16
#endif
  }
#if defined(BLOCKS)
  for (int s = 0; s < 2; ++s) {
    states[state_index(block, line, 2 * s)] = y1[s];
    states[state_index(block, line, 2 * s + 1)] = y2[s];
  }
#endif
  // Backward over the block, adding to what the forward pass left (OUTPUT).
  for (int s = 0; s < 2; ++s) {
#if defined(OUTPUT)
    y1[s] = states[state_index(block, line, 4 + 2 * s)];
    y2[s] = states[state_index(block, line, 5 + 2 * s)];
#else
    y1[s] = y2[s] = vec4(0.0);
#endif
  }
  vec4 x1 = x_at(line, end), x2 = x_at(line, end + 1);  // the input one and two texels ahead
  for (int n = end - 1; n >= start; --n) {
    vec4 sum = vec4(0.0);
    for (int s = 0; s < 2; ++s) {
      const vec4 y = backward(s, x1, x2, y1[s], y2[s]);
      y2[s] = y1[s];
      y1[s] = y;
      sum += y;
    }
    x2 = x1;
    x1 = x_at(line, n);
#if defined(OUTPUT)
    const ivec2 at = origin_of(line, n);
    imageStore(destination, at, imageLoad(destination, at) + sum * k.inv_scale);
#endif
  }
#if defined(BLOCKS)
  for (int s = 0; s < 2; ++s) {
    states[state_index(block, line, 4 + 2 * s)] = y1[s];
    states[state_index(block, line, 5 + 2 * s)] = y2[s];
  }
#endif
#endif
}
