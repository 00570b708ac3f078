#version 460
// comp.separable_stream: a separable blur in one dispatch in which each workgroup walks down a strip
// of STRIP = 64 columns, batch by batch, instead of staging a tile plus an apron on all four sides.
// The fp16 and fp32 variants set OUTPUT_FORMAT and STORE_HALF; half.fp16
// (comp.separable_stream_half) also sets HALF_HORIZONTAL: step 2 in packed half arithmetic, see
// horizontal(). The host picks how many groups share the image height
// (renderer/filters/gaussian/compute.cpp).
//
// Why: comp.separable_fused re-fetches a vertical apron of 2r rows for every tile of 8K rows, runs
// three barriers per tile with nothing in flight across them, and at r = 8 fits only 40 rows in
// 48 KiB. Walking down a strip, the vertical apron is paid once per strip (a few percent of its
// height), and the next batch's texels are fetched while the current batch is filtered.
//
// Every thread works on two of the four channels (HALF 0: red and green, 1: blue and alpha), so a
// thread holds half the values per sum and can afford runs of 8 sums. Per batch of B = 8 input rows,
// with THREADS = 2 * STRIP:
//   1. The B x (STRIP + 2r) texels fetched during the previous batch go to the stage array.
//   barrier; then the next batch's texels are fetched into registers (in flight during 2 and 3).
//   2. Horizontal: each thread sums a run of 8 adjacent sums of one staged row, two channels, from
//      the 2r + 8 staged values it needs, each read once; the sums go to the sums array (B rows).
//   barrier
//   3. Vertical: each thread keeps a window of the last 2r + B horizontal sums of its column and
//      channel pair in registers: it appends the batch's B sums and filters B outputs from the
//      window. The two threads of a column swap halves of their outputs (a subgroup quad swap) so
//      that each stores 4 whole texels.
// The barrier before step 2 of the next batch also orders step 3's reads before the next writes.
// Why a window in registers and not a ring of 2r + B rows of sums in shared memory (the previous
// design): on the H100 the Vulkan driver gives a group no more than about 100 KiB of shared memory
// per SM, so a group's shared memory decides how many groups are resident: padding the ring design
// so that fewer groups fit made it much slower (docs/families/gaussian-tried.md). Here a group needs B rows of texels and B rows of sums, whatever the radius.
// Shared memory holds the image's precision: fp16 chains keep texels and horizontal sums as packed
// halves (the input is already half, and the sums are rounded as comp.separable_shared rounds its
// fp16 intermediate image); accumulation is fp32 throughout.
// Banks: rows padded to 1 mod 16 elements, with lanes (half, row, run) = (bit 0, bits 1-3, bit 4)
// in step 2, put a warp's 32-bit reads (fp16; a half-warp's 64-bit reads for fp32) on distinct
// banks; in step 3 the lanes read consecutive values.
//! variant fp16 OUTPUT_FORMAT=rgba16f STORE_HALF=1 HALF_HORIZONTAL=0
//! variant fp32 OUTPUT_FORMAT=rgba32f STORE_HALF=0 HALF_HORIZONTAL=0
//! variant half.fp16 OUTPUT_FORMAT=rgba16f STORE_HALF=1 HALF_HORIZONTAL=1
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#if HALF_HORIZONTAL
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

layout(constant_id = GAUSSIAN_RADIUS_ID) const int RADIUS = 1;
const int STRIP = STREAM_STRIP;      // output columns per group
const int THREADS = STREAM_THREADS;  // 2 * STRIP
layout(local_size_x = STREAM_THREADS) in;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // read with texelFetch: no filtering
// The kernel's weights buffer as a std140 block: w4[j / 4][j % 4] = w(j - RADIUS), j in [0, 2r], and
// the same weights rounded to half, twice in each word (one operand of a packed half FMA).
layout(set = 0, binding = BINDING_WEIGHTS, std140) uniform Weights {
  vec4 w4[GAUSSIAN_WEIGHT_VEC4S];
  uvec4 half_w4[GAUSSIAN_WEIGHT_VEC4S];
};
#define W(j) w4[(j) >> 2][(j) & 3]
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// Two channels as kept in shared memory and in the window.
#if STORE_HALF
#define Pair uint
Pair pair_form(vec2 v) { return packHalf2x16(v); }
vec2 load_pair(Pair p) { return unpackHalf2x16(p); }
#else
#define Pair vec2
Pair pair_form(vec2 v) { return v; }
vec2 load_pair(Pair p) { return p; }
#endif

