#version 460
// The box pyramid in one dispatch (renderer/passes/pyramid_pass.h), after AMD's single-pass
// downsampler (FidelityFX SPD): each group reads GROUP_TILES PYRAMID_TILE-square tiles of level 0
// once each and writes their share of levels 1..PYRAMID_LOCAL_LEVELS (level 1 from level 0 read in
// runs of whole rows, pairs added across lanes; the others from the level above in shared memory).
// In the full variants, the last group to finish its tiles reads level PYRAMID_LOCAL_LEVELS back and
// makes the rest, and sets the count back to 0 for the next dispatch. The hand-over is the memory model's
// fence-atomic pattern at device scope: each group's image writes (coherent), a release fence
// (memoryBarrierImage) and a workgroup barrier, then one atomic add; the last group's add, then an
// acquire fence before its coherent reads. (Written without `#pragma use_vulkan_memory_model`:
// with it, llvmpipe in Mesa 22.3 stops every invocation partway through this shader, seen as
// levels never written and no validation message.)
//
// Each level is rounded to its storage format before the next is made from it (STORAGE_HALF), so
// every level is the box mean of the level as stored, like the CPU model (tests/gpu/pyramid_test).
//! variant local.fp16 PYRAMID_LEVELS=6 OUTPUT_FORMAT=rgba16f STORAGE_HALF
//! variant local.fp32 PYRAMID_LEVELS=6 OUTPUT_FORMAT=rgba32f
//! variant full.fp16 PYRAMID_LEVELS=14 OUTPUT_FORMAT=rgba16f STORAGE_HALF
//! variant full.fp32 PYRAMID_LEVELS=14 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#include "half.glsl"
#include "passes/passes_config.h"

layout(local_size_x = PYRAMID_THREADS) in;
layout(set = 0, binding = BINDING_PYRAMID_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_PYRAMID_COUNTER, std430) buffer Counter { uint groups_done; };

// Level k's image. From level PYRAMID_LOCAL_LEVELS on, coherent (device scope): the last group reads
// what the others wrote.
#define LEVEL(k, access) \
  layout(set = 0, binding = BINDING_PYRAMID_LEVEL + k - 1, OUTPUT_FORMAT) uniform access image2D level##k
LEVEL(1, writeonly);
LEVEL(2, writeonly);
LEVEL(3, writeonly);
LEVEL(4, writeonly);
LEVEL(5, writeonly);
LEVEL(6, coherent);
#if PYRAMID_LEVELS > PYRAMID_LOCAL_LEVELS
LEVEL(7, coherent);
LEVEL(8, coherent);
LEVEL(9, coherent);
LEVEL(10, coherent);
LEVEL(11, coherent);
LEVEL(12, coherent);
LEVEL(13, coherent);
LEVEL(14, coherent);
#endif

void store_level(int k, ivec2 p, vec4 v) {
  if (k == 1) imageStore(level1, p, v);
  if (k == 2) imageStore(level2, p, v);
  if (k == 3) imageStore(level3, p, v);
  if (k == 4) imageStore(level4, p, v);
  if (k == 5) imageStore(level5, p, v);
  if (k == 6) imageStore(level6, p, v);
#if PYRAMID_LEVELS > PYRAMID_LOCAL_LEVELS
  if (k == 7) imageStore(level7, p, v);
  if (k == 8) imageStore(level8, p, v);
  if (k == 9) imageStore(level9, p, v);
  if (k == 10) imageStore(level10, p, v);
  if (k == 11) imageStore(level11, p, v);
  if (k == 12) imageStore(level12, p, v);
  if (k == 13) imageStore(level13, p, v);
  if (k == 14) imageStore(level14, p, v);
#endif
}

// Only the last group reads levels back, from PYRAMID_LOCAL_LEVELS on.
vec4 load_level(int k, ivec2 p) {
#if PYRAMID_LEVELS > PYRAMID_LOCAL_LEVELS
  if (k == 6) return imageLoad(level6, p);
  if (k == 7) return imageLoad(level7, p);
  if (k == 8) return imageLoad(level8, p);
  if (k == 9) return imageLoad(level9, p);
  if (k == 10) return imageLoad(level10, p);
  if (k == 11) return imageLoad(level11, p);
  if (k == 12) return imageLoad(level12, p);
  if (k == 13) return imageLoad(level13, p);
#endif
  return vec4(0.0);
}

