#version 460
// variance comp.running (the running window's driver: filters/common/window_running.glsl): the mean
// and standard deviation of a square window with work that does not grow with the radius. A thread
// keeps the vertical sums of d and d^2 (d = x - anchor) of its column and slides them down a row at
// a time, as comp.stream does; each output's window is the difference of two of the row's prefixes:
// two reads of shared memory at any radius, where comp.stream reads 2r + 1.
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
#include "filters/common/window_running.glsl"

layout(constant_id = WINDOW_SPACE_ID) const int SPACE = WINDOW_SPACE_RGB;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D mean_image;
layout(set = 0, binding = BINDING_DESTINATION_2, OUTPUT_FORMAT) writeonly uniform image2D stddev_image;

// The prefix of the row, entry 0 of each being 0.
shared dvec4 prefix[2][RUNNING_SPAN + 1], prefix_sq[2][RUNNING_SPAN + 1];

struct RunningColumn {
  dvec4 sum, sum_sq;
  vec4 held_mean, held_stddev;  // an even row's outputs, stored with the next row's
};

vec4 running_value(ivec2 p) {
  const vec4 c = running_texel(p);
  if (SPACE == WINDOW_SPACE_YCOCG)
    return vec4(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b, c.a);
  return c;
}

dvec4 relative(ivec2 p) {
  return dvec4(running_value(p)) - dvec4(strip_anchor);
}

RunningColumn running_start() {
  if (strip_thread < 2) {
    prefix[strip_thread][0] = dvec4(0.0);
    prefix_sq[strip_thread][0] = dvec4(0.0);
  }
  return RunningColumn(dvec4(0.0), dvec4(0.0), vec4(0.0), vec4(0.0));
}

void running_prime(inout RunningColumn c, int j, ivec2 p) {
  const dvec4 d = relative(p);
  c.sum += d;
  c.sum_sq += d * d;
}

void running_slide(inout RunningColumn c, int y) {
  const dvec4 enters = relative(ivec2(strip_column, y + RADIUS));
  const dvec4 leaves = relative(ivec2(strip_column, y - RADIUS - 1));
  c.sum += enters - leaves;
  c.sum_sq += enters * enters - leaves * leaves;
}

void running_row(inout RunningColumn c, int y, int slot) {
  const int t = strip_thread;
  // The row's inclusive prefix over the threads (columns). Threads past the span add nothing.
  dvec4 p = strip_feeds ? c.sum : dvec4(0.0), p_sq = strip_feeds ? c.sum_sq : dvec4(0.0);
  group_prefix2(p, p_sq, 0);
  if (strip_feeds) {
    prefix[slot][t + 1] = p;
    prefix_sq[slot][t + 1] = p_sq;
  }
  barrier();
  // Output t of the strip: input columns t .. t + 2r of the span.
  if (strip_writes()) {
    const double n = double((2 * RADIUS + 1) * (2 * RADIUS + 1));
    const dvec4 s = prefix[slot][t + 2 * RADIUS + 1] - prefix[slot][t];
    const dvec4 s_sq = prefix_sq[slot][t + 2 * RADIUS + 1] - prefix_sq[slot][t];
    const dvec4 mean_d = s / n;
    const dvec4 variance = max(s_sq / n - mean_d * mean_d, dvec4(0.0));
    const vec4 mean = vec4(dvec4(strip_anchor) + mean_d), stddev = sqrt(vec4(variance));
    const ivec2 at = ivec2(strip_corner.x + t, y);
    // Rows 2k and 2k + 1 share the 32-byte sectors of an optimally tiled image (NVIDIA's layout),
    // and a sector written half at a time, a row's walk apart, costs far more than one written
    // whole: an even row's outputs wait for the odd row below, and the two go out back to back.
    if ((y & 1) == 0 && y + 1 < strip_last) {
      c.held_mean = mean;
      c.held_stddev = stddev;
    } else {
      if ((y & 1) == 1 && y > strip_corner.y) {
        imageStore(mean_image, at - ivec2(0, 1), c.held_mean);
        imageStore(stddev_image, at - ivec2(0, 1), c.held_stddev);
      }
      imageStore(mean_image, at, mean);
      imageStore(stddev_image, at, stddev);
    }
  }
}

#include "filters/common/window_running_main.glsl"