const int B = STREAM_BATCH;  // input rows per batch
const int RUN = STREAM_RUN;  // horizontal sums per thread and batch
const int TAPS = 2 * RADIUS + 1;
const int WINDOW = 2 * RADIUS + B;                 // sums per column kept by the vertical step
const int IN_W = STRIP + 2 * RADIUS;               // staged texels per row
const int STAGE_STRIDE = STREAM_STAGE_STRIDE(IN_W);  // = 1 mod 16 (texels)
const int SUMS_STRIDE = STRIP + 1;                 // = 1 mod 16
// Staged rows are fetched FETCH_W texels wide, a multiple of the FETCH_T threads per row, so that
// every thread fetches the same number of texels and none is conditional (a partial last round
// made r = 1 to 3 slower than r = 4 on the H100); the few extra texels land in the row padding:
// IN_W is even, so its padding to 1 mod 16 is at least one past the next multiple of 16.
const int FETCH_T = THREADS / B;
const int FETCH_W = (IN_W + FETCH_T - 1) / FETCH_T * FETCH_T;
const int FETCHES = FETCH_W / FETCH_T;  // texels per thread and batch

// Texel (row, x) of a staged batch: stage[(row * STAGE_STRIDE + x) * 2 + half]; sums alike.
shared Pair stage[B * STAGE_STRIDE * 2];
shared Pair sums[B * SUMS_STRIDE * 2];

// Per group and thread, set once in main().
ivec2 hi;
int top, rows, batches, y_first;
int fetch_row, fetch_col;  // fetch: staged row lane / FETCH_T, columns lane % FETCH_T + FETCH_T * f

void fetch(int batch, out vec4 fetched[FETCHES]) {
  const int y = clamp(y_first + batch * B + fetch_row, 0, hi.y);
  [[unroll]] for (int f = 0; f < FETCHES; ++f)
    fetched[f] = texelFetch(source, ivec2(clamp(fetch_col + FETCH_T * f, 0, hi.x), y), 0);
}

void stage_batch(vec4 fetched[FETCHES], int x_first) {
  [[unroll]] for (int f = 0; f < FETCHES; ++f) {
    const int e = (fetch_row * STAGE_STRIDE + fetch_col - x_first + FETCH_T * f) * 2;
    stage[e] = pair_form(fetched[f].xy);
    stage[e + 1] = pair_form(fetched[f].zw);
  }
}

// 2. Horizontal: staged texel first + j is tap j - k of sum first + k.
#if HALF_HORIZONTAL
// In packed half arithmetic: one FMA serves both channels, with no unpacking, which halves step 2's
// arithmetic (docs/families/gaussian-tried.md). Every FMA rounds to half, and rounds at the
// size of its running sum, so each sum runs in two chains: the left taps up to the centre, then the
// right taps, summed at the end. The right chain starts from the larger inner weights, but its
// partial sums stay below about half the total; one chain of all taps nearly doubled the mean
// squared error added to the exact method's, in the same time. Other orders: docs/families/gaussian-tried.md.
// The indexing is the fp32 version's below: staged texel first + j is tap j - k of sum first + k.
#define WH(j) unpackFloat2x16(half_w4[(j) >> 2][(j) & 3])
void horizontal(int lane) {
  const int half_ = lane & 1, row = (lane >> 1) % B, first = lane / (2 * B) * RUN;
  f16vec2 left[RUN], right[RUN];
  [[unroll]] for (int k = 0; k < RUN; ++k) {
    left[k] = f16vec2(0.0);
    right[k] = f16vec2(0.0);
  }
  [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
    const f16vec2 v = unpackFloat2x16(stage[(row * STAGE_STRIDE + first + j) * 2 + half_]);
    [[unroll]] for (int k = 0; k < RUN; ++k) {
      if (j - k >= 0 && j - k <= RADIUS) left[k] = fma(WH(j - k), v, left[k]);
      if (j - k > RADIUS && j - k < TAPS) right[k] = fma(WH(j - k), v, right[k]);
    }
  }
  [[unroll]] for (int k = 0; k < RUN; ++k)
    sums[(row * SUMS_STRIDE + first + k) * 2 + half_] = packFloat2x16(left[k] + right[k]);
}
#else
void horizontal(int lane) {
  const int half_ = lane & 1, row = (lane >> 1) % B, first = lane / (2 * B) * RUN;
  vec2 h[RUN];
  [[unroll]] for (int k = 0; k < RUN; ++k) h[k] = vec2(0.0);
  [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
    const vec2 v = load_pair(stage[(row * STAGE_STRIDE + first + j) * 2 + half_]);
    [[unroll]] for (int k = 0; k < RUN; ++k)
      if (j - k >= 0 && j - k < TAPS) h[k] += W(j - k) * v;
  }
  [[unroll]] for (int k = 0; k < RUN; ++k) sums[(row * SUMS_STRIDE + first + k) * 2 + half_] = pair_form(h[k]);
}
#endif

