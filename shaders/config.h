// The contracts between the host and the shaders that every pass and family shares: the C++
// renderer and the GLSL shaders both include this file, so a binding number or a push-constant
// layout is written once and cannot drift. A family's own contracts (its workgroup and tile sizes,
// limits, push constants) live the same way beside its shaders, in
// shaders/filters/<family>/<family>_config.h, which includes this one. Plain #defines and structs
// only: each file is C++ and GLSL at once.
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
#define BINDING_SOURCE 0         // sampler2D: the previous step's image
#define BINDING_DESTINATION 1    // storage image: a compute pass's output (fragment passes render it)
#define BINDING_FAMILY_DATA 2    // a family's own buffer (its kernel weights, say)
#define BINDING_FAMILY_DATA_2 3  // a second one
// A family's inputs beyond the previous step's image (filters::Input), where it reads them.
#define BINDING_DEPTH 4    // sampler2D: the scene's depth (D32)
#define BINDING_MOTION 5   // sampler2D: the scene's motion, pixels since the previous frame (RG16F)
#define BINDING_HISTORY 6  // sampler2D: the step's own output in the previous frame
#define BINDING_FAMILY_DATA_3 7  // a family's third own binding

// The camera as push constants (passes/camera_feed.h fills them from the frame's CameraFeed).
struct FilterCamera {
  vec2 jitter_px;        // this frame's sub-pixel offset
  uint frame;            // frame index
  uint history_invalid;  // 1: the first frame, a resize or a camera cut: ignore the history
};

#ifdef __cplusplus
}  // namespace filterlab::shader
#endif
#endif  // FILTERLAB_CONFIG_H
