// The drivers of window.glsl: one main() per method, chosen by the variant's define.
//   WINDOW_FULL2D             frag.full2d: a fragment shader fetching every texel of the window
//   QUAD_FRAGMENT_FINE/COARSE frag.quad_derivative(_coarse): the quad exchange in a fragment shader
//   QUAD_SUBGROUP             comp.quad_subgroup
//   QUAD_COMPUTE_DERIVATIVES  comp.quad_derivative
//   WINDOW_SHARED             comp.full2d_shared: the tile and its apron in shared memory
//   WINDOW_SEPARABLE          comp.separable_shared: row sums staged in shared memory, then columns
//   WINDOW_ROWS_PASS, WINDOW_COLUMNS_PASS  comp.separable_shared of a window of separable terms
//                             (window_terms.glsl): its two passes
// Compute variants also define OUTPUT_FORMAT (rgba16f or rgba32f) for their storage images.
#ifndef FILTERLAB_WINDOW_MAIN_GLSL
#define FILTERLAB_WINDOW_MAIN_GLSL

#ifndef WINDOW_OUTPUTS
#define WINDOW_OUTPUTS 1
#endif
#include "filters/common/window_sums.glsl"

// ---- outputs --------------------------------------------------------------------------------------
#if defined(WINDOW_FULL2D) || defined(QUAD_FRAGMENT_FINE) || defined(QUAD_FRAGMENT_COARSE)
layout(location = 0) out vec4 result0;
#if WINDOW_OUTPUTS > 1
layout(location = 1) out vec4 result1;
#endif
void write_results(ivec2 p, Acc a, vec4 centre, vec4 anchor) {
  result0 = window_result(a, 0, centre, anchor);
#if WINDOW_OUTPUTS > 1
  result1 = window_result(a, 1, centre, anchor);
#endif
}
#else
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D destination;
#if WINDOW_OUTPUTS > 1
layout(set = 0, binding = BINDING_DESTINATION_2, OUTPUT_FORMAT) writeonly uniform image2D destination2;
#endif
// Invocations past the image compute like the others (their quads or tiles need them) and only
// skip the store.
void write_results(ivec2 p, Acc a, vec4 centre, vec4 anchor) {
  if (all(lessThan(p, imageSize(destination)))) {
    imageStore(destination, p, window_result(a, 0, centre, anchor));
#if WINDOW_OUTPUTS > 1
    imageStore(destination2, p, window_result(a, 1, centre, anchor));
#endif
  }
}
#endif

// ---- frag.full2d --------------------------------------------------------------------------------
#if defined(WINDOW_FULL2D)
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  const vec4 centre = window_read(p), anchor = window_read(quad_anchor(p));
  write_results(p, window_sum(p, centre, anchor), centre, anchor);
}

// ---- the quad exchange ----------------------------------------------------------------------------
#elif defined(WINDOW_QUAD)
void main() {
#if defined(QUAD_IN_COMPUTE)
  const ivec2 p = quad_pixel();
#else
  const ivec2 p = ivec2(gl_FragCoord.xy);  // quads start at even coordinates
#endif
  const vec4 centre = window_read(p), anchor = window_read(quad_anchor(p));
  write_results(p, quad_sum(p, centre, anchor), centre, anchor);
}

// ---- comp.full2d_shared -------------------------------------------------------------------------
#elif defined(WINDOW_SHARED)
// The paper's compute baseline: the group stages its tile and an apron of r (window values), then
// each thread loops over its window in shared memory. A window of separable terms takes tiles of
// 16 x 16K: a thread sums each of its 2r + K cached rows once and feeds the row to every one of
// its K outputs down the column it belongs to, (2r + K)(2r + 1) / K shared reads per output.
layout(local_size_x = WINDOW_SHARED_GROUP, local_size_y = WINDOW_SHARED_GROUP) in;
layout(constant_id = WINDOW_SHARED_K_ID) const int K = 1;
const int CACHE_W = WINDOW_SHARED_GROUP + 2 * RADIUS;
const int CACHE_H = WINDOW_SHARED_GROUP * K + 2 * RADIUS;
shared vec4 cache[CACHE_W * CACHE_H];

