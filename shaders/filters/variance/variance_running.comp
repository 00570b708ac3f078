#version 460
// variance comp.running: the mean and standard deviation of a square window with work that does not
// grow with the radius. A group owns a strip VARIANCE_RUNNING_COLS outputs wide and `ROWS` tall
// (running_rows in renderer/filters/window_methods.h); thread t keeps the vertical sums (of d and
// d^2, d = x - anchor) of input column t of the strip and its apron and slides them down a row at a
// time, as comp.stream does. Along the row, the threads' sums are turned into an inclusive prefix
// (subgroup scans, then the subgroups' totals through shared memory), and each output's window is
// the difference of two prefixes: two reads of shared memory at any radius, where comp.stream reads
// 2r + 1.
// Precision: the sums are doubles. A strip's sums run over up to 64 rows and 128 + 2r columns, and
// the variance E[d^2] - E[d]^2 cancels where a window is flat; in fp32 the square root turned that
// into errors of 1.8e-4 at r = 1 on photographs (issue #54), where the direct methods reach 1e-7.
// In double the cancellation loses nothing that reaches an fp32 output. d = x - anchor is taken in
// double (exact for float x), and the anchor keeps the sums small.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/variance/variance_config.h"
#define GROUP_PREFIX_SLOTS 2
#define GROUP_PREFIX_TYPE dvec4
#include "filters/common/group_prefix.glsl"

layout(local_size_x_id = VARIANCE_RUNNING_THREADS_ID) in;
layout(constant_id = WINDOW_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = WINDOW_SPACE_ID) const int SPACE = WINDOW_SPACE_RGB;
layout(constant_id = VARIANCE_RUNNING_ROWS_ID) const int ROWS = 64;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D mean_image;
layout(set = 0, binding = BINDING_DESTINATION_2, OUTPUT_FORMAT) writeonly uniform image2D stddev_image;

const int COLS = VARIANCE_RUNNING_COLS;
const int SPAN = COLS + 2 * RADIUS;  // input columns of a strip
// The prefix of the row, two rows' worth (a row is written while the one before may still be read),
// entry 0 of each being 0.
shared dvec4 prefix[2][SPAN + 1], prefix_sq[2][SPAN + 1];

vec4 value(ivec2 p) {
  const vec4 c = texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0);
  if (SPACE == WINDOW_SPACE_YCOCG)
    return vec4(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b, c.a);
  return c;
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 corner = ivec2(gl_WorkGroupID.xy) * ivec2(COLS, ROWS);
  const int last = min(corner.y + ROWS, size.y);  // rows [corner.y, last)
  const dvec4 anchor = dvec4(value(corner));
  const int t = int(gl_LocalInvocationIndex);
  const int column = corner.x - RADIUS + t;
  const bool feeds = t < SPAN;
  if (t < 2) {
    prefix[t][0] = dvec4(0.0);
    prefix_sq[t][0] = dvec4(0.0);
  }
  // The vertical sums as if for row corner.y - 1; every row below slides them by one.
  dvec4 sum = dvec4(0.0), sum_sq = dvec4(0.0);
  if (feeds)
    for (int y = corner.y - 1 - RADIUS; y <= corner.y - 1 + RADIUS; ++y) {
      const dvec4 d = dvec4(value(ivec2(column, y))) - anchor;
      sum += d;
      sum_sq += d * d;
    }
  const double n = double((2 * RADIUS + 1) * (2 * RADIUS + 1));
  vec4 held_mean = vec4(0.0), held_stddev = vec4(0.0);  // an even row's outputs, stored with the next
  for (int y = corner.y; y < last; ++y) {
    if (feeds) {
      const dvec4 enters = dvec4(value(ivec2(column, y + RADIUS))) - anchor;
      const dvec4 leaves = dvec4(value(ivec2(column, y - RADIUS - 1))) - anchor;
      sum += enters - leaves;
      sum_sq += enters * enters - leaves * leaves;
    }
    // The row's inclusive prefix over the threads (columns). Threads past the span add nothing.
    dvec4 p = feeds ? sum : dvec4(0.0), p_sq = feeds ? sum_sq : dvec4(0.0);
    group_prefix2(p, p_sq, 0);
    const int slot = y & 1;
    if (feeds) {
      prefix[slot][t + 1] = p;
      prefix_sq[slot][t + 1] = p_sq;
    }
    barrier();
    // Output x of the strip: input columns x .. x + 2r of the span.
    if (t < COLS && corner.x + t < size.x) {
      const dvec4 s = prefix[slot][t + 2 * RADIUS + 1] - prefix[slot][t];
      const dvec4 s_sq = prefix_sq[slot][t + 2 * RADIUS + 1] - prefix_sq[slot][t];
      const dvec4 mean_d = s / n;
      const dvec4 variance = max(s_sq / n - mean_d * mean_d, dvec4(0.0));
      const vec4 mean = vec4(anchor + mean_d), stddev = sqrt(vec4(variance));
      const ivec2 at = ivec2(corner.x + t, y);
      // Rows 2k and 2k + 1 share the 32-byte sectors of an optimally tiled image (NVIDIA's layout),
      // and a sector written half at a time, a row's walk apart, costs far more than one written
      // whole: an even row's outputs wait for the odd row below, and the two go out back to back.
      if ((y & 1) == 0 && y + 1 < last) {
        held_mean = mean;
        held_stddev = stddev;
      } else {
        if ((y & 1) == 1 && y > corner.y) {
          imageStore(mean_image, at - ivec2(0, 1), held_mean);
          imageStore(stddev_image, at - ivec2(0, 1), held_stddev);
        }
        imageStore(mean_image, at, mean);
        imageStore(stddev_image, at, stddev);
      }
    }
  }
}
