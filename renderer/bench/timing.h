#pragma once
// What `bench` and `tune` share: the inputs a family is timed on, and one method's frames timed on
// the GPU with rotated resident inputs and the clock watched (clock_watch.h).
#include "bench/clock_watch.h"
#include "filters/chain.h"
#include "passes/upload_pass.h"
#include "runtime/stats.h"
#include "scene/scene_content.h"
#include "vk/context.h"
#include "vk/pipeline_statistics.h"
#include "vk/pipelines.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::bench {

bool is_cpu_device(const vk::DeviceReport& d);
// Now, UTC, as the JSON bench and tune write says it ("2026-12-02T15:01:13Z").
std::string utc_now();

// The step `method` of `family` with the parameters it takes of `params` (the others dropped: a
// sweep's point names parameters some methods do not take) at `precision` (where the family has one).
filters::FilterStep make_step(const filters::Family& family, const filters::Method& method,
                              std::vector<filters::RawParam> params, const std::string& precision);

// A frame of the scene's sequence (its second: the camera orbits and the objects move, so its motion
// is not zero): the HDR colour (rounded to the precision), depth and motion that a method reading the
// scene's depth and motion is timed on.
struct SceneFrame {
  io::ImageF colour, depth, motion;
};

// What a family's methods are timed on at one size and precision: random images, the tonemapped
// scene (BenchSetup::on_scene) or a scene frame (a family that reads depth), `count` of them, each
// its own memory. fp16 inputs are rounded on the CPU first, so a reference sees what the GPU reads.
struct CaseInputs {
  std::vector<io::ImageF> images;
  std::optional<SceneFrame> scene;
};
CaseInputs case_inputs(const vk::Context& ctx, const vk::ShaderSource& shaders, const filters::Family& family,
                       VkExtent2D size, const std::string& precision, uint32_t count,
                       std::shared_ptr<const scene::SceneModel> model);

struct Timing {
  uint32_t frames = 100;     // timed frames
  uint32_t warmup = 20;      // at least this many warm-up frames...
  uint32_t warmup_ms = 500;  // ...and at least this long
  // ...and until the clock probe says the clock is at the top it has seen (at most kSettleLimitMs;
  // never on a CPU device).
  bool wait_for_clock = true;
  // A case whose every frame so far, warm-up included and scaled to the top clock by its probe, took
  // more than this is abandoned after `abandon_after` frames, or after its first where that took over
  // twice this (0: never): `tune` stops timing a method far behind the best at its key.
  double abandon_over_us = 0;
  uint32_t abandon_after = 3;
  bool read_output = true;  // input 0's output read back (bench's error), and a history's convergence
};

struct Timed {
  runtime::Summary gpu_us;
  runtime::Summary clock_probe_us;  // the timed frames' probes (clock_watch.h)
  double clock_correlation = 0;     // of the timed frames' times with their probes
  bool clock_settled = true;        // the warm-up ended with the clock at the top, not at the limit
  double warmup_ms = 0;
  // Abandoned (Timing::abandon_over_us): the fastest frame at the top clock, a bound from below.
  bool abandoned = false;
  double fastest_scaled_us = 0;
  std::vector<std::pair<std::string, double>> pass_median_us;
  io::ImageF output;                                        // of input 0
  std::vector<std::pair<uint32_t, io::ImageF>> converging;  // kConvergenceFrames: output of a fresh run
  std::vector<vk::PipelineReport> pipelines;
};

// The frames after which a method that reads its history is measured.
inline constexpr uint32_t kConvergenceFrames[] = {1, 4, 16, 64};

// The inputs' staging buffers (converted to the graph's format), made on a case's first use and
// shared by the later ones: tune times hundreds of cases on the same inputs, and converting and
// copying two 4K images took most of a case's time. By image and format: the images must outlive it.
using StagingCache =
    std::map<std::pair<const io::ImageF*, VkFormat>, std::shared_ptr<const passes::StagedImage>>;

// One graph per input, each with its own resident input and output images, recorded in turn: frame f
// runs instance f mod K, so consecutive frames never find their data in the caches. Throws
// filters::ChainError where the step cannot run here.
Timed time_filter(const vk::Context& ctx, const vk::ShaderSource& shaders,
                  const std::vector<io::ImageF>& inputs, VkFormat format, const filters::ResolvedStep& step,
                  const Timing& timing, ClockWatch& clock, const SceneFrame* scene = nullptr,
                  StagingCache* staging = nullptr);

}  // namespace filterlab::bench
