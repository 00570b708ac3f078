// The drivers of window.glsl: one main() per method, chosen by the variant's define.
//   WINDOW_FULL2D             frag.full2d: a fragment shader fetching every texel of the window
//   QUAD_FRAGMENT_FINE/COARSE frag.quad_derivative(_coarse): the quad exchange in a fragment shader
//   QUAD_SUBGROUP             comp.quad_subgroup
//   QUAD_COMPUTE_DERIVATIVES  comp.quad_derivative
//   WINDOW_SHARED             comp.full2d_shared: the tile and its apron in shared memory
//   WINDOW_SEPARABLE          comp.separable_shared: row sums staged in shared memory, then columns
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
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, window_result(a, 0, centre, anchor));
#if WINDOW_OUTPUTS > 1
  imageStore(destination2, p, window_result(a, 1, centre, anchor));
#endif
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
layout(local_size_x = WINDOW_SHARED_GROUP, local_size_y = WINDOW_SHARED_GROUP) in;
const int CACHE_SIDE = WINDOW_SHARED_GROUP + 2 * RADIUS;
shared vec4 cache[CACHE_SIDE * CACHE_SIDE];

// The paper's compute baseline: the group stages its 16x16 tile and an apron of r (window values),
// then each thread loops over its window in shared memory.
void main() {
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * WINDOW_SHARED_GROUP;
  const int threads = WINDOW_SHARED_GROUP * WINDOW_SHARED_GROUP;
  for (int i = int(gl_LocalInvocationIndex); i < CACHE_SIDE * CACHE_SIDE; i += threads)
    cache[i] = window_read(tile - RADIUS + ivec2(i % CACHE_SIDE, i / CACHE_SIDE));
  barrier();
  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  const ivec2 p = tile + local;
  const ivec2 c = local + RADIUS;  // p in the cache
  const vec4 centre = cache[c.y * CACHE_SIDE + c.x];
  const ivec2 q = quad_anchor(local) + RADIUS;  // tiles start at even coordinates
  const vec4 anchor = cache[q.y * CACHE_SIDE + q.x];
  Acc a = acc_empty(centre);
  for (int y = -RADIUS; y <= RADIUS; ++y) {
    Acc row = acc_empty(centre);
    for (int x = -RADIUS; x <= RADIUS; ++x)
      if (in_window(ivec2(x, y))) acc_add(row, cache[(c.y + y) * CACHE_SIDE + c.x + x], ivec2(x, y), centre, anchor);
    a = acc_join(a, row);
  }
  write_results(p, a, centre, anchor);
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
#else
#error "a window shader's variant defines its method (see window_main.glsl)"
#endif

#endif
