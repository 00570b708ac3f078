#pragma once
// What pass and filter objects need to create their pipelines and per-frame buffers.
#include "vk/pipeline_library.h"
#include "vk/pipelines.h"

namespace filterlab::passes {

struct PassEnv {
  const vk::Context& vk;
  const vk::ShaderSource& shaders;
  uint32_t frames_in_flight = 2;
  // With a library (the window), pipelines come from it and rebuild when their shaders change on
  // disk; without one, each pass owns its pipelines. Build them with vk::make_pipeline(pipelines, ...).
  vk::PipelineLibrary* pipelines = nullptr;
};

}  // namespace filterlab::passes
