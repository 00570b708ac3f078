#version 460
// bigblur's chains' up passes (renderer/filters/bigblur/pyramid.cpp): each output texel is a fixed
// set of bilinear taps of the coarser level, offsets in its texels from the output's centre:
//   dual_up  Bjorge 2015: (+-1, 0), (0, +-1) weighted 1/12, (+-1/2, +-1/2) weighted 2/12
//   tent     Jimenez 2014: the 3x3 tent (1 2 1) one texel apart
// At a 2x upsample output 2k + e (e = 0, 1 a side) has its centre at k + 1/4 + e/2 in coarse texels,
// so every tap falls at a quarter-texel phase and reads coarse texels k - 2 .. k + 2. Taking the
// taps from the texture unit costs 8 or 9 filtered fetches an output, which at full size is
// the texture rate's time, not the traffic's. Here a group stages the coarse texels its 32 x 32
// outputs read, once, in shared memory, and each thread makes the 2 x 2 outputs of one coarse texel
// k from the 4 x 4 of the 5 x 5 texels around it that each output reads, with the taps folded into
// one weight a texel (KERNEL). Same definition as the taps (texel centres at i + 0.5, clamp to
// edge); only rounding differs.
// The dual filter's middle pass (FUSED_DOWN, the dual_mid variants) is its deepest down pass and
// its first up pass in one: the coarse level is never stored, the group makes the texels of it that
// it stages from the finer level by the down pass's taps (chain_taps.glsl), rounded to halves in
// fp16 as packHalf2x16 rounds (HALF_LEVEL: the level's precision; a store to a half image may round
// otherwise, so fp16 outputs can move by a half-ulp or two against the two passes'). That saves a
// dispatch and the level's write and read, for the down taps of the tile's apron done twice.
//! variant dual_up.fp16 CHAIN_DUAL_UP OUTPUT_FORMAT=rgba16f
//! variant dual_up.fp32 CHAIN_DUAL_UP STAGED_STORES OUTPUT_FORMAT=rgba32f
//! variant dual_mid.fp16 CHAIN_DUAL_UP FUSED_DOWN HALF_LEVEL OUTPUT_FORMAT=rgba16f
//! variant dual_mid.fp32 CHAIN_DUAL_UP FUSED_DOWN STAGED_STORES OUTPUT_FORMAT=rgba32f
//! variant tent.fp16 CHAIN_TENT OUTPUT_FORMAT=rgba16f
//! variant tent.fp32 CHAIN_TENT STAGED_STORES OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_GROUP, local_size_y = BIGBLUR_GROUP) in;
// The coarser level, or with FUSED_DOWN the finer one (sampled bilinearly by its down taps).
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
#if defined(FUSED_DOWN)
#include "filters/bigblur/chain_taps.glsl"
#include "half.glsl"
#endif
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// The taps folded into one weight a coarse texel, for output 2k (even in x and y): texels k + o,
// o = -2..1 a side, row by row. Output 2k + e takes the same weights mirrored along each axis where e
// is 1 (texels k + o, o = -1..2). Each weight is the sum over taps of the tap's weight times its
// bilinear weights on the texel (x then y); the taps sit at quarter phases, so the sums are exact
// fractions. ThePyramidMethodsMatchTheirModels checks them against the taps in double.
#if defined(CHAIN_DUAL_UP)
const float KERNEL[16] = float[](0, 1, 3, 0, 1, 24, 34, 9, 3, 34, 38, 17, 0, 9, 17, 2);  // / 192
const float KERNEL_SCALE = 1.0 / 192.0;
#else
const float KERNEL[16] =
    float[](1, 5, 7, 3, 5, 25, 35, 15, 7, 35, 49, 21, 3, 15, 21, 9);  // (1 5 7 3)^2 / 256
const float KERNEL_SCALE = 1.0 / 256.0;
#endif

// Along one axis, whether texel k + o (o = -2..2) is in output 2k + e's kernel, and its place there.
// The place is clamped into the kernel even where the texel is not in it: the loops below are
// unrolled, and an index that is only guarded by a condition may still be emitted as a constant
// access (an access chain with index -1 is invalid SPIR-V, which NVIDIA's validation reports).
bool in_kernel(int e, int o) { return e == 0 ? o <= 1 : o >= -1; }
int kernel_index(int e, int o) { return clamp(e == 0 ? o + 2 : 2 - o, 0, 3); }

// The group's coarse texels: its own BIGBLUR_GROUP^2 and two more on every side, as fp32 whatever
// the level's format (a tile of packed halves, unpacked at each read, measured no faster in fp16);
// with STAGED_STORES its 2 BIGBLUR_GROUP square of outputs too.
const int TILE = BIGBLUR_GROUP + 4;
shared vec4 tile[TILE * TILE];
#if defined(STAGED_STORES)
const int OUT_SIDE = 2 * BIGBLUR_GROUP;
shared vec4 outputs[OUT_SIDE * OUT_SIDE];
#endif

// Coarse texel q (inside the coarse level).
vec4 coarse_texel(ivec2 q) {
#if defined(FUSED_DOWN)
  const vec4 v = dual_down_texel(q);
#if defined(HALF_LEVEL)
  return rounded_to_half(v);
#else
  return v;
#endif
#else
  return texelFetch(source, q, 0);
#endif
}