void main() {
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(WINDOW_SHARED_GROUP, WINDOW_SHARED_GROUP * K);
  const int threads = WINDOW_SHARED_GROUP * WINDOW_SHARED_GROUP;
  // Unrolled (the count is a constant), so each thread issues all its fetches before it waits.
  [[unroll]] for (int n = 0; n < (CACHE_W * CACHE_H + threads - 1) / threads; ++n) {
    const int i = int(gl_LocalInvocationIndex) + threads * n;
    if (i < CACHE_W * CACHE_H) cache[i] = window_read(tile - RADIUS + ivec2(i % CACHE_W, i / CACHE_W));
  }
  barrier();
  const ivec2 local = ivec2(gl_LocalInvocationID.x, gl_LocalInvocationID.y * K);  // first output
  const ivec2 q = quad_anchor(local) + RADIUS;  // tiles start at even coordinates
  const vec4 anchor = cache[q.y * CACHE_W + q.x];
#if defined(WINDOW_TERMS)
  Acc sums[WINDOW_SHARED_MAX_K];
  [[unroll]] for (int k = 0; k < WINDOW_SHARED_MAX_K; ++k) sums[k] = acc_zero();
  // Cached row local.y + n is row offset n - k - r of output k.
  [[unroll]] for (int n = 0; n < 2 * RADIUS + K; ++n) {
    Acc row = acc_zero();
    [[unroll]] for (int x = -RADIUS; x <= RADIUS; ++x)
      acc_add_row(row, cache[(local.y + n) * CACHE_W + local.x + RADIUS + x], x, anchor);
    [[unroll]] for (int k = 0; k < WINDOW_SHARED_MAX_K; ++k)
      if (k < K && n - k >= 0 && n - k <= 2 * RADIUS) acc_add_rows(sums[k], row, n - k - RADIUS);
  }
  [[unroll]] for (int k = 0; k < WINDOW_SHARED_MAX_K; ++k)
    if (k < K) write_results(tile + local + ivec2(0, k), sums[k], vec4(0.0), anchor);
#else
  // K = 1: the window's own sums, which may depend on the centre.
  const ivec2 c = local + RADIUS;  // the output in the cache
  const vec4 centre = cache[c.y * CACHE_W + c.x];
  Acc a = acc_empty(centre);
  for (int y = -RADIUS; y <= RADIUS; ++y) {
    Acc row = acc_empty(centre);
    for (int x = -RADIUS; x <= RADIUS; ++x)
      if (in_window(ivec2(x, y))) acc_add(row, cache[(c.y + y) * CACHE_W + c.x + x], ivec2(x, y), centre, anchor);
    a = acc_join(a, row);
  }
  write_results(tile + local, a, centre, anchor);
#endif
}

// ---- comp.separable_shared ----------------------------------------------------------------------
#elif defined(WINDOW_SEPARABLE)
// A group of 32 x 8 threads owns 32 x 8K outputs. Stage 1: the row sums of the 8K + 2r rows the
// tile's columns need, each thread a run of WINDOW_SEPARABLE_RUN adjacent sums from 2r + RUN
// fetched texels held in registers; into shared memory. Stage 2: each thread sums K outputs down
// its column from 2r + K row sums, each read once and fed to every output it belongs to. The
// anchor (shift) is the tile's corner texel, common to the whole tile.
layout(local_size_x = WINDOW_SEPARABLE_GROUP_X, local_size_y = WINDOW_SEPARABLE_GROUP_Y) in;
layout(constant_id = WINDOW_SEPARABLE_K_ID) const int K = 1;
const int TILE_W = WINDOW_SEPARABLE_GROUP_X;
const int TILE_H = WINDOW_SEPARABLE_GROUP_Y * K;
const int ROWS = TILE_H + 2 * RADIUS;
const int RUN = WINDOW_SEPARABLE_RUN;
shared Acc row_sums[ROWS * TILE_W];

