#version 460
// comp.full2d_shared and comp.separable_shared: compute blurs that cache their input in shared
// memory (Chapman, "Cached Texture Fetches"). One source; the variants pick the method and the
// output format (a storage image needs one in its declaration):
//   OUTPUT_FORMAT    rgba16f or rgba32f: the destination image's format
//   FULL2D_SHARED    one pass, (2r+1)^2 taps per output from a 2D tile plus apron
//   SEPARABLE_SHARED one pass of the two (DIRECTION 0 horizontal, 1 vertical), 2r+1 taps per output
//
// Every thread takes part in the loads and the barrier; only those whose output lies inside the
// image store. Texels outside the image are clamped to the edge, as in the reference.
//
// A thread computes K adjacent outputs, held in the named accumulators s0..s7 (K <= 8) rather than
// in an array: an array sized by a specialization constant cannot be split into registers before
// the driver specializes, and drivers may leave it in local memory. Loops over taps are unrolled
// once the radius is known, so every `k < K` and tap-range test below is decided at compile time.
//! variant full2d.fp16 FULL2D_SHARED OUTPUT_FORMAT=rgba16f
//! variant full2d.fp32 FULL2D_SHARED OUTPUT_FORMAT=rgba32f
//! variant separable.fp16 SEPARABLE_SHARED OUTPUT_FORMAT=rgba16f
//! variant separable.fp32 SEPARABLE_SHARED OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require

layout(constant_id = 0) const int RADIUS = 2;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // read with texelFetch: no filtering
// weights[RADIUS + i] = w(i) for i in [-RADIUS, RADIUS] (renderer/filters/gaussian/gaussian.h).
layout(set = 0, binding = BINDING_WEIGHTS, std430) readonly buffer Weights { float weights[]; };
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

const int TAPS = 2 * RADIUS + 1;

// w(t - RADIUS); t is a compile-time constant once the loops are unrolled.
float wt(int t) { return weights[t]; }

vec4 fetch_clamped(ivec2 p, ivec2 size) { return texelFetch(source, clamp(p, ivec2(0), size - 1), 0); }

// Feeds texel v, the j-th of the thread's window, to output k, for which it is tap j - k.
#define FEED(k, weight) \
  if (k < K && j - k >= 0 && j - k < TAPS) s##k += (weight) * v
#define FEED_ALL(weight_of_t)                                                                   \
  {                                                                                             \
    FEED(0, weight_of_t(j)); FEED(1, weight_of_t(j - 1)); FEED(2, weight_of_t(j - 2));          \
    FEED(3, weight_of_t(j - 3)); FEED(4, weight_of_t(j - 4)); FEED(5, weight_of_t(j - 5));      \
    FEED(6, weight_of_t(j - 6)); FEED(7, weight_of_t(j - 7));                                   \
  }
#define STORE(k, p) \
  if (k < K && all(lessThan(p, size))) imageStore(destination, p, s##k)

#if defined(FULL2D_SHARED)
// A group of 16x16 threads owns a tile of 16 x 16K outputs; each thread the K vertically adjacent
// outputs of its column. The group loads the tile plus an apron of RADIUS on every side once
// (consecutive threads take consecutive texels of a row), then each output sums all (2r+1)^2 taps,
// each weighted by w(i) w(j), from shared memory. A thread reads each cached texel of its
// (2r + K) x (2r + 1) window once and feeds it to every one of its outputs it belongs to, so shared
// reads per output are (2r+K)(2r+1)/K; the arithmetic stays the full 2D sum (one 2D weight per tap
// and output, as a non-separable kernel would need). The host sizes K by radius so that the cache
// fits in shared memory.
layout(constant_id = 1) const int K = 1;  // 1, 2 or 4
layout(local_size_x = SHARED_GROUP, local_size_y = SHARED_GROUP) in;

const int TILE_W = SHARED_GROUP;
const int TILE_H = SHARED_GROUP * K;
const int CACHE_W = TILE_W + 2 * RADIUS;
const int CACHE_H = TILE_H + 2 * RADIUS;
shared vec4 cache[CACHE_W * CACHE_H];

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  // Unrolled (the count is a constant), so each thread issues all its fetches before it waits.
  [[unroll]] for (int n = 0; n < (CACHE_W * CACHE_H + 255) / 256; ++n) {
    const int i = int(gl_LocalInvocationIndex) + 256 * n;
    if (i < CACHE_W * CACHE_H) cache[i] = fetch_clamped(tile - RADIUS + ivec2(i % CACHE_W, i / CACHE_W), size);
  }
  barrier();

  const int tx = int(gl_LocalInvocationID.x);
  const int ty = int(gl_LocalInvocationID.y) * K;  // first output row in the tile
  vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);
  vec4 s4 = vec4(0.0), s5 = vec4(0.0), s6 = vec4(0.0), s7 = vec4(0.0);
  // Cached row ty + j is tap row j - k of output row ty + k.
  [[unroll]] for (int j = 0; j < TAPS + K - 1; ++j) {
    const int row = (ty + j) * CACHE_W + tx;
    [[unroll]] for (int i = 0; i < TAPS; ++i) {
      const vec4 v = cache[row + i];
      const float wx = wt(i);
#define WEIGHT_2D(t) (wx * wt(t))
      FEED_ALL(WEIGHT_2D);
#undef WEIGHT_2D
    }
  }

  const ivec2 first = tile + ivec2(tx, ty);
  STORE(0, first); STORE(1, first + ivec2(0, 1)); STORE(2, first + ivec2(0, 2)); STORE(3, first + ivec2(0, 3));
}
#endif  // FULL2D_SHARED

