#version 460
// comp.separable_fused: a separable blur in one dispatch, which reads each input texel of a tile
// once from memory and writes each output once (the two-pass comp.separable_shared writes and reads
// a full intermediate image between its passes). The host sizes the tile
// (renderer/filters/gaussian/compute.cpp).
//
// 32x8 threads own a tile of 32 x 8K outputs (K = 1 to 8 rows per thread), and one shared array of
// vec4 serves the staged texels first and the horizontal sums after:
//   1. Stage: the tile plus an apron of RADIUS on every side, (32 + 2r) x (8K + 2r) texels, each
//      fetched once, consecutive threads on consecutive texels of a row (whole cache lines per warp).
//      Interior groups (tile and apron inside the image, decided per group: no divergence) fetch
//      unclamped; only edge groups clamp to the image.
//   barrier
//   2. Horizontal: the 32 horizontal sums of each of the 8K + 2r staged rows, into registers. A
//      task is a run of RUN adjacent sums of one row: it reads the 2r + RUN texels they need once
//      each and feeds each to every sum it belongs to. Consecutive threads take the same run of
//      consecutive rows; the odd row stride (in texels) puts their reads on distinct banks.
//   barrier (every staged texel has been read), then the sums go to the same array, barrier.
//   3. Vertical: each thread runs down one column, K outputs, reading the 2r + K sums they need once
//      each into K accumulators; a warp covers a row of 32 consecutive sums (conflict-free) and
//      stores 32 consecutive pixels.
// Staging in fp32 (not packed half) costs twice the bytes per texel but no unpacking per read, and
// with one array for texels and sums the tile still takes less shared memory than two arrays did,
// so K can be larger: fewer shared reads per output in step 3 and a smaller apron share.
// The weights are a uniform block and RADIUS, K and RUN specialization constants: the loops unroll
// and every multiply takes its weight as a constant operand. Accumulation is fp32 throughout.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require

layout(constant_id = GAUSSIAN_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = GAUSSIAN_FUSED_K_ID) const int K = 1;    // outputs per thread in the vertical pass: 1 to 8
layout(constant_id = GAUSSIAN_FUSED_RUN_ID) const int RUN = 4;  // horizontal sums per task: 1, 2, 4 or 8 (divides 32)
layout(local_size_x = FUSED_GROUP_X, local_size_y = FUSED_GROUP_Y) in;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // read with texelFetch: no filtering
// The kernel's weights buffer as a std140 block: w4[j / 4][j % 4] = w(j - RADIUS), j in [0, 2r]
// (renderer/filters/gaussian/gaussian.h).
layout(set = 0, binding = BINDING_WEIGHTS, std140) uniform Weights { vec4 w4[GAUSSIAN_WEIGHT_VEC4S]; };
#define W(j) w4[(j) >> 2][(j) & 3]
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

const int THREADS = FUSED_GROUP_X * FUSED_GROUP_Y;
const int TILE_W = FUSED_GROUP_X;
const int TILE_H = FUSED_GROUP_Y * K;
const int TAPS = 2 * RADIUS + 1;
const int IN_W = TILE_W + 2 * RADIUS;  // staged texels per row (even)
const int ROWS = TILE_H + 2 * RADIUS;  // staged rows, and rows of horizontal sums
const int IN_STRIDE = IN_W + 1;        // odd: lanes on consecutive rows hit distinct banks
const int SUM_STRIDE = TILE_W + 1;     // odd, likewise; <= IN_STRIDE, so the sums fit the array
const int STAGED = ROWS * IN_W;
const int STAGE_ROUNDS = (STAGED + THREADS - 1) / THREADS;
const int TASKS = ROWS * (TILE_W / RUN);
const int TASK_ROUNDS = (TASKS + THREADS - 1) / THREADS;

shared vec4 smem[ROWS * IN_STRIDE];

