// comp.separable_fused: a separable blur in one dispatch, which reads each input texel of a tile
// once from memory and writes each output once (the two-pass comp.separable_shared writes and reads
// a full intermediate image between its passes). Included by comp_separable_fused_fp16.comp
// (PACKED_HALF: texels staged as two packHalf2x16 words) and comp_separable_fused_fp32.comp (vec4),
// which also set OUTPUT_FORMAT. The host sizes the tile (renderer/filters/blur_compute.cpp).
//
// 32x8 threads own a tile of 32 x 8K outputs:
//   1. Stage: the tile plus an apron of RADIUS on every side, (32 + 2r) x (8K + 2r) texels, clamped
//      to the image's edge, each fetched once (consecutive threads, consecutive texels of a row).
//   barrier
//   2. Horizontal: the 32 horizontal sums of each of the 8K + 2r staged rows, into a second shared
//      array (fp32). A task is a run of RUN adjacent sums of one row: it reads the 2r + RUN texels
//      they need once each and feeds each to every sum it belongs to. Consecutive threads take the
//      same run of consecutive rows: with odd row strides (in texels) in both arrays, the lanes of
//      a warp read and write distinct banks.
//   barrier
//   3. Vertical: each thread runs down one column, K outputs, reading the 2r + K sums they need once
//      each; a warp covers a row of 32 consecutive sums and stores 32 consecutive pixels.
// Accumulation is fp32 throughout. In fp16, the staged texels are rounded to half first: exact for
// an fp16 input (a chain's images), one extra half rounding for a wider one.
#ifndef FILTERLAB_COMP_SEPARABLE_FUSED_COMMON_GLSL
#define FILTERLAB_COMP_SEPARABLE_FUSED_COMMON_GLSL
#extension GL_EXT_control_flow_attributes : require

layout(constant_id = 0) const int RADIUS = 1;
layout(constant_id = 1) const int K = 1;    // outputs per thread in the vertical pass: 1 to 4
layout(constant_id = 2) const int RUN = 4;  // horizontal sums per task: 1, 2, 4 or 8 (divides 32)
layout(local_size_x = 32, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D source;  // read with texelFetch: no filtering
// weights[RADIUS + i] = w(i) for i in [-RADIUS, RADIUS] (filters/blur_methods.h).
layout(set = 0, binding = 1, std430) readonly buffer Weights { float weights[]; };
layout(set = 0, binding = 2, OUTPUT_FORMAT) uniform writeonly image2D destination;

const int THREADS = 256;
const int TILE_W = 32;
const int TILE_H = 8 * K;
const int TAPS = 2 * RADIUS + 1;
const int IN_W = TILE_W + 2 * RADIUS;  // staged texels per row (even)
const int ROWS = TILE_H + 2 * RADIUS;  // staged rows, and rows of horizontal sums
const int IN_STRIDE = IN_W + 1;        // odd: lanes on consecutive rows hit distinct banks
const int SUM_STRIDE = TILE_W + 1;     // odd, likewise
const int TASKS = ROWS * (TILE_W / RUN);

#ifdef PACKED_HALF
shared uvec2 texels[ROWS * IN_STRIDE];
void put_texel(int slot, vec4 v) { texels[slot] = uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 get_texel(int slot) {
  const uvec2 u = texels[slot];
  return vec4(unpackHalf2x16(u.x), unpackHalf2x16(u.y));
}
#else
shared vec4 texels[ROWS * IN_STRIDE];
void put_texel(int slot, vec4 v) { texels[slot] = v; }
vec4 get_texel(int slot) { return texels[slot]; }
#endif
shared vec4 sums[ROWS * SUM_STRIDE];

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  const ivec2 corner = tile - RADIUS;  // the source texel staged at (0, 0)
  const int li = int(gl_LocalInvocationIndex);

  // 1. Stage. Unrolled (the count is a constant), so each thread issues all its fetches at once.
  [[unroll]] for (int n = 0; n < (ROWS * IN_W + THREADS - 1) / THREADS; ++n) {
    const int i = li + THREADS * n;
    if (i < ROWS * IN_W) {
      const ivec2 e = ivec2(i % IN_W, i / IN_W);
      put_texel(e.y * IN_STRIDE + e.x, texelFetch(source, clamp(corner + e, ivec2(0), size - 1), 0));
    }
  }
  barrier();

  // 2. Horizontal sums. Task t: row t % ROWS, sums (t / ROWS) RUN .. + RUN - 1; staged texel
  // first + j is tap j - k of sum first + k. The arrays have fixed sizes so that, once unrolled,
  // every index is a constant and the accumulators live in registers.
  [[unroll]] for (int n = 0; n < (TASKS + THREADS - 1) / THREADS; ++n) {
    const int t = li + THREADS * n;
    if (t < TASKS) {
      const int row = t % ROWS, first = (t / ROWS) * RUN;
      vec4 acc[8];
      [[unroll]] for (int k = 0; k < RUN; ++k) acc[k] = vec4(0.0);
      [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
        const vec4 v = get_texel(row * IN_STRIDE + first + j);
        [[unroll]] for (int k = 0; k < RUN; ++k)
          if (j - k >= 0 && j - k < TAPS) acc[k] += weights[j - k] * v;
      }
      [[unroll]] for (int k = 0; k < RUN; ++k) sums[row * SUM_STRIDE + first + k] = acc[k];
    }
  }
  barrier();

  // 3. Vertical sums: sum row y0 + j is tap j - k of output row y0 + k.
  const int x = int(gl_LocalInvocationID.x), y0 = int(gl_LocalInvocationID.y) * K;
  vec4 acc[4];
  [[unroll]] for (int k = 0; k < K; ++k) acc[k] = vec4(0.0);
  [[unroll]] for (int j = 0; j < TAPS + K - 1; ++j) {
    const vec4 v = sums[(y0 + j) * SUM_STRIDE + x];
    [[unroll]] for (int k = 0; k < K; ++k)
      if (j - k >= 0 && j - k < TAPS) acc[k] += weights[j - k] * v;
  }
  [[unroll]] for (int k = 0; k < K; ++k) {
    const ivec2 p = tile + ivec2(x, y0 + k);
    if (all(lessThan(p, size))) imageStore(destination, p, acc[k]);
  }
}

#endif  // FILTERLAB_COMP_SEPARABLE_FUSED_COMMON_GLSL