#if defined(SEPARABLE_SHARED)
// DIRECTION 0, horizontal: a group of LOCAL_X x LOCAL_Y threads filters LOCAL_Y rows; per row it
// caches LOCAL_X K consecutive outputs' texels plus the apron (2r), LOCAL_X threads loading
// consecutive texels. Each thread then computes K adjacent outputs, reading the 2r + K cached texels
// they need once each and feeding every texel to each of its outputs (a sliding window in
// registers): (2r+K)/K shared reads per output. Neighbouring threads read K texels apart, which
// would put up to K of 8 lanes on the same banks (a 128-bit load serves 8 lanes at a time); texel e
// is stored at e + e/K so they land on distinct banks.
// DIRECTION 1, vertical: a group of LOCAL_X columns x LOCAL_Y threads caches a column segment of
// LOCAL_Y K outputs plus the apron for each of its columns (a row of LOCAL_X texels per load, as
// wide as the group), and each thread computes K vertically adjacent outputs of its column the same
// way; lanes of a row read consecutive texels, so no skew is needed.
layout(constant_id = 1) const int DIRECTION = 0;
layout(constant_id = 2) const int K = 4;  // outputs per thread along the line: 1, 2, 4 or 8
layout(local_size_x_id = 3, local_size_y_id = 4) in;
const int LOCAL_X = int(gl_WorkGroupSize.x);
const int LOCAL_Y = int(gl_WorkGroupSize.y);

// Horizontal: LOCAL_Y rows of SEG_H texels, skewed.
const int LINE_H = LOCAL_X * K;
const int SEG_H = LINE_H + 2 * RADIUS;
const int STRIDE_H = K > 1 ? SEG_H + SEG_H / K + 1 : SEG_H;
// Vertical: SEG_V rows of LOCAL_X texels.
const int LINE_V = LOCAL_Y * K;
const int SEG_V = LINE_V + 2 * RADIUS;
const int CACHE_SIZE = DIRECTION == 0 ? LOCAL_Y * STRIDE_H : SEG_V * LOCAL_X;
shared vec4 cache[CACHE_SIZE];

int skew(int e) { return K > 1 ? e + e / K : e; }

void main() {
  const ivec2 size = textureSize(source, 0);
  const int tx = int(gl_LocalInvocationID.x);
  const int ty = int(gl_LocalInvocationID.y);
  vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);
  vec4 s4 = vec4(0.0), s5 = vec4(0.0), s6 = vec4(0.0), s7 = vec4(0.0);

  if (DIRECTION == 0) {
    const int line_start = int(gl_WorkGroupID.x) * LINE_H;
    const int y = int(gl_WorkGroupID.y) * LOCAL_Y + ty;
    const int y_clamped = min(y, size.y - 1);
    const int base = ty * STRIDE_H;
    [[unroll]] for (int n = 0; n < (SEG_H + LOCAL_X - 1) / LOCAL_X; ++n) {
      const int e = tx + LOCAL_X * n;
      if (e < SEG_H)
        cache[base + skew(e)] = texelFetch(source, ivec2(clamp(line_start - RADIUS + e, 0, size.x - 1), y_clamped), 0);
    }
    barrier();

    // Output line_start + first + k needs cached texels first + k + [0, 2r].
    const int first = tx * K;
    [[unroll]] for (int j = 0; j < TAPS + K - 1; ++j) {
      const vec4 v = cache[base + skew(first + j)];
      FEED_ALL(wt);
    }
    // Stored directly, lane i would write pixels K i + k: K store instructions each touching
    // every K-th pixel of the warp's span, K times the memory transactions of a contiguous store.
    // So the outputs go back to this row's cache in pixel order first, and each thread then stores
    // pixels tx + LOCAL_X n: consecutive lanes, consecutive pixels.
    barrier();  // every thread of the group has read its window
#define STAGE(k) if (k < K) cache[base + skew(first + k)] = s##k
    STAGE(0); STAGE(1); STAGE(2); STAGE(3); STAGE(4); STAGE(5); STAGE(6); STAGE(7);
#undef STAGE
    barrier();
    if (y < size.y) {
      [[unroll]] for (int n = 0; n < K; ++n) {
        const int e = tx + LOCAL_X * n;
        if (line_start + e < size.x) imageStore(destination, ivec2(line_start + e, y), cache[base + skew(e)]);
      }
    }
  } else {
    const int line_start = int(gl_WorkGroupID.y) * LINE_V;
    const int x = int(gl_WorkGroupID.x) * LOCAL_X + tx;
    const int x_clamped = min(x, size.x - 1);
    [[unroll]] for (int n = 0; n < (SEG_V + LOCAL_Y - 1) / LOCAL_Y; ++n) {
      const int e = ty + LOCAL_Y * n;
      if (e < SEG_V)
        cache[e * LOCAL_X + tx] = texelFetch(source, ivec2(x_clamped, clamp(line_start - RADIUS + e, 0, size.y - 1)), 0);
    }
    barrier();

    const int first = ty * K;
    [[unroll]] for (int j = 0; j < TAPS + K - 1; ++j) {
      const vec4 v = cache[(first + j) * LOCAL_X + tx];
      FEED_ALL(wt);
    }
    const ivec2 p = ivec2(x, line_start + first);
    STORE(0, p); STORE(1, p + ivec2(0, 1)); STORE(2, p + ivec2(0, 2)); STORE(3, p + ivec2(0, 3));
    STORE(4, p + ivec2(0, 4)); STORE(5, p + ivec2(0, 5)); STORE(6, p + ivec2(0, 6)); STORE(7, p + ivec2(0, 7));
  }
}
#endif  // SEPARABLE_SHARED
