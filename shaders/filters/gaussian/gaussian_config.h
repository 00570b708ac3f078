// The gaussian family's contracts (renderer/filters/gaussian and the shaders beside this file):
// C++ and GLSL at once, as shaders/config.h.
#ifndef FILTERLAB_GAUSSIAN_CONFIG_H
#define FILTERLAB_GAUSSIAN_CONFIG_H
#include "config.h"
#include "filters/common/window_config.h"

// Specialization constants: the radius; each method's own; the window methods' weights w(k), k =
// 0..32, from WINDOW_FAMILY_CONSTANT (window_config.h; their radius is WINDOW_RADIUS_ID).
#define GAUSSIAN_RADIUS_ID 0
#define GAUSSIAN_DIRECTION_ID 1
#define GAUSSIAN_FUSED_K_ID 1
#define GAUSSIAN_FUSED_RUN_ID 2
#define GAUSSIAN_TILED_INTERLEAVED_ID 1
#define GAUSSIAN_TILED_POISON_ID 0
#define GAUSSIAN_WEIGHT_ID(k) (WINDOW_FAMILY_CONSTANT + (k))

#define BINDING_WEIGHTS BINDING_FAMILY_DATA  // the kernel weights: a uniform block or a storage buffer
#define BINDING_TAPS BINDING_FAMILY_DATA_2   // bilinear taps: (offset, weight) pairs

// The uniform block of weights (std140 vec4s, w4[j / 4][j % 4] = w(j - r)) that the tiled, fused
// and stream methods read as constant operands, followed by the same weights rounded to half: it
// holds kernels up to this radius.
#define GAUSSIAN_UNIFORM_MAX_RADIUS 32
#define GAUSSIAN_WEIGHT_VEC4S ((2 * GAUSSIAN_UNIFORM_MAX_RADIUS + 1 + 3) / 4)

// comp.separable_fused: 32 x 8 threads, a tile 32 wide.
#define FUSED_GROUP_X 32
#define FUSED_GROUP_Y 8
// comp.separable_stream: a group walks down a strip of STREAM_STRIP columns, two threads a column,
// in batches of STREAM_BATCH rows, each thread summing runs of STREAM_RUN.
#define STREAM_STRIP 64
#define STREAM_THREADS (2 * STREAM_STRIP)
#define STREAM_BATCH 8
#define STREAM_RUN 8
// Shared-memory rows padded to 1 mod 16 elements (bank conflicts).
#define STREAM_STAGE_STRIDE(in_w) ((in_w) + (17 - (in_w) % 16) % 16)
// comp.separable_shuffle: groups of SHUFFLE_THREADS threads, each subgroup walking down a strip of
// SHUFFLE_ROWS rows (a group a strip: the host dispatches height / SHUFFLE_ROWS groups down) in
// batches of SHUFFLE_BATCH_FP16 or SHUFFLE_BATCH_FP32 rows (even).
#define SHUFFLE_THREADS 64
#define SHUFFLE_ROWS 16
#define SHUFFLE_BATCH_FP16 4
#define SHUFFLE_BATCH_FP32 8
// comp.tiled (AMD): 8 x 8 threads, each with 4 x 4 outputs of a 32 x 32 tile.
#define TILED_GROUP 8
#define TILED_TILE 32
// Its pass for the pixels outside the target ROI: 16 x 16 threads, a pixel each; with
// outside=poison they get this value (exact in fp16), which no blur of [0, 1] data can produce.
#define TILED_OUTSIDE_GROUP 16
#define TILED_POISON (-1024.0)

#ifdef __cplusplus
namespace filterlab::shader {
#endif

// comp.tiled's push constants: the ROIs, mapped one onto the other.
struct TiledPush {
  ivec2 src_origin;
  ivec2 dst_origin;
  ivec2 size;
  ivec2 image_size;
};

#ifdef __cplusplus
}  // namespace filterlab::shader
#endif
#endif  // FILTERLAB_GAUSSIAN_CONFIG_H
