// comp.running, the running window's driver: for a window whose sums slide down a column (a few adds
// a row) and come out of prefix sums along a row (two reads of shared memory at any radius), so that
// a pixel costs the same at every radius. A group owns a strip WINDOW_RUNNING_COLS outputs wide and
// ROWS tall (running_rows in renderer/filters/window_methods.h); thread t keeps the sums of input
// column t of the strip and its apron and slides them down a row at a time; each row's prefixes
// over the threads come from group_prefix.glsl. Every value is taken relative to the strip's anchor
// (the value at its corner), so sums carry the image's variation, not its level. The family's
// shader is
//
//   #version 460
//   //! variant fp16 OUTPUT_FORMAT=rgba16f
//   //! variant fp32 OUTPUT_FORMAT=rgba32f
//   #define GROUP_PREFIX_SLOTS n                     // (and GROUP_PREFIX_TYPE): group_prefix.glsl's
//   #include "filters/common/window_running.glsl"    // this file: RADIUS, ROWS, the source, the strip
//   ... the family's struct and functions (below) ...
//   #include "filters/common/window_running_main.glsl"
//
// What a family defines between the two includes:
//   struct RunningColumn                    what a thread keeps of its column
//   vec4 running_value(ivec2 p)             the value at p (running_texel(p), in the family's space)
//   RunningColumn running_start()           nothing summed; clears entry 0 of the family's prefix
//                                           rows (the threads with strip_thread < 2)
//   void running_prime(inout RunningColumn c, int j, ivec2 p)
//                                           adds the texel at p, j rows from the centre of the window
//                                           above the strip's first row (j = -RADIUS .. RADIUS)
//   void running_slide(inout RunningColumn c, int y)   moves the window from row y - 1 to row y
//   void running_row(inout RunningColumn c, int y, int slot)
//                                           row y's prefixes, in the family's shared rows `slot` (two
//                                           rows' worth: one is written while the one before may
//                                           still be read), and its outputs
// The driver calls running_prime and running_slide for the threads that feed a column
// (strip_feeds), running_row for every thread (its prefixes and barriers take the whole group).
#ifndef FILTERLAB_WINDOW_RUNNING_GLSL
#define FILTERLAB_WINDOW_RUNNING_GLSL
#extension GL_GOOGLE_include_directive : require
#include "filters/common/group_prefix.glsl"

layout(local_size_x_id = WINDOW_RUNNING_THREADS_ID) in;
layout(constant_id = WINDOW_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = WINDOW_RUNNING_ROWS_ID) const int ROWS = 16;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;

const int RUNNING_COLS = WINDOW_RUNNING_COLS;
const int RUNNING_SPAN = RUNNING_COLS + 2 * RADIUS;  // input columns of a strip

// The strip, as main() finds it.
ivec2 strip_size;    // the source's
ivec2 strip_corner;  // its first output
int strip_last;      // its rows are [strip_corner.y, strip_last)
int strip_thread;    // this thread's input column within the span
int strip_column;    // and in the image
bool strip_feeds;    // the thread has a column (strip_thread < RUNNING_SPAN)
vec4 strip_anchor;   // running_value(strip_corner)

vec4 running_texel(ivec2 p) {
  return texelFetch(source, clamp(p, ivec2(0), strip_size - 1), 0);
}

// Whether this thread writes output strip_thread of the row (the window centred on input column
// strip_thread + RADIUS of the span).
bool strip_writes() {
  return strip_thread < RUNNING_COLS && strip_corner.x + strip_thread < strip_size.x;
}

#endif
