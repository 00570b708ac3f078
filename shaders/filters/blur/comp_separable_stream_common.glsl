// comp.separable_stream: a separable blur in one dispatch in which each workgroup walks down a strip
// of STRIP columns (64, or 32 where 64 do not fit), batch by batch, instead of staging a tile plus
// an apron on all four sides.
// Included by comp_separable_stream_fp16.comp and comp_separable_stream_fp32.comp, which set
// OUTPUT_FORMAT and STORE_HALF; the body is the same for both. The host picks how many groups share
// the image height (renderer/filters/blur_compute.cpp).
//
// Why: comp.separable_fused re-fetches a vertical apron of 2r rows for every tile of 8K rows, runs
// three barriers per tile with nothing in flight across them, and at r = 8 fits only 40 rows in
// 48 KiB. Walking down a strip, the vertical apron is paid once per strip (a few percent of its
// height), and the next batch's texels are fetched while the current batch is filtered.
//
// Per batch of B = 8 input rows, with 2 threads per column (THREADS = 2 * STRIP):
//   1. The B x (STRIP + 2r) texels fetched during the previous batch go to the stage array.
//   barrier; then the next batch's texels are fetched into registers (in flight during 2 and 3).
//   2. Horizontal: each thread sums one run of RUN adjacent sums of one staged row from the 2r + RUN
//      texels it needs, each read once; the sums go to the ring, which holds the last 2r + B rows
//      of horizontal sums (plus padding to a multiple of B).
//   barrier
//   3. Vertical: each thread reads the 2r + RUN sums of its column that its RUN outputs need and
//      stores the outputs, B rows behind the horizontal pass by 2r (+ padding).
// The barrier before step 2 of the next batch also orders step 3's ring reads before its writes.
// Runs of RUN = 4, not one thread per column with runs of 8: half the registers a thread holds
// (accumulators, and the loads the compiler hoists) for more shared reads per output. On the H100
// at r = 8 that is 98 registers against 170, and 3840x2160 fp16 takes 99.6 us against 103; at r = 16,
// 208 us against 517 (245 registers: few groups resident).
// Shared memory holds the image's precision: fp16 chains keep texels and horizontal sums as packed
// halves (the input is already half, and the sums are rounded as comp.separable_shared rounds its
// fp16 intermediate image); accumulation is fp32 throughout.
// Banks: rows padded to 1 mod 16 elements, and runs dealt to lanes so that each half-warp's runs
// start 8 elements apart, put the 16 lanes of a half-warp (8 rows, 2 runs; one 64-bit access each)
// on distinct banks in step 2; in step 3 the lanes read consecutive sums.
#ifndef FILTERLAB_COMP_SEPARABLE_STREAM_COMMON_GLSL
#define FILTERLAB_COMP_SEPARABLE_STREAM_COMMON_GLSL
#extension GL_EXT_control_flow_attributes : require

layout(constant_id = 0) const int RADIUS = 1;
layout(constant_id = 1) const int STRIP = 64;    // output columns per group: 64 or 32
layout(constant_id = 2) const int THREADS = 128;  // 2 * STRIP (a constant of its own: the group size)
layout(local_size_x_id = 2) in;

layout(set = 0, binding = 0) uniform sampler2D source;  // read with texelFetch: no filtering
// BlurFilter's weights buffer as a std140 block: w4[j / 4][j % 4] = w(j - RADIUS), j in [0, 2r].
layout(set = 0, binding = 1, std140) uniform Weights { vec4 w4[17]; };
#define W(j) w4[(j) >> 2][(j) & 3]
layout(set = 0, binding = 2, OUTPUT_FORMAT) uniform writeonly image2D destination;

