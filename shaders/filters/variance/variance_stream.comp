#version 460
// variance comp.stream: the mean and standard deviation of a square window as box sums that slide,
// so that a pixel costs the same at every radius. A group owns a strip VARIANCE_STREAM_COLS outputs
// wide and VARIANCE_STREAM_ROWS tall; thread t keeps the vertical sums (of d and d^2,
// d = x - anchor) of input column t of the strip and its apron, and slides them down a row at a
// time: add the row entering the window, subtract the row leaving it (fetched again; it is in
// the cache). Every VARIANCE_STREAM_BATCH rows the vertical sums go to shared memory, and each
// output sums its row's 2r + 1 of them.
// The anchor is the strip's corner texel: one number for every sum the group adds or subtracts,
// as the exchange of partial sums needs (variance_window.glsl). A sliding sum drifts by about one
// rounding a step; a strip's 32 + 2r steps keep that far below the family's bound. Strips of 32
// rows, not 128: a thread's walk is a chain of dependent fetches, so it is the number of groups
// in flight that hides their latency (docs/families/variance.md).
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "filters/variance/variance_config.h"

layout(local_size_x = VARIANCE_STREAM_THREADS) in;
layout(constant_id = WINDOW_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = WINDOW_SPACE_ID) const int SPACE = WINDOW_SPACE_RGB;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D mean_image;
layout(set = 0, binding = BINDING_DESTINATION_2, OUTPUT_FORMAT) writeonly uniform image2D stddev_image;

const int COLS = VARIANCE_STREAM_COLS;
const int SPAN = COLS + 2 * RADIUS;  // input columns of a strip
const int BATCH = VARIANCE_STREAM_BATCH;
shared vec4 column_sum[BATCH * SPAN], column_sum_sq[BATCH * SPAN];

vec4 value(ivec2 p) {
  const vec4 c = texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0);
  if (SPACE == WINDOW_SPACE_YCOCG)
    return vec4(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b, c.a);
  return c;
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 corner = ivec2(gl_WorkGroupID.xy) * ivec2(COLS, VARIANCE_STREAM_ROWS);
  const int last = min(corner.y + VARIANCE_STREAM_ROWS, size.y);  // rows [corner.y, last)
  const vec4 anchor = value(corner);
  const int t = int(gl_LocalInvocationIndex);
  const int column = corner.x - RADIUS + t;
  const bool feeds = t < SPAN;
  // The vertical sums as if for row corner.y - 1; every row below slides them by one.
  vec4 sum = vec4(0.0), sum_sq = vec4(0.0);
  if (feeds)
    for (int y = corner.y - 1 - RADIUS; y <= corner.y - 1 + RADIUS; ++y) {
      const vec4 d = value(ivec2(column, y)) - anchor;
      sum += d;
      sum_sq += d * d;
    }
  const float n = float((2 * RADIUS + 1) * (2 * RADIUS + 1));
  for (int top = corner.y; top < last; top += BATCH) {
    if (feeds)
      [[unroll]] for (int k = 0; k < BATCH; ++k) {
        const int y = top + k;
        const vec4 enters = value(ivec2(column, y + RADIUS)) - anchor;
        const vec4 leaves = value(ivec2(column, y - RADIUS - 1)) - anchor;
        sum += enters - leaves;
        sum_sq += enters * enters - leaves * leaves;
        column_sum[k * SPAN + t] = sum;
        column_sum_sq[k * SPAN + t] = sum_sq;
      }
    barrier();
    // Thread t: column t % COLS of the strip, rows t / COLS, + 2, + 4, ... of the batch, so that a
    // warp's stores are adjacent pixels of a row (a run of adjacent outputs a thread, sliding
    // along the row, read less shared memory but stored with a stride and measured slower:
    // docs/families/variance.md).
    const int x = t % COLS;
    for (int k = t / COLS; k < BATCH; k += VARIANCE_STREAM_THREADS / COLS) {
      vec4 s = vec4(0.0), s2 = vec4(0.0);
      for (int i = 0; i <= 2 * RADIUS; ++i) {
        s += column_sum[k * SPAN + x + i];
        s2 += column_sum_sq[k * SPAN + x + i];
      }
      const ivec2 p = ivec2(corner.x + x, top + k);
      const vec4 mean_d = s / n;
      if (p.x < size.x && p.y < last) {
        imageStore(mean_image, p, anchor + mean_d);
        imageStore(stddev_image, p, sqrt(max(s2 / n - mean_d * mean_d, vec4(0.0))));
      }
    }
    barrier();
  }
}
