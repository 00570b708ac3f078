// The window methods' contracts (renderer/filters/window_methods.h and window.glsl beside this
// file): the drivers every window family (a filter over the (2r+1)^2 neighbourhood) shares.
#ifndef FILTERLAB_WINDOW_CONFIG_H
#define FILTERLAB_WINDOW_CONFIG_H
#include "config.h"

// A window filter's second output image (variance writes two); the second term's row sums, written
// by the rows pass of a two-term window and read by its columns pass.
#define BINDING_DESTINATION_2 BINDING_FAMILY_DATA_2
#define BINDING_SOURCE_2 BINDING_FAMILY_DATA

// comp.full2d_shared: 16 x 16 threads, K outputs down a column each (specialization constant
// WINDOW_SHARED_K_ID, K <= WINDOW_SHARED_MAX_K; K > 1 for windows of separable terms only), from a
// (16 + 2r) x (16K + 2r) tile of vec4.
#define WINDOW_SHARED_GROUP 16
#define WINDOW_SHARED_MAX_K 4
// The quad methods' compute workgroup: WINDOW_QUAD_GROUP x WINDOW_QUAD_GROUP pixels.
#define WINDOW_QUAD_GROUP 8
// comp.separable_shared: 32 x 8 threads own a tile 32 outputs wide and 8K tall (K outputs down a
// column per thread, specialization constant WINDOW_SEPARABLE_K_ID); a thread's horizontal task
// is a run of WINDOW_SEPARABLE_RUN adjacent row sums.
#define WINDOW_SEPARABLE_GROUP_X 32
#define WINDOW_SEPARABLE_GROUP_Y 8
#define WINDOW_SEPARABLE_RUN 4
#define WINDOW_SEPARABLE_MAX_K 4
// A window of separable terms (window_terms.glsl) is comp.separable_shared in two passes, each
// caching line segments plus apron in shared memory, K = WINDOW_LINE_K outputs per thread along
// the line: the rows pass, WINDOW_ROWS_GROUP_X x WINDOW_ROWS_GROUP_Y threads over as many rows,
// writes each term's row sums to an image of its own; the columns pass, WINDOW_COLUMNS_GROUP^2
// threads, sums them down the columns.
#define WINDOW_ROWS_GROUP_X 64
#define WINDOW_ROWS_GROUP_Y 4
#define WINDOW_COLUMNS_GROUP 16
#define WINDOW_LINE_K 4
#define WINDOW_MAX_TERMS 2

// comp.running (window_running.glsl: running sums down strips): a group walks down a strip
// WINDOW_RUNNING_COLS outputs wide, one thread a column of the strip and its apron, rounded up to a
// multiple of 32 threads and at most 256 (running_threads in renderer/filters/window_methods.h),
// for radii up to WINDOW_RUNNING_MAX_RADIUS; its rows and its thread count are specialization
// constants. group_prefix.glsl keeps a total for each of its subgroups, of 8 or more invocations.
#define WINDOW_RUNNING_COLS 128
#define WINDOW_RUNNING_MAX_RADIUS 32
#define WINDOW_RUNNING_MAX_THREADS 256
#define WINDOW_RUNNING_MAX_SUBGROUPS 32

// Specialization constants: the radius; a family numbers its own from WINDOW_FAMILY_CONSTANT, below
// the drivers' own.
#define WINDOW_RADIUS_ID 0
#define WINDOW_FAMILY_CONSTANT 1
#define WINDOW_SEPARABLE_K_ID 100
#define WINDOW_SHARED_K_ID 101
#define WINDOW_RUNNING_THREADS_ID 102
#define WINDOW_RUNNING_ROWS_ID 103

#endif  // FILTERLAB_WINDOW_CONFIG_H