// 3. Vertical: after batch i the window holds the sums of input rows i * B - 2r .. i * B + B - 1
// (counted from y_first = top - r), so output k is row top + i * B - 2r + k of the image.
void vertical(int lane, int i, int x, inout Pair window[WINDOW]) {
  const int half_ = lane & 1, column = lane >> 1;
  [[unroll]] for (int j = 0; j < 2 * RADIUS; ++j) window[j] = window[j + B];
  [[unroll]] for (int k = 0; k < B; ++k) window[2 * RADIUS + k] = sums[(k * SUMS_STRIDE + column) * 2 + half_];
  const int m0 = i * B - 2 * RADIUS;  // output row of k = 0, relative to top
  if (m0 + B <= 0) return;            // the window is not full yet (uniform over the group)
  vec2 acc[B];
  [[unroll]] for (int k = 0; k < B; ++k) acc[k] = vec2(0.0);
  [[unroll]] for (int j = 0; j < WINDOW; ++j) {
    const vec2 v = load_pair(window[j]);
    [[unroll]] for (int k = 0; k < B; ++k)
      if (j - k >= 0 && j - k < TAPS) acc[k] += W(j - k) * v;
  }
  // Half 0 stores rows 0-3 of the batch, half 1 rows 4-7; each hands the other the channels it
  // lacks. Both threads of a column are neighbours in a quad (see main()). fp16 outputs are
  // rounded to half before the swap, one 32-bit swap per texel half instead of two (the store of
  // values that are already half is exact), which measured faster (docs/families/gaussian-tried.md).
#if STORE_HALF
  uint packed[B];
  [[unroll]] for (int k = 0; k < B; ++k) packed[k] = packHalf2x16(acc[k]);
  [[unroll]] for (int k = 0; k < B / 2; ++k) {
    const uint mine = half_ == 0 ? packed[k] : packed[k + B / 2];
    const uint theirs = subgroupQuadSwapHorizontal(half_ == 0 ? packed[k + B / 2] : packed[k]);
    const int m = m0 + k + half_ * (B / 2);
    const uvec2 texel = half_ == 0 ? uvec2(mine, theirs) : uvec2(theirs, mine);
    if (x <= hi.x && m >= 0 && m < rows)
      imageStore(destination, ivec2(x, top + m), vec4(unpackHalf2x16(texel.x), unpackHalf2x16(texel.y)));
  }
#else
  [[unroll]] for (int k = 0; k < B / 2; ++k) {
    const vec2 mine = half_ == 0 ? acc[k] : acc[k + B / 2];
    const vec2 theirs = subgroupQuadSwapHorizontal(half_ == 0 ? acc[k + B / 2] : acc[k]);
    const int m = m0 + k + half_ * (B / 2);
    if (x <= hi.x && m >= 0 && m < rows)
      imageStore(destination, ivec2(x, top + m), half_ == 0 ? vec4(mine, theirs) : vec4(theirs, mine));
  }
#endif
}

void main() {
  const ivec2 size = textureSize(source, 0);
  hi = size - 1;
  // Lanes 2c and 2c + 1 (one column's two halves in step 3) must be neighbours in a subgroup quad,
  // so the thread number follows from the subgroup position, whatever local index the driver gave
  // it; THREADS is a multiple of every subgroup size up to 128, so full subgroups tile the group.
  const int lane = int(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
  const int x_first = int(gl_WorkGroupID.x) * STRIP - RADIUS;  // image column of staged texel 0
  fetch_row = lane / FETCH_T;
  fetch_col = x_first + lane % FETCH_T;
  // The groups in a column share the height evenly, in whole batches.
  const int groups_y = int(gl_NumWorkGroups.y);
  const int chunk = ((size.y + groups_y - 1) / groups_y + B - 1) / B * B;
  top = int(gl_WorkGroupID.y) * chunk;
  rows = min(chunk, size.y - top);  // output rows of this group
  if (rows <= 0) return;            // the whole group: no barrier is skipped by part of it
  batches = (rows + 2 * RADIUS + B - 1) / B;
  y_first = top - RADIUS;
  const int x = int(gl_WorkGroupID.x) * STRIP + (lane >> 1);

  Pair window[WINDOW];
  [[unroll]] for (int j = 0; j < WINDOW; ++j) window[j] = pair_form(vec2(0.0));
  // The next batch's texels are fetched into the registers just staged, and are in flight while
  // this batch is filtered. The barrier after staging also orders the previous batch's sums reads
  // before this batch's sums writes.
  vec4 fetched[FETCHES];
  fetch(0, fetched);
  for (int i = 0; i < batches; ++i) {
    stage_batch(fetched, x_first);
    barrier();
    if (i + 1 < batches) fetch(i + 1, fetched);
    horizontal(lane);
    barrier();
    vertical(lane, i, x, window);
  }
}

