#version 460
// convolve direct.full2d: out(x, y) = sum over the kernel of k(a, b) in(x + cx - a, y + cy - b), with
// (cx, cy) the kernel's centre (the middle texel, or (w/2, h/2) for an even size), clamp to edge.
// A thread keeps CONVOLVE_FULL2D_OUTPUTS neighbouring outputs of a row in registers; the kernel is
// walked in chunks, the input a chunk needs staged in shared memory once for the group. Along a
// kernel row the outputs' inputs slide by one texel a tap, so a tap costs one shared load for four
// vec4 FMAs. Staged columns are stored at c + c / 4: the eight threads of a quarter warp, whose
// windows start four columns apart, then read 16-byte words in distinct banks.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
//! variant wide.fp16 WHOLE_CHUNKS=1 OUTPUT_FORMAT=rgba16f
//! variant wide.fp32 WHOLE_CHUNKS=1 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "filters/convolve/convolve_config.h"

layout(local_size_x = CONVOLVE_GROUP, local_size_y = CONVOLVE_GROUP) in;
layout(constant_id = CONVOLVE_KERNEL_WIDTH_ID) const int KW = 3;
layout(constant_id = CONVOLVE_KERNEL_HEIGHT_ID) const int KH = 3;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) readonly buffer Kernel {
  vec4 k[];  // k[b * KW + a]: row b from the top, column a from the left; a value per channel
};

const int N = CONVOLVE_FULL2D_OUTPUTS, R = CONVOLVE_FULL2D_ROWS, C = CONVOLVE_FULL2D_COLS;
const int TILE_W = CONVOLVE_GROUP * N + C - 1, TILE_H = CONVOLVE_GROUP + R - 1;
const int STORED_W = TILE_W + TILE_W / 4 + 1;
shared vec4 tile[TILE_H * STORED_W];

int stored(int row, int column) {
  return row * STORED_W + column + (column >> 2);
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 t = ivec2(gl_LocalInvocationID.xy);
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(CONVOLVE_GROUP * N, CONVOLVE_GROUP);
  const int cx = KW / 2, cy = KH / 2;
  // Sums in three levels, a chunk's taps (at most R C), a band of R rows' chunks, and the bands, so
  // that no fp32 chain is long: one accumulator over a 255 x 255 kernel errs by 1.6e-4.
  vec4 sum[N], band[N], part[N];
  for (int i = 0; i < N; ++i) sum[i] = vec4(0.0);

  for (int b0 = 0; b0 < KH; b0 += R) {
    for (int i = 0; i < N; ++i) band[i] = vec4(0.0);
    for (int a0 = 0; a0 < KW; a0 += C) {
      for (int i = 0; i < N; ++i) part[i] = vec4(0.0);
      // The chunk reads rows y + cy - b for b in [b0, b0 + R) and columns x + cx - a for a in
      // [a0, a0 + C): the tile starts at the smallest of each.
      const ivec2 corner = origin + ivec2(cx - a0 - (C - 1), cy - b0 - (R - 1));
      barrier();
      for (int s = int(gl_LocalInvocationIndex); s < TILE_W * TILE_H; s += CONVOLVE_GROUP * CONVOLVE_GROUP) {
        const ivec2 at = ivec2(s % TILE_W, s / TILE_W);
        tile[stored(at.y, at.x)] = texelFetch(source, clamp(corner + at, ivec2(0), size - 1), 0);
      }
      barrier();
      for (int bb = 0; bb < R && b0 + bb < KH; ++bb) {
        const int row = t.y + (R - 1) - bb;
        // Output i of tap aa reads tile column N t.x + i + (C - 1) - aa.
        const int first = N * t.x + (C - 1);
        vec4 window[N];
        for (int i = 0; i < N; ++i) window[i] = tile[stored(row, first + i)];
#if defined(WHOLE_CHUNKS)
        // Kernels at least a chunk wide (the `wide` variants): a whole chunk unrolled, so that the
        // window slides by renaming registers rather than moving them. It costs registers, which
        // narrower kernels pay for more than they gain (measured: docs/families/convolve.md).
        if (a0 + C <= KW) {
          [[unroll]] for (int aa = 0; aa < C; ++aa) {
            if (aa > 0) {
              [[unroll]] for (int i = N - 1; i > 0; --i) window[i] = window[i - 1];
              window[0] = tile[stored(row, first - aa)];
            }
            const vec4 w = k[(b0 + bb) * KW + a0 + aa];
            [[unroll]] for (int i = 0; i < N; ++i) part[i] = fma(w, window[i], part[i]);
          }
        } else
#endif
        {
          for (int aa = 0; aa < KW - a0; ++aa) {
            if (aa > 0) {
              for (int i = N - 1; i > 0; --i) window[i] = window[i - 1];
              window[0] = tile[stored(row, first - aa)];
            }
            const vec4 w = k[(b0 + bb) * KW + a0 + aa];
            for (int i = 0; i < N; ++i) part[i] = fma(w, window[i], part[i]);
          }
        }
      }
      for (int i = 0; i < N; ++i) band[i] += part[i];
    }
    for (int i = 0; i < N; ++i) sum[i] += band[i];
  }
  for (int i = 0; i < N; ++i) {
    const ivec2 p = origin + ivec2(N * t.x + i, t.y);
    if (all(lessThan(p, imageSize(destination)))) imageStore(destination, p, sum[i]);
  }
}