// Level k's size: level 0's, divided by 2^k and rounded up.
ivec2 level_size(int k) {
  return (textureSize(source, 0) + (1 << k) - 1) >> k;
}

// A value as its level stores it.
vec4 stored(vec4 v) {
#if defined(STORAGE_HALF)
  return rounded_to_half(v);
#else
  return v;
#endif
}

// The mean of a 2 x 2 block, top row (a, b), bottom row (c, d), as stored. `precise`: a compiler may
// otherwise fold the quarters of two levels together (llvmpipe did: level 2 then missed the
// definition by 2 ulps in fp32).
vec4 box(vec4 a, vec4 b, vec4 c, vec4 d) {
  precise vec4 mean = 0.25 * ((a + b) + (c + d));
  return stored(mean);
}

// Two regions of shared memory, odd levels in the first and even ones in the second, so that a step
// reads one and writes the other.
const int kOddCapacity = 1024, kEvenCapacity = 256;
shared vec4 odd_levels[kOddCapacity];
shared vec4 even_levels[kEvenCapacity];
int capacity(int k) {
  return (k & 1) == 1 ? kOddCapacity : kEvenCapacity;
}
vec4 held(int k, int i) {
  return (k & 1) == 1 ? odd_levels[i] : even_levels[i];
}
void hold(int k, int i, vec4 v) {
  if ((k & 1) == 1) odd_levels[i] = v;
  else even_levels[i] = v;
}

// What this group's threads wrote to shared memory, seen by all of them. (Not a fence on the images:
// on the H100 that waits for every store to reach the device, and with one per level the
// dispatch measured far slower than the per-level passes.)
void group_barrier() {
  memoryBarrierShared();
  barrier();
}

// The same and the images too, for the last group's levels, which it reads back.
void group_image_barrier() {
  memoryBarrierShared();
  memoryBarrierImage();
  barrier();
}

// Level k's texels origin + (0..count - 1) (those inside the level) from level k - 1: from shared
// memory, where level k - 1's texel `src_origin + q` sits at q.y * src_stride + q.x, or from its image.
// With `to_shared`, texel origin + q is kept at q.y * count.x + q.x of level k's region.
void reduce(int k, bool from_shared, ivec2 src_origin, int src_stride, ivec2 origin, ivec2 count,
            bool to_shared) {
  const ivec2 src_size = level_size(k - 1), size = level_size(k);
  for (int i = int(gl_LocalInvocationIndex); i < count.x * count.y; i += PYRAMID_THREADS) {
    const ivec2 q = ivec2(i % count.x, i / count.x), g = origin + q;
    if (all(lessThan(g, size))) {
      const ivec2 a = 2 * g, b = min(a + 1, src_size - 1);
      vec4 v;
      if (from_shared) {
        const ivec2 sa = a - src_origin, sb = b - src_origin;
        v = box(held(k - 1, sa.y * src_stride + sa.x), held(k - 1, sa.y * src_stride + sb.x),
                held(k - 1, sb.y * src_stride + sa.x), held(k - 1, sb.y * src_stride + sb.x));
      } else {
        v = box(load_level(k - 1, a), load_level(k - 1, ivec2(b.x, a.y)), load_level(k - 1, ivec2(a.x, b.y)),
                load_level(k - 1, b));
      }
      store_level(k, g, v);
      if (to_shared) hold(k, q.y * count.x + q.x, v);
    }
  }
}

#if PYRAMID_LEVELS > PYRAMID_LOCAL_LEVELS
shared uint groups_before;
#endif

// Level 1: a tile's (PYRAMID_TILE / 2)^2 texels, each from 2 x 2 texels of level 0. A row of 32
// threads reads two rows of level 0 as four runs of 32 neighbouring texels, so that every fetch of a
// warp covers whole 32-byte sectors (at every other texel, as when a thread read its own 2 x 2
// block, it measured much slower on the H100: docs/copy-floor.md). Neighbours (2m, 2m + 1) are
// lanes of one subgroup (threads numbered by subgroup position, `t`), which add their pairs by a
// shuffle; the even lane keeps the texel. Past an odd edge the last texel repeats (the clamps).
const int side1 = PYRAMID_TILE / 2, rows_per_pass = PYRAMID_THREADS / side1, passes = side1 / rows_per_pass;

#if defined(STORAGE_HALF)
const int GROUP_TILES = PYRAMID_GROUP_TILES_HALF;
#else
const int GROUP_TILES = PYRAMID_GROUP_TILES_FLOAT;
#endif