void main() {
#if defined(FUSED_DOWN)
  const ivec2 size = (textureSize(source, 0) + 1) / 2;  // the coarse level's, rounded up
#else
  const ivec2 size = textureSize(source, 0);
#endif
  // Every fetch of the tile goes out before any is stored, so that a thread's second texel does not
  // wait for its first.
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * BIGBLUR_GROUP - 2;
  const int THREADS = BIGBLUR_GROUP * BIGBLUR_GROUP, ROUNDS = (TILE * TILE + THREADS - 1) / THREADS;
  vec4 staged[ROUNDS];
  [[unroll]] for (int r = 0; r < ROUNDS; ++r) {
    const int i = int(gl_LocalInvocationIndex) + r * THREADS;
    if (i < TILE * TILE) staged[r] = coarse_texel(clamp(origin + ivec2(i % TILE, i / TILE), ivec2(0), size - 1));
  }
  [[unroll]] for (int r = 0; r < ROUNDS; ++r) {
    const int i = int(gl_LocalInvocationIndex) + r * THREADS;
    if (i < TILE * TILE) tile[i] = staged[r];
  }
  barrier();

  // Threads numbered by subgroup position: a subgroup's coarse texels are a run of a row (or whole
  // rows), whose outputs its stores below write a row at a time.
  const int lanes = int(gl_SubgroupSize), lane = int(gl_SubgroupInvocationID);
  const int t = int(gl_SubgroupID) * lanes + lane;
  const ivec2 at = ivec2(t % BIGBLUR_GROUP, t / BIGBLUR_GROUP) + 2;  // k's place in the tile
  vec4 sum[4] = vec4[](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));  // outputs 2k + (e & 1, e >> 1)
  [[unroll]] for (int y = -2; y <= 2; ++y) {
    [[unroll]] for (int x = -2; x <= 2; ++x) {
      const vec4 texel = tile[(at.y + y) * TILE + at.x + x];
      [[unroll]] for (int e = 0; e < 4; ++e) {
        if (!in_kernel(e & 1, x) || !in_kernel(e >> 1, y)) continue;
        const float w = KERNEL[kernel_index(e >> 1, y) * 4 + kernel_index(e & 1, x)];
        if (w != 0.0) sum[e] += w * texel;
      }
    }
  }
  // The outputs go out a row at a time, so that each store of a warp writes whole 32-byte sectors:
  // as the 2 x 2 outputs of each thread (every other texel of two rows a store) they measured much
  // slower on the H100 (docs/copy-floor.md).
#if defined(STAGED_STORES)
  // In fp32, through shared memory: a warp stores 32 neighbouring texels of a row. (By shuffles, as
  // below, fp32 outputs take twice the shuffles and measured slower.)
  const ivec2 l = ivec2(t % BIGBLUR_GROUP, t / BIGBLUR_GROUP);
  [[unroll]] for (int e = 0; e < 4; ++e) outputs[(2 * l.y + (e >> 1)) * OUT_SIDE + 2 * l.x + (e & 1)] = sum[e];
  barrier();
  const ivec2 first_output = ivec2(gl_WorkGroupID.xy) * OUT_SIDE;
  [[unroll]] for (int i = 0; i < 4; ++i) {
    const int j = i * BIGBLUR_GROUP * BIGBLUR_GROUP + int(gl_LocalInvocationIndex);
    const ivec2 p = first_output + ivec2(j % OUT_SIDE, j / OUT_SIDE);
    if (all(lessThan(p, imageSize(destination)))) imageStore(destination, p, KERNEL_SCALE * outputs[j]);
  }
#else
  // In fp16, by subgroup shuffles of packed halves (the rounding the store would make): store n of
  // the subgroup writes its outputs n * lanes .. (n + 1) * lanes - 1, row by row of its block (2 rows
  // of 2 * lanes, or 2 * lanes / 16 rows of 32), each lane taking its texel from the lane that made it.
  uvec2 made[4];
  [[unroll]] for (int e = 0; e < 4; ++e) {
    const vec4 v = KERNEL_SCALE * sum[e];
    made[e] = uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw));
  }
  const int block_width = 2 * min(lanes, BIGBLUR_GROUP), first = int(gl_SubgroupID) * lanes;
  const ivec2 first_texel = ivec2(first % BIGBLUR_GROUP, first / BIGBLUR_GROUP);  // in the group
  const ivec2 block = 2 * (ivec2(gl_WorkGroupID.xy) * BIGBLUR_GROUP + first_texel);
  [[unroll]] for (int n = 0; n < 4; ++n) {
    const int o = n * lanes + lane, row = o / block_width, col = o % block_width;
    const uint from = uint((row >> 1) * (block_width >> 1) + (col >> 1));
    uvec2 got[4];
    [[unroll]] for (int e = 0; e < 4; ++e) got[e] = subgroupShuffle(made[e], from);
    const uvec2 texel = got[(col & 1) + 2 * (row & 1)];
    const ivec2 p = block + ivec2(col, row);
    if (all(lessThan(p, imageSize(destination))))
      imageStore(destination, p, vec4(unpackHalf2x16(texel.x), unpackHalf2x16(texel.y)));
  }
#endif
}