void main() {
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  const vec4 anchor = window_read(tile);
  const int threads = WINDOW_SEPARABLE_GROUP_X * WINDOW_SEPARABLE_GROUP_Y;
  for (int task = int(gl_LocalInvocationIndex); task < ROWS * (TILE_W / RUN); task += threads) {
    const int row = task / (TILE_W / RUN), first = (task % (TILE_W / RUN)) * RUN;
    const ivec2 start = tile + ivec2(first - RADIUS, row - RADIUS);
    Acc sums[RUN];
    [[unroll]] for (int k = 0; k < RUN; ++k) sums[k] = acc_empty(window_read(start + ivec2(k + RADIUS, 0)));
    // Texel n of the run's 2r + RUN is tap n - k of output k.
    [[unroll]] for (int n = 0; n < 2 * RADIUS + RUN; ++n) {
      const vec4 v = window_read(start + ivec2(n, 0));
      [[unroll]] for (int k = 0; k < RUN; ++k)
        if (n - k >= 0 && n - k <= 2 * RADIUS) acc_add_row(sums[k], v, n - k - RADIUS, anchor);
    }
    [[unroll]] for (int k = 0; k < RUN; ++k) row_sums[row * TILE_W + first + k] = sums[k];
  }
  barrier();
  const int x = int(gl_LocalInvocationID.x), y0 = int(gl_LocalInvocationID.y) * K;
  Acc out_sums[WINDOW_SEPARABLE_MAX_K];
  [[unroll]] for (int k = 0; k < WINDOW_SEPARABLE_MAX_K; ++k) out_sums[k] = acc_empty(window_read(tile + ivec2(x, y0 + k)));
  [[unroll]] for (int n = 0; n < 2 * RADIUS + K; ++n) {
    const Acc row = row_sums[(y0 + n) * TILE_W + x];
    [[unroll]] for (int k = 0; k < WINDOW_SEPARABLE_MAX_K; ++k)
      if (k < K && n - k >= 0 && n - k <= 2 * RADIUS) acc_add_rows(out_sums[k], row, n - k - RADIUS);
  }
  [[unroll]] for (int k = 0; k < WINDOW_SEPARABLE_MAX_K; ++k)
    if (k < K) write_results(tile + ivec2(x, y0 + k), out_sums[k], vec4(0.0), anchor);
}
// ---- comp.separable_shared of a window of separable terms: two passes ---------------------------
#elif defined(WINDOW_ROWS_PASS) || defined(WINDOW_COLUMNS_PASS)
// Each pass filters along a line: a group caches line segments of LINE outputs plus an apron of r
// on each side (consecutive threads fetching consecutive texels), then each thread computes K
// adjacent outputs, reading the 2r + K cached values they need once each and feeding every one to
// each of its outputs (a sliding window in registers): (2r + K) / K shared reads per output.
// The rows pass writes term t's row sums to image t; the columns pass reads the terms one after
// the other through the same cache and adds them up with their vertical weights.
const int K = WINDOW_LINE_K;
#if defined(WINDOW_ROWS_PASS)
layout(local_size_x = WINDOW_ROWS_GROUP_X, local_size_y = WINDOW_ROWS_GROUP_Y) in;
const int LINE = WINDOW_ROWS_GROUP_X * K, SEGMENT = LINE + 2 * RADIUS;
// Neighbouring threads read K texels apart, which would put up to K of the 8 lanes a 128-bit load
// serves on the same banks: texel e is stored at e + e / K.
const int STRIDE = SEGMENT + SEGMENT / K + 1;
shared vec4 cache[WINDOW_ROWS_GROUP_Y * STRIDE];
int skew(int e) { return e + e / K; }
#if WINDOW_TERMS > 1
layout(set = 0, binding = BINDING_DESTINATION_2, OUTPUT_FORMAT) writeonly uniform image2D destination2;
#endif

