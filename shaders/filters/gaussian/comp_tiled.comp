#version 460
// comp.tiled: AMD's tiled separable convolution (seeds/amd-tiled-separable-convolution-opencl.md)
// generalized from r = 1, 2 to any radius the shared memory can hold, for RGBA. The variants
// fp16 and fp32 are the convolution (TILED_CONVOLUTION), outside.fp16 and outside.fp32 the pass
// for the pixels outside the target ROI (TILED_OUTSIDE); each sets OUTPUT_FORMAT: storage images
// that are written need their format here.
//
// 8x8 threads per group, a 32x32 output tile per group, 16 outputs per thread. All coordinates
// are relative to the ROIs: tile pixel (x, y) of group g is read around src_origin + 32 g + (x, y)
// and written to dst_origin + 32 g + (x, y); both ROIs are `size` big.
//   Phase 1, horizontal sums: the tile's (32 + 2r) rows x 32 columns of horizontal sums (its own
//     rows and the vertical apron) are computed exactly once, in tasks of four sums of one row,
//     8 tasks a row, shared out over the 64 threads, and stored to shared memory.
//   One barrier.
//   Phase 2, vertical sums: each thread runs down one column, 16 output rows, adding each sum row
//     into a window of 2r + 1 accumulators and storing each output as soon as it is complete.
//     A warp covers one whole row of the tile per step: its shared-memory loads are conflict-free
//     and its image stores are 32 consecutive texels.
// Where this departs from AMD's kernel (4x4 outputs per thread, a thread's own four rows of sums
// kept in registers, only the neighbours' rows through local memory), it is for RGBA on an NVIDIA
// GPU: 16 RGBA sums in registers plus the fetches in flight need far more registers as r grows
// (spilling at r = 4), and a 4x4 block's stores hit every 32-byte sector four times. AMD's layout
// measured slower at r = 2 and 4 on an H200 (docs/families/gaussian-tried.md). Every
// sum is still computed once, and with four adjacent columns per task every fetched texel feeds up
// to four sums.
//
// Border classes, decided per group from gl_WorkGroupID and push constants (uniform, no
// divergence inside a group):
//   free on read:  the footprint (tile + r on every side) lies in the source ROI: texelFetch with
//                  no clamp and no check (the great majority of groups).
//   edge groups:   the same code with each coordinate clamped to the source ROI (min/max,
//                  branch-free). AMD stages an edge group's (32 + 2r)^2 texels in local memory
//                  first; here that measured slower: staging needs either a second shared array
//                  or the sums held in registers across a barrier, and either one is paid by every
//                  group, since a pipeline has one register and shared-memory allocation
//                  (docs/families/gaussian-tried.md).
//   free on write: the tile lies in the target ROI: plain stores.
//   others:        each store is checked against the target ROI.
// No pixel outside the source ROI is read and none outside the target ROI is written.
//! variant fp16 TILED_CONVOLUTION OUTPUT_FORMAT=rgba16f
//! variant fp32 TILED_CONVOLUTION OUTPUT_FORMAT=rgba32f
//! variant outside.fp16 TILED_OUTSIDE OUTPUT_FORMAT=rgba16f
//! variant outside.fp32 TILED_OUTSIDE OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// src_origin: the source ROI (the whole image without ROIs); dst_origin: the target ROI; size: of
// both ROIs; image_size: of the output image.
layout(push_constant) uniform Push { TiledPush pc; };

#ifdef TILED_CONVOLUTION

layout(local_size_x = TILED_GROUP, local_size_y = TILED_GROUP) in;

