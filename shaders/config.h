// The contracts between the host and the shaders, in one place: the C++ renderer and the GLSL
// shaders both include this file, so a binding number, a workgroup or tile size, a limit or a
// push-constant layout is written once and cannot drift. Plain #defines and structs only: the
// file is C++ and GLSL at once.
#ifndef FILTERLAB_CONFIG_H
#define FILTERLAB_CONFIG_H

#ifdef __cplusplus
#include <glm/glm.hpp>

#include <cstdint>
namespace filterlab::shader {
using ivec2 = glm::ivec2;
using vec2 = glm::vec2;
using uint = uint32_t;
#endif

// ---- filter passes (renderer/passes/simple_pass.h): descriptor set 0 --------------------------
#define BINDING_SOURCE 0       // sampler2D: the previous step's image
#define BINDING_DESTINATION 1  // storage image: a compute pass's output (fragment passes render it)
#define BINDING_WEIGHTS 2      // the family's kernel weights, as a uniform block or a storage buffer
#define BINDING_TAPS 3         // bilinear taps: (offset, weight) pairs
// A family's inputs beyond the previous step's image (filters::Input), where it reads them.
#define BINDING_DEPTH 4    // sampler2D: the scene's depth (D32)
#define BINDING_MOTION 5   // sampler2D: the scene's motion, pixels since the previous frame (RG16F)
#define BINDING_HISTORY 6  // sampler2D: the step's own output in the previous frame

// The camera as push constants (passes/camera_feed.h fills them from the frame's CameraFeed).
struct FilterCamera {
  vec2 jitter_px;        // this frame's sub-pixel offset
  uint frame;            // frame index
  uint history_invalid;  // 1: the first frame, a resize or a camera cut: ignore the history
};

// ---- copy family (renderer/filters/copy) ---------------------------------------------------------
#define COPY_GROUP_X 16
#define COPY_GROUP_Y 16

// ---- gaussian family (renderer/filters/gaussian) ---------------------------------------------------
// The uniform block of weights (std140 vec4s, w4[j / 4][j % 4] = w(j - r)) that the tiled, fused
// and stream methods read as constant operands, followed by the same weights rounded to half: it
// holds kernels up to this radius.
#define GAUSSIAN_UNIFORM_MAX_RADIUS 32
#define GAUSSIAN_WEIGHT_VEC4S ((2 * GAUSSIAN_UNIFORM_MAX_RADIUS + 1 + 3) / 4)

// comp.full2d_shared and comp.separable_shared (comp_shared.comp): 16 x 16 threads.
#define SHARED_GROUP 16
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
// comp.tiled (AMD): 8 x 8 threads, each with 4 x 4 outputs of a 32 x 32 tile.
#define TILED_GROUP 8
#define TILED_TILE 32
// Its pass for the pixels outside the target ROI: 16 x 16 threads, a pixel each; with
// outside=poison they get this value (exact in fp16), which no blur of [0, 1] data can produce.
#define TILED_OUTSIDE_GROUP 16
#define TILED_POISON (-1024.0)
// The quad methods' compute workgroup: QUAD_GROUP x QUAD_GROUP pixels.
#define QUAD_GROUP 8

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
#endif  // FILTERLAB_CONFIG_H