void store_row_sums(int t, ivec2 p, vec4 v) {
#if WINDOW_TERMS > 1
  if (t > 0) {
    imageStore(destination2, p, v);
    return;
  }
#endif
  imageStore(destination, p, v);
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
  const int line_start = int(gl_WorkGroupID.x) * LINE;
  const int y = int(gl_WorkGroupID.y) * WINDOW_ROWS_GROUP_Y + ty;
  const int base = ty * STRIDE;
  [[unroll]] for (int n = 0; n < (SEGMENT + WINDOW_ROWS_GROUP_X - 1) / WINDOW_ROWS_GROUP_X; ++n) {
    const int e = tx + WINDOW_ROWS_GROUP_X * n;
    if (e < SEGMENT) cache[base + skew(e)] = window_read(ivec2(line_start - RADIUS + e, min(y, size.y - 1)));
  }
  barrier();
  // Output line_start + first + k needs cached texels first + k + [0, 2r].
  const int first = tx * K;
  vec4 sums[WINDOW_TERMS][K];
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t)
    [[unroll]] for (int k = 0; k < K; ++k) sums[t][k] = vec4(0.0);
  [[unroll]] for (int j = 0; j < 2 * RADIUS + K; ++j) {
    const vec4 v = cache[base + skew(first + j)];
    [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t)
      [[unroll]] for (int k = 0; k < K; ++k)
        if (j - k >= 0 && j - k <= 2 * RADIUS) sums[t][k] += term_h(t, j - k - RADIUS) * v;
  }
  // Stored directly, lane i would write pixels K i + k: K stores each touching every K-th pixel of
  // the warp's span. So each term's sums go back to the row's cache in pixel order first, and each
  // thread then stores pixels tx + 64 n: consecutive lanes, consecutive pixels.
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) {
    barrier();  // every thread has read its window (or stored the term before)
    [[unroll]] for (int k = 0; k < K; ++k) cache[base + skew(first + k)] = sums[t][k];
    barrier();
    if (y < size.y)
      [[unroll]] for (int n = 0; n < K; ++n) {
        const int e = tx + WINDOW_ROWS_GROUP_X * n;
        if (line_start + e < size.x) store_row_sums(t, ivec2(line_start + e, y), cache[base + skew(e)]);
      }
  }
}
#else
layout(local_size_x = WINDOW_COLUMNS_GROUP, local_size_y = WINDOW_COLUMNS_GROUP) in;
const int LINE = WINDOW_COLUMNS_GROUP * K, SEGMENT = LINE + 2 * RADIUS;
shared vec4 cache[SEGMENT * WINDOW_COLUMNS_GROUP];
#if WINDOW_TERMS > 1
layout(set = 0, binding = BINDING_SOURCE_2) uniform sampler2D source2;  // the second term's row sums
#endif

vec4 row_sums(int t, ivec2 p) {
#if WINDOW_TERMS > 1
  if (t > 0) return texelFetch(source2, p, 0);
#endif
  return texelFetch(source, p, 0);
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
  const int line_start = int(gl_WorkGroupID.y) * LINE;
  const int x = int(gl_WorkGroupID.x) * WINDOW_COLUMNS_GROUP + tx;
  const int first = ty * K;
  vec4 sums[K];
  [[unroll]] for (int k = 0; k < K; ++k) sums[k] = vec4(0.0);
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) {
    if (t > 0) barrier();  // every thread has read the term before
    [[unroll]] for (int n = 0; n < (SEGMENT + WINDOW_COLUMNS_GROUP - 1) / WINDOW_COLUMNS_GROUP; ++n) {
      const int e = ty + WINDOW_COLUMNS_GROUP * n;
      if (e < SEGMENT)
        cache[e * WINDOW_COLUMNS_GROUP + tx] =
            row_sums(t, clamp(ivec2(x, line_start - RADIUS + e), ivec2(0), size - 1));
    }
    barrier();
    [[unroll]] for (int j = 0; j < 2 * RADIUS + K; ++j) {
      const vec4 v = cache[(first + j) * WINDOW_COLUMNS_GROUP + tx];
      [[unroll]] for (int k = 0; k < K; ++k)
        if (j - k >= 0 && j - k <= 2 * RADIUS) sums[k] += term_v(t, j - k - RADIUS) * v;
    }
  }
  [[unroll]] for (int k = 0; k < K; ++k) {
    Acc a = acc_zero();
    a.v[0] = sums[k];
    write_results(ivec2(x, line_start + first + k), a, vec4(0.0), vec4(0.0));
  }
}
#endif

#else
#error "a window shader's variant defines its method (see window_main.glsl)"
#endif

#endif