layout(constant_id = GAUSSIAN_RADIUS_ID) const int RADIUS = 1;
// Phase 1 layout of a task's four horizontal sums: false, four adjacent columns (AMD's: each
// texel fetched serves up to four sums, 4 + 2r fetches a task); true, four columns 8 apart
// (2r + 1 fetches per sum, but the 8 threads of a row fetch 8 adjacent texels, where adjacent
// columns have them 4 texels apart). The host picks per radius from measurements (tiled.cpp).
layout(constant_id = GAUSSIAN_TILED_INTERLEAVED_ID) const bool INTERLEAVED = false;
// The kernel's 2r+1 weights, w4[j / 4][j % 4] = w(j - r) (the same floats as the weights buffer
// the other methods read: kernel_weights() from renderer/common/kernel.cpp), in a uniform
// buffer: constant indices once the loops are unrolled, so the multiplies read them as operands.
layout(set = 0, binding = BINDING_WEIGHTS, std140) uniform Weights { vec4 w4[GAUSSIAN_WEIGHT_VEC4S]; };
#define W(j) w4[(j) >> 2][(j) & 3]

const int TILE = TILED_TILE;
const int SPAN = TILE + 2 * RADIUS;  // input rows a tile reads
const int H_TASKS = SPAN * 8;        // four horizontal sums each: 8 per row
const int TASKS_PER_THREAD = (H_TASKS + 63) / 64;
const int COLUMN_ROWS = 16;          // phase 2: a thread's output rows, in one column
// Phase 2 runs a window of 2r + 1 accumulators down the column; beyond r = 8 that many registers
// would spill, so it restarts every 4 rows instead (more shared reads, few registers).
const int CHUNK = RADIUS <= 8 ? COLUMN_ROWS : 4;
shared vec4 smem[SPAN * TILE];       // horizontal sums: tile rows -r .. 31 + r, 32 columns

// Slot of the horizontal sum at tile row `row` (-r .. 31 + r), column `col`: within a row, column
// 4q + c goes to c*8 + (q ^ 2c), so that the writes of phase 1 (8 threads of a row) and the reads
// of phase 2 (8 consecutive columns) each hit 8 different 16-byte bank groups.
int h_slot(int row, int col) {
  const int c = col & 3;
  return (row + RADIUS) * TILE + c * 8 + ((col >> 2) ^ (c << 1));
}

vec4 fetch_direct(ivec2 p, ivec2 lo, ivec2 hi) { return texelFetch(source, p, 0); }
vec4 fetch_clamped(ivec2 p, ivec2 lo, ivec2 hi) { return texelFetch(source, clamp(p, lo, hi), 0); }

// Task t: the four horizontal sums of thread quad t % 8 in tile row t / 8 - r, read around
// source pixel `origin` + (column, row) with FETCH, stored to shared memory.
#define DEFINE_TASK(NAME, FETCH)                                                      \
  void NAME(int t, ivec2 origin, ivec2 lo, ivec2 hi) {                                \
    const int q = t & 7, row = (t >> 3) - RADIUS;                                     \
    vec4 o[4];                                                                        \
    [[unroll]] for (int c = 0; c < 4; ++c) o[c] = vec4(0.0);                          \
    if (INTERLEAVED) {                                                                \
      [[unroll]] for (int c = 0; c < 4; ++c)                                          \
        [[unroll]] for (int j = 0; j <= 2 * RADIUS; ++j)                              \
          o[c] += W(j) * FETCH(origin + ivec2(q + 8 * c - RADIUS + j, row), lo, hi);  \
      [[unroll]] for (int c = 0; c < 4; ++c) smem[h_slot(row, q + 8 * c)] = o[c];     \
    } else {                                                                          \
      [[unroll]] for (int k = 0; k < 2 * RADIUS + 4; ++k) {                           \
        const vec4 v = FETCH(origin + ivec2(4 * q + k - RADIUS, row), lo, hi);        \
        [[unroll]] for (int c = 0; c < 4; ++c) {                                      \
          const int j = k - c;                                                        \
          if (j >= 0 && j <= 2 * RADIUS) o[c] += W(j) * v;                            \
        }                                                                             \
      }                                                                               \
      [[unroll]] for (int c = 0; c < 4; ++c) smem[h_slot(row, 4 * q + c)] = o[c];     \
    }                                                                                 \
  }