// A thread's sixteen fetches of a tile, issued together.
void fetch_level0(ivec2 tile, int t, out vec4 texels[passes][2][2]) {  // [pass][half of the row][row of the pair]
  const ivec2 size0 = level_size(0), size1 = level_size(1);
  [[unroll]] for (int j = 0; j < passes; ++j) {
    const int y1 = min(tile.y * side1 + t / side1 + j * rows_per_pass, size1.y - 1);
    [[unroll]] for (int h = 0; h < 2; ++h) {
      const int x0 = min(tile.x * PYRAMID_TILE + h * side1 + t % side1, size0.x - 1);
      texels[j][h][0] = texelFetch(source, ivec2(x0, 2 * y1), 0);
      texels[j][h][1] = texelFetch(source, ivec2(x0, min(2 * y1 + 1, size0.y - 1)), 0);
    }
  }
}

void make_level1(ivec2 tile, int t, vec4 texels[passes][2][2]) {
  const ivec2 size1 = level_size(1);
  const int column = t % side1;
  [[unroll]] for (int j = 0; j < passes; ++j) {
    const int row = t / side1 + j * rows_per_pass;
    [[unroll]] for (int h = 0; h < 2; ++h) {
      const vec4 top = texels[j][h][0], bottom = texels[j][h][1];
      const vec4 top_pair = subgroupShuffleXor(top, 1u), bottom_pair = subgroupShuffleXor(bottom, 1u);
      const int x1 = h * (side1 / 2) + column / 2;
      const ivec2 g = tile * side1 + ivec2(x1, row);
      if ((column & 1) == 0 && all(lessThan(g, size1))) {
        const vec4 v = box(top, top_pair, bottom, bottom_pair);
        store_level(1, g, v);
        hold(1, row * side1 + x1, v);
      }
    }
  }
}

void main() {
  // The group's GROUP_TILES tiles side by side, one after another: the next tile's fetches
  // go out before this one's levels 2.. (shared memory and barriers, no fetches), so that they are in
  // flight meanwhile. A tile past the image's edge makes nothing (every store checks its level's size).
  const int t = int(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
  const ivec2 first_tile = ivec2(gl_WorkGroupID.xy) * ivec2(GROUP_TILES, 1);
  vec4 texels[passes][2][2];
  fetch_level0(first_tile, t, texels);
  [[unroll]] for (int i = 0; i < GROUP_TILES; ++i) {
    const ivec2 tile = first_tile + ivec2(i, 0);
    make_level1(tile, t, texels);
    if (i + 1 < GROUP_TILES) fetch_level0(tile + ivec2(1, 0), t, texels);
    group_barrier();
    // Levels 2..PYRAMID_LOCAL_LEVELS of the tile, in shared memory.
    for (int k = 2; k <= PYRAMID_LOCAL_LEVELS; ++k) {
      const int side = PYRAMID_TILE >> k;
      reduce(k, true, tile * (2 * side), 2 * side, tile * side, ivec2(side), true);
      group_barrier();
    }
  }

#if PYRAMID_LEVELS > PYRAMID_LOCAL_LEVELS
  // Count this group once all of its level-PYRAMID_LOCAL_LEVELS texels are written and released;
  // the last one on goes on, acquiring every other group's writes.
  group_image_barrier();
  if (gl_LocalInvocationIndex == 0) groups_before = atomicAdd(groups_done, 1u);
  memoryBarrierShared();
  barrier();
  if (groups_before != gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u) return;
  memoryBarrierImage();
  if (gl_LocalInvocationIndex == 0) atomicExchange(groups_done, 0u);

  // The rest, whole levels at a time: from the images until a level fits its shared region.
  bool from_shared = false;
  for (int k = PYRAMID_LOCAL_LEVELS + 1; k <= PYRAMID_LEVELS; ++k) {
    const ivec2 size = level_size(k), src_size = level_size(k - 1);
    const bool to_shared = size.x * size.y <= capacity(k);
    reduce(k, from_shared, ivec2(0), src_size.x, ivec2(0), size, to_shared);
    // The next level reads this one from shared memory where it fits, else from its image, which
    // needs the fence (each one waits for the group's stores to reach the device).
    if (to_shared) group_barrier();
    else group_image_barrier();
    from_shared = to_shared;
  }
#endif
}