ivec2 direct(ivec2 p, ivec2 hi) { return p; }
ivec2 clamped(ivec2 p, ivec2 hi) { return clamp(p, ivec2(0), hi); }

// Staged texel i (row i / IN_W, column i % IN_W) goes to slot row * IN_STRIDE + column = i + row.
// Unrolled (the count is a constant), so each thread issues all its fetches at once; only the last
// round can run past the end.
#define STAGE(COORD)                                                                         \
  [[unroll]] for (int n = 0; n < STAGE_ROUNDS; ++n) {                                        \
    const int i = li + THREADS * n;                                                          \
    if (n < STAGE_ROUNDS - 1 || i < STAGED) {                                                \
      const int row = i / IN_W;                                                              \
      smem[i + row] = texelFetch(source, COORD(corner + ivec2(i - row * IN_W, row), hi), 0); \
    }                                                                                        \
  }

void main() {
  const ivec2 size = textureSize(source, 0), hi = size - 1;
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  const ivec2 corner = tile - RADIUS;  // the source texel staged at (0, 0)
  const int li = int(gl_LocalInvocationIndex);
  // Uniform over the group (gl_WorkGroupID and the image size only).
  const bool interior = all(greaterThanEqual(corner, ivec2(0))) && all(lessThan(corner + ivec2(IN_W, ROWS), size + 1));
  const bool tile_inside = all(lessThan(tile + ivec2(TILE_W, TILE_H), size + 1));

  // 1. Stage.
  if (interior) {
    STAGE(direct)
  } else {
    STAGE(clamped)
  }
  barrier();

  // 2. Horizontal sums, into registers. Task t: row t % ROWS, sums (t / ROWS) RUN .. + RUN - 1;
  // staged texel first + j is tap j - k of sum first + k. Fixed-size arrays and unrolled loops:
  // every index is a constant, so the sums live in registers.
  vec4 h[TASK_ROUNDS * RUN];
  [[unroll]] for (int n = 0; n < TASK_ROUNDS; ++n) {
    const int t = li + THREADS * n;
    if (n < TASK_ROUNDS - 1 || t < TASKS) {
      const int row = t % ROWS, first = (t / ROWS) * RUN;
      [[unroll]] for (int k = 0; k < RUN; ++k) h[n * RUN + k] = vec4(0.0);
      [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
        const vec4 v = smem[row * IN_STRIDE + first + j];
        [[unroll]] for (int k = 0; k < RUN; ++k)
          if (j - k >= 0 && j - k < TAPS) h[n * RUN + k] += W(j - k) * v;
      }
    }
  }
  barrier();  // every staged texel has been read: the array takes the sums now
  [[unroll]] for (int n = 0; n < TASK_ROUNDS; ++n) {
    const int t = li + THREADS * n;
    if (n < TASK_ROUNDS - 1 || t < TASKS) {
      const int row = t % ROWS, first = (t / ROWS) * RUN;
      [[unroll]] for (int k = 0; k < RUN; ++k) smem[row * SUM_STRIDE + first + k] = h[n * RUN + k];
    }
  }
  barrier();

  // 3. Vertical sums: sum row y0 + j is tap j - k of output row y0 + k.
  const int x = int(gl_LocalInvocationID.x), y0 = int(gl_LocalInvocationID.y) * K;
  vec4 acc[8];
  [[unroll]] for (int k = 0; k < K; ++k) acc[k] = vec4(0.0);
  [[unroll]] for (int j = 0; j < TAPS + K - 1; ++j) {
    const vec4 v = smem[(y0 + j) * SUM_STRIDE + x];
    [[unroll]] for (int k = 0; k < K; ++k)
      if (j - k >= 0 && j - k < TAPS) acc[k] += W(j - k) * v;
  }
  [[unroll]] for (int k = 0; k < K; ++k) {
    const ivec2 p = tile + ivec2(x, y0 + k);
    if (tile_inside || all(lessThan(p, size))) imageStore(destination, p, acc[k]);
  }
}

