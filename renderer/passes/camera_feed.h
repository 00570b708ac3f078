#pragma once
// The camera as a filter reads it (filters::Input::Camera): this frame's and the previous frame's
// unjittered view-projection, the jitter, the frame index and whether the filter's history is
// usable. The scene pass fills it when it records a frame, before any filter pass of that frame is
// recorded; a context without a scene (`filterlab filter` on a still image) gives a fixed camera
// whose history is invalid on the first frame.
#include "config.h"

#include <glm/glm.hpp>

#include <cstdint>

namespace filterlab::passes {

struct CameraFeed {
  glm::mat4 view_proj{1.0f}, prev_view_proj{1.0f};  // unjittered
  glm::vec2 jitter_px{0.0f};                        // this frame's offset, pixels
  uint32_t jitter_length = 8;                       // Halton points before the sequence repeats
  uint64_t frame = 0;
  // The previous frame's output does not belong to this view: the first frame, a new output size
  // (the graph's history images were recreated, cleared) or a camera cut.
  bool history_invalid = true;
};

// What a shader reads of it as push constants (shaders/config.h).
inline shader::FilterCamera camera_constants(const CameraFeed& feed) {
  return {feed.jitter_px, uint32_t(feed.frame), feed.history_invalid ? 1u : 0u};
}

}  // namespace filterlab::passes
