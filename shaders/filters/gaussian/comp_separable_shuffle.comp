#version 460
// comp.separable_shuffle: a separable blur in one dispatch with no shared memory and no barriers.
// Each subgroup walks down a strip of SHUFFLE_ROWS rows, segment = half its size columns wide, in
// batches of B rows; its lanes stand on a segment x 2 patch of the image (lane = phase * segment +
// column), so every fetch and store of the subgroup covers 2 rows of segment texels. Per batch:
//   1. a lane fetches rows 2o + phase of its column, and sums each horizontally, taking each tap
//      from the lane of its phase that fetched it (a subgroup shuffle);
//   2. the two lanes of a column trade halves of their sums, so that each then holds two channels
//      (phase 0: red and green, 1: blue and alpha) of all B rows, and appends them to a window of
//      the last 2r + B sums in registers;
//   3. each filters B outputs of its two channels from the window, and the two trade halves again
//      so that each stores whole texels of the output rows of its phase's parity.
//
// Why: comp.separable_stream stages every batch through shared memory between two barriers, with
// five groups of 128 threads per SM; with its filters cut to the centre tap it still stayed above
// the copy floor on the H100 (docs/families/gaussian-tried.md). Here subgroups run on their own. Why a patch of
// two rows and not one row of 32 lanes: that was this method's first shape, measured slower on
// the H100 (docs/families/gaussian-tried.md), as copies whose subgroups read single rows of 32 texels
// were (docs/copy-floor.md).
//
// The apron: lane j of a phase also fetches one apron texel, the right apron's (column
// segment + j of the strip) for j < r and the left apron's (column j - segment) for
// j >= segment - r (2r <= segment). Tap +t of lane l comes from lane (l + t) mod segment of its
// phase: that lane's own texel when l + t < segment, else its right-apron texel, which is column
// l + t; tap -t alike. So each tap is one select on the sending side and one shuffle.
//! variant fp16 OUTPUT_FORMAT=rgba16f STORE_HALF=1
//! variant fp32 OUTPUT_FORMAT=rgba32f STORE_HALF=0
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = GAUSSIAN_RADIUS_ID) const int RADIUS = 1;
layout(local_size_x = SHUFFLE_THREADS) in;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // read with texelFetch: no filtering
// w4[j / 4][j % 4] = w(j - RADIUS), j in [0, 2r] (the stream method's block; its half weights unused).
layout(set = 0, binding = BINDING_WEIGHTS, std140) uniform Weights { vec4 w4[GAUSSIAN_WEIGHT_VEC4S]; };
#define W(j) w4[(j) >> 2][(j) & 3]
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// Texels and horizontal sums as held in registers and shuffled: for fp16 images packed halves (half
// the shuffles and registers; the sums rounded as comp.separable_shared rounds its fp16
// intermediate image), for fp32 images floats. Accumulation is fp32 throughout.
#if STORE_HALF
#define Held uvec2
#define Pair uint
Held held_form(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 held_value(Held h) { return vec4(unpackHalf2x16(h.x), unpackHalf2x16(h.y)); }
Pair pair_form(vec2 v) { return packHalf2x16(v); }
vec2 pair_value(Pair p) { return unpackHalf2x16(p); }
Pair half_of(Held h, int i) { return i == 0 ? h.x : h.y; }
#else
#define Held vec4
#define Pair vec2
Held held_form(vec4 v) { return v; }
vec4 held_value(Held h) { return h; }
Pair pair_form(vec2 v) { return v; }
vec2 pair_value(Pair p) { return p; }
Pair half_of(Held h, int i) { return i == 0 ? h.xy : h.zw; }
#endif

#if STORE_HALF
const int B = SHUFFLE_BATCH_FP16;  // input rows per batch
#else
const int B = SHUFFLE_BATCH_FP32;
#endif
const int TAPS = 2 * RADIUS + 1;
const int WINDOW = 2 * RADIUS + B;  // horizontal sums per column kept by the vertical step

// The horizontal sum of a lane's texel's row (segment: a power of two).
vec4 horizontal(Held own, Held apron, int segment, int phase, int column) {
  vec4 sum = W(RADIUS) * held_value(own);
  [[unroll]] for (int t = 1; t <= RADIUS; ++t) {
    const int base = phase * segment;
    const Held right = subgroupShuffle(column < t ? apron : own, base + ((column + t) & (segment - 1)));
    const Held left = subgroupShuffle(column >= segment - t ? apron : own, base + ((column - t) & (segment - 1)));
    sum += W(RADIUS + t) * held_value(right);
    sum += W(RADIUS - t) * held_value(left);
  }
  return sum;
}

void main() {
  const ivec2 size = textureSize(source, 0), hi = size - 1;
  const int lane = int(gl_SubgroupInvocationID);
  // The subgroup size is the one this dispatch runs at, which Vulkan 1.3 lets the driver choose
  // between the device's smallest and largest (the host checks 2r <= half the smallest).
  const int segment = int(gl_SubgroupSize) / 2;
  const int column = lane & (segment - 1), phase = lane >= segment ? 1 : 0;
  const int x = (int(gl_WorkGroupID.x) * int(gl_NumSubgroups) + int(gl_SubgroupID)) * segment + column;
  const int own_x = min(x, hi.x);
  const bool holds_apron = column < RADIUS || column >= segment - RADIUS;
  const int apron_x = clamp(x + (column < RADIUS ? segment : -segment), 0, hi.x);

  // A group a strip: the host dispatches ceil(height / SHUFFLE_ROWS) groups down.
  const int top = int(gl_WorkGroupID.y) * SHUFFLE_ROWS, rows = min(SHUFFLE_ROWS, size.y - top);
  const int batches = (rows + 2 * RADIUS + B - 1) / B;

  Pair window[WINDOW];
  [[unroll]] for (int j = 0; j < WINDOW; ++j) window[j] = pair_form(vec2(0.0));
  for (int i = 0; i < batches; ++i) {
    // After batch i the window holds the sums of rows top - r + i * B - 2r .. top - r + i * B + B - 1,
    // so output k of this batch is row top + i * B - 2r + k.
    // 1. Rows k = 2o + phase.
    Held own[B / 2], apron[B / 2];
    [[unroll]] for (int o = 0; o < B / 2; ++o) {
      const int y = clamp(top - RADIUS + i * B + 2 * o + phase, 0, hi.y);
      own[o] = held_form(texelFetch(source, ivec2(own_x, y), 0));
      apron[o] = own[o];
      if (holds_apron) apron[o] = held_form(texelFetch(source, ivec2(apron_x, y), 0));
    }
    // 2. Each lane keeps its phase's channels of its own row and receives them for the other phase's.
    [[unroll]] for (int j = 0; j < 2 * RADIUS; ++j) window[j] = window[j + B];
    [[unroll]] for (int o = 0; o < B / 2; ++o) {
      const Held sum = held_form(horizontal(own[o], apron[o], segment, phase, column));
      const Pair mine = half_of(sum, phase);
      const Pair theirs = subgroupShuffleXor(half_of(sum, 1 - phase), segment);
      window[2 * RADIUS + 2 * o] = phase == 0 ? mine : theirs;
      window[2 * RADIUS + 2 * o + 1] = phase == 0 ? theirs : mine;
    }
    const int m0 = i * B - 2 * RADIUS;  // output row of k = 0, relative to top
    if (m0 + B <= 0) continue;          // the window is not full yet (uniform over the subgroup)
    // 3. Outputs of this lane's two channels, then whole texels of rows 2o + phase.
    Pair out_pairs[B];
    [[unroll]] for (int k = 0; k < B; ++k) {
      vec2 sum = vec2(0.0);
      [[unroll]] for (int j = 0; j < TAPS; ++j) sum += W(j) * pair_value(window[k + j]);
      out_pairs[k] = pair_form(sum);  // fp16: rounded here, as lavapipe's conversion on store truncates
    }
    [[unroll]] for (int o = 0; o < B / 2; ++o) {
      const Pair mine = phase == 0 ? out_pairs[2 * o] : out_pairs[2 * o + 1];
      const Pair theirs = subgroupShuffleXor(phase == 0 ? out_pairs[2 * o + 1] : out_pairs[2 * o], segment);
      const vec4 texel = phase == 0 ? vec4(pair_value(mine), pair_value(theirs)) : vec4(pair_value(theirs), pair_value(mine));
      const int m = m0 + 2 * o + phase;
      if (x <= hi.x && m >= 0 && m < rows) imageStore(destination, ivec2(x, top + m), texel);
    }
  }
}
