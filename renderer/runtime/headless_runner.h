#pragma once
// `filterlab run --headless`: renders N frames with no window, swapchain or GLFW, then writes
// captures, a timings JSON and a per-pass table. The GPU tests call run_headless() in-process.
#include "io/image_io.h"
#include "passes/flip_pass.h"
#include "runtime/run_options.h"
#include "runtime/stats.h"
#include "scene/scene_content.h"
#include "vk/context.h"
#include "vk/pipeline_statistics.h"

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::runtime {

struct PassStats {
  std::string name;
  Summary gpu_ms, cpu_ms;  // over the frames in which the pass recorded work
  size_t idle_frames = 0;  // timed frames in which it recorded nothing (PassContext::skip)
  // The pass right before it, when this pass reads an image that one just wrote: much of its input
  // may still be in the GPU's cache, so its time is L2-assisted, not a memory floor. Empty if not.
  std::string reads_from_previous;
};

struct RunResult {
  vk::DeviceReport device;
  std::vector<PassStats> passes;
  // Wall-clock time per timed frame: from the end of the last warm-up frame to the end of the last
  // timed one, over the timed frames. With frames in flight the device never waits for the host, so
  // this is the device's time per frame, against which the passes' sum can be checked.
  double frame_wall_ms = 0;
  std::vector<std::string> culled;
  uint32_t validation_messages = 0;
  std::map<std::string, io::ImageF> images;
  std::string image_list;                     // filled when list_images
  std::vector<vk::PipelineReport> pipelines;  // what the run built, with the driver's statistics
  std::optional<passes::FlipResult> flip;     // RunOptions::flip: the last frame's
};

RunResult run_headless(const RunOptions& options);

std::string format_table(const RunResult& result, const RunOptions& options);
void write_timings_json(const RunResult& result, const RunOptions& options,
                        const std::filesystem::path& path);

}  // namespace filterlab::runtime