#if STORE_HALF
#define Stored uvec2
Stored store_form(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 load_form(Stored s) { return vec4(unpackHalf2x16(s.x), unpackHalf2x16(s.y)); }
#else
#define Stored vec4
Stored store_form(vec4 v) { return v; }
vec4 load_form(Stored s) { return s; }
#endif

const int B = 8;                      // input rows per batch
const int RUN = B * STRIP / THREADS;  // sums per horizontal run, and outputs per thread and batch: 4
const int TAPS = 2 * RADIUS + 1;
const int IN_W = STRIP + 2 * RADIUS;              // staged texels per row
const int PAD = (B - (2 * RADIUS) % B) % B;       // so that the lag below is whole batches
const int LAG = 2 * RADIUS + PAD;                 // input rows fetched before the first output row
const int RING = LAG + B;                         // rows of sums kept: a multiple of B
const int STAGE_STRIDE = IN_W + (17 - IN_W % 16) % 16;  // = 1 mod 16
const int RING_STRIDE = STRIP + 1;                      // = 1 mod 16
// Staged rows are fetched FETCH_W texels wide, a multiple of THREADS / B (8 or 16), so that every
// thread fetches the same number of texels and none is conditional (a partial last round made r = 1
// to 3 slower than r = 4 on the H100); the few extra texels land in the row padding: IN_W is even, so
// its padding to 1 mod 16 is at least one past the next multiple of 16 (FETCH_W < STAGE_STRIDE).
const int FETCH_W = (IN_W + THREADS / B - 1) / (THREADS / B) * (THREADS / B);
const int FETCHES = B * FETCH_W / THREADS;  // texels per thread and batch

shared Stored stage[B * STAGE_STRIDE];
shared Stored ring[RING * RING_STRIDE];

// Per group, set once in main().
ivec2 size, hi, origin;
int t, x0, top, rows, batches;

// Texel n of a batch (row n / FETCH_W, column n % FETCH_W) is fetched by thread n % STRIP. Every
// fetch clamps to the edge: a few integer operations per texel, no divergence.
void fetch(int batch, out vec4 fetched[FETCHES]) {
  [[unroll]] for (int f = 0; f < FETCHES; ++f) {
    const int n = t + THREADS * f;
    const ivec2 p = origin + ivec2(n % FETCH_W, batch * B + n / FETCH_W);
    fetched[f] = texelFetch(source, clamp(p, ivec2(0), hi), 0);
  }
}

void stage_batch(vec4 fetched[FETCHES]) {
  [[unroll]] for (int f = 0; f < FETCHES; ++f) {
    const int n = t + THREADS * f;
    stage[(n / FETCH_W) * STAGE_STRIDE + n % FETCH_W] = store_form(fetched[f]);
  }
}

// 2. Horizontal: staged texel first + j is tap j - k of sum first + k. Batches never straddle the
// ring's end (RING is a multiple of B).
void horizontal(int i) {
  // Runs are dealt so that lanes 0-15 of a warp take its runs 0 and 2, lanes 16-31 runs 1 and 3:
  // in order, a half-warp's two runs would start 4 elements apart and 4 of its 8 rows would share
  // banks with the other run's.
  const int q = t / B;
  const int run = (q & ~3) | ((q & 1) << 1) | ((q >> 1) & 1);
  const int row = t % B, first = run * RUN;
  vec4 h[RUN];
  [[unroll]] for (int k = 0; k < RUN; ++k) h[k] = vec4(0.0);
  [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
    const vec4 v = load_form(stage[row * STAGE_STRIDE + first + j]);
    [[unroll]] for (int k = 0; k < RUN; ++k)
      if (j - k >= 0 && j - k < TAPS) h[k] += W(j - k) * v;
  }
  const int slot = (i * B) % RING + row;
  [[unroll]] for (int k = 0; k < RUN; ++k) ring[slot * RING_STRIDE + first + k] = store_form(h[k]);
}

// 3. Vertical, once 2r rows (plus padding) of sums are ahead: output rows m0 .. m0 + B - 1 of the
// group read input rows m0 + PAD .. m0 + PAD + 2r + B - 1, the last 2r + B in the ring.
void vertical(int i) {
  const int column = t % STRIP, part = t / STRIP;
  const int m0 = i * B - LAG + part * RUN;
  if (i * B < LAG) return;
  const int base = (i * B - 2 * RADIUS + part * RUN) % RING;
  vec4 acc[RUN];
  [[unroll]] for (int k = 0; k < RUN; ++k) acc[k] = vec4(0.0);
  [[unroll]] for (int j = 0; j < TAPS + RUN - 1; ++j) {
    const int s = base + j < RING ? base + j : base + j - RING;
    const vec4 v = load_form(ring[s * RING_STRIDE + column]);
    [[unroll]] for (int k = 0; k < RUN; ++k)
      if (j - k >= 0 && j - k < TAPS) acc[k] += W(j - k) * v;
  }
  const int x = x0 + column;
  [[unroll]] for (int k = 0; k < RUN; ++k)
    if (x < size.x && m0 + k < rows) imageStore(destination, ivec2(x, top + m0 + k), acc[k]);
}

void main() {
  size = textureSize(source, 0);
  hi = size - 1;
  t = int(gl_LocalInvocationIndex);
  x0 = int(gl_WorkGroupID.x) * STRIP;
  // The groups in a column share the height evenly, in whole batches.
  const int groups_y = int(gl_NumWorkGroups.y);
  const int chunk = ((size.y + groups_y - 1) / groups_y + B - 1) / B * B;
  top = int(gl_WorkGroupID.y) * chunk;
  rows = min(chunk, size.y - top);  // output rows of this group
  if (rows <= 0) return;            // the whole group: no barrier is skipped by part of it
  batches = (LAG + rows + B - 1) / B;
  origin = ivec2(x0 - RADIUS, top - LAG + RADIUS);  // image texel of staged (0, 0) in batch 0

  // The next batch's texels are fetched into the registers just staged, and are in flight while
  // this batch is filtered. The barrier after staging also orders the previous batch's ring reads
  // before this batch's ring writes.
  vec4 fetched[FETCHES];
  fetch(0, fetched);
  for (int i = 0; i < batches; ++i) {
    stage_batch(fetched);
    barrier();
    if (i + 1 < batches) fetch(i + 1, fetched);
    horizontal(i);
    barrier();
    vertical(i);
  }
}

#endif  // FILTERLAB_COMP_SEPARABLE_STREAM_COMMON_GLSL