DEFINE_TASK(task_direct, fetch_direct)
DEFINE_TASK(task_clamped, fetch_clamped)

// Every task of the tile, shared out over the 64 threads. Unrolled (all fetches in flight at
// once) up to r = 8; beyond, the fetches of all tasks would not fit in registers.
#define RUN_TASKS(TASK)                                                      \
  if (RADIUS <= 8) {                                                         \
    [[unroll]] for (int i = 0; i < TASKS_PER_THREAD; ++i)                    \
      if (li + 64 * i < H_TASKS) TASK(li + 64 * i, tile_src, lo, hi);        \
  } else {                                                                   \
    [[dont_unroll]] for (int i = 0; i < TASKS_PER_THREAD; ++i)               \
      if (li + 64 * i < H_TASKS) TASK(li + 64 * i, tile_src, lo, hi);        \
  }

void main() {
  const int li = int(gl_LocalInvocationIndex);
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * TILE;                  // ROI-relative
  const ivec2 lo = pc.src_origin, hi = pc.src_origin + pc.size - 1;  // the source ROI
  const ivec2 tile_src = pc.src_origin + tile;                         // source of tile pixel (0, 0)

  // The group's classes: uniform over the group (gl_WorkGroupID and push constants only).
  const bool free_read = all(greaterThanEqual(tile, ivec2(RADIUS))) &&
                         all(lessThan(tile + (TILE - 1 + RADIUS), pc.size));
  const bool free_write = all(lessThan(tile + (TILE - 1), pc.size));

  // Phase 1: every horizontal sum the tile needs, once, into shared memory.
  if (free_read) {
    RUN_TASKS(task_direct)
  } else {
    RUN_TASKS(task_clamped)
  }
  barrier();

  // Phase 2: vertical sums down one column, 16 rows per thread (a warp: one row of 32 columns per
  // step, so shared-memory loads and image stores are whole rows). Output row k is done once sum
  // row k + 2r has been added.
  const int x = li & 31, y0 = (li >> 5) * COLUMN_ROWS;
  [[unroll]] for (int c0 = 0; c0 < COLUMN_ROWS; c0 += CHUNK) {
    vec4 acc[COLUMN_ROWS];
    [[unroll]] for (int k = 0; k < CHUNK; ++k) acc[k] = vec4(0.0);
    [[unroll]] for (int m = 0; m < CHUNK + 2 * RADIUS; ++m) {
      const vec4 v = smem[h_slot(y0 + c0 - RADIUS + m, x)];
      [[unroll]] for (int k = 0; k < CHUNK; ++k) {
        const int j = m - k;
        if (j >= 0 && j <= 2 * RADIUS) acc[k] += W(j) * v;
        if (j == 2 * RADIUS) {
          const ivec2 p = tile + ivec2(x, y0 + c0 + k);
          if (free_write || all(lessThan(p, pc.size))) imageStore(destination, pc.dst_origin + p, acc[k]);
        }
      }
    }
  }
}

#endif  // TILED_CONVOLUTION

#ifdef TILED_OUTSIDE

// The pixels outside the target ROI: the input's (outside=copy) or a sentinel (outside=poison).
// Pixels inside the target ROI are left to the convolution, so a poisoned run shows that the
// convolution wrote nothing outside it.
layout(local_size_x = TILED_OUTSIDE_GROUP, local_size_y = TILED_OUTSIDE_GROUP) in;
layout(constant_id = GAUSSIAN_TILED_POISON_ID) const bool POISON = false;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, pc.image_size))) return;
  const ivec2 rel = p - pc.dst_origin;
  if (all(greaterThanEqual(rel, ivec2(0))) && all(lessThan(rel, pc.size))) return;
  imageStore(destination, p, POISON ? vec4(TILED_POISON) : texelFetch(source, p, 0));
}

#endif  // TILED_OUTSIDE

