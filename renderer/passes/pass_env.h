#pragma once
// What pass and filter objects need to create their pipelines and per-frame buffers.
#include "vk/pipelines.h"

namespace filterlab::passes {

struct PassEnv {
  const vk::Context& vk;
  const vk::ShaderSource& shaders;
  uint32_t frames_in_flight = 2;
};

}  // namespace filterlab::passes
