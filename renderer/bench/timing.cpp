#include "bench/timing.h"

#include "common/reference.h"
#include "config.h"
#include "filters/precision.h"
#include "graph/executor.h"
#include "passes/camera_feed.h"
#include "passes/scene_pass.h"
#include "passes/simple_pass.h"
#include "passes/upload_pass.h"
#include "runtime/frame_ring.h"
#include "runtime/pipeline_reports.h"
#include "runtime/sequence.h"
#include "vk/formats.h"
#include "vk/pipeline_library.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

namespace filterlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The clock probe's pass and its 1 x 1 image, in every instance's graph after the method's passes.
const std::string kClockProbe = "bench.clock";

// fp16 inputs are rounded on the CPU first, so the reference sees exactly what the GPU reads and the
// error columns measure the method, not the input's quantization.
io::ImageF input_image(VkExtent2D size, const std::string& precision, uint32_t seed) {
  io::ImageF image = common::random_image(size.width, size.height, 4, seed);
  if (precision == "fp16")
    for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
  return image;
}

// The tonemapped scene at `size` (RGB in [0, 1], alpha 1), rounded to the precision like the others.
io::ImageF scene_image(const vk::Context& ctx, const vk::ShaderSource& shaders, VkExtent2D size,
                       const std::string& precision, std::shared_ptr<const scene::SceneModel> model) {
  const passes::PassEnv env{ctx, shaders, runtime::kFramesInFlight};
  runtime::Sequence scene(env, {}, {}, size, {"final"}, std::move(model));
  scene.run();
  io::ImageF image = scene.image("final");
  if (precision == "fp16")
    for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
  return image;
}

SceneFrame scene_frame(const vk::Context& ctx, const vk::ShaderSource& shaders, VkExtent2D size,
                       const std::string& precision, std::shared_ptr<const scene::SceneModel> model) {
  const passes::PassEnv env{ctx, shaders, runtime::kFramesInFlight};
  runtime::Sequence scene(env, {}, {}, size,
                          {passes::ScenePass::kColor, passes::ScenePass::kDepth, passes::ScenePass::kMotion},
                          std::move(model));
  scene.run();
  scene.run();
  SceneFrame frame{scene.image(passes::ScenePass::kColor), scene.image(passes::ScenePass::kDepth),
                   scene.image(passes::ScenePass::kMotion)};
  if (precision == "fp16")
    for (float& v : frame.colour.pixels) v = vk::half_to_float(vk::float_to_half(v));
  return frame;
}

}  // namespace

namespace {
std::vector<filters::RawParam> taken_by(const filters::Family& family, const filters::Method& method,
                                        std::vector<filters::RawParam> params) {
  std::erase_if(params, [&](const filters::RawParam& p) {
    const filters::Param* param = family.param(p.first);
    return param && !param->takes(method.name);
  });
  return params;
}
}  // namespace

filters::FilterStep make_step(const filters::Family& family, const filters::Method& method,
                              std::vector<filters::RawParam> params, const std::string& precision) {
  params = taken_by(family, method, std::move(params));
  filters::FilterStep step;
  step.filter = family.name;
  step.method = method.name;
  step.params = std::move(params);
  if (family.param("precision")) step.set("precision", precision);
  step.text = filters::step_spec(step);
  return step;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

bool is_cpu_device(const vk::DeviceReport& d) {
  return d.device_type == "cpu";
}

CaseInputs case_inputs(const vk::Context& ctx, const vk::ShaderSource& shaders, const filters::Family& family,
                       VkExtent2D size, const std::string& precision, uint32_t count,
                       std::shared_ptr<const scene::SceneModel> model) {
  CaseInputs out;
  if (family.needs(filters::Input::Depth)) {
    out.scene = scene_frame(ctx, shaders, size, precision, model);
    out.images.assign(count, out.scene->colour);
  } else if (family.tools.bench.on_scene) {
    out.images.assign(count, scene_image(ctx, shaders, size, precision, model));  // same picture, own memory
  } else {
    for (uint32_t i = 0; i < count; ++i) out.images.push_back(input_image(size, precision, 1000 + i));
  }
  return out;
}

Timed time_filter(const vk::Context& ctx, const vk::ShaderSource& shaders,
                  const std::vector<io::ImageF>& inputs, VkFormat format, const filters::ResolvedStep& step,
                  const Timing& timing, ClockWatch& clock, const SceneFrame* scene, StagingCache* staging) {
  // A library that never watches files: the filter builds its pipelines in it, so they can be listed,
  // and the instances share them.
  vk::PipelineLibrary library(ctx, shaders, {runtime::kFramesInFlight, std::chrono::milliseconds(0), false});
  passes::PassEnv env{ctx, shaders, runtime::kFramesInFlight, &library};
  // The clock probe's pipeline is its own, not among the method's.
  const passes::PassEnv probe_env{ctx, shaders, runtime::kFramesInFlight};
  if (step.needs(filters::Input::Depth) && !scene)
    throw filters::ChainError(step.label() +
                              " reads the scene's depth, which bench's still inputs have none of");
  std::unique_ptr<filters::Filter> filter = filters::build_filter(step, env);
  // The inputs are still images: the camera stands (its frame counts, its history is invalid only
  // on an instance's first frame) and, for a method that reads motion, nothing moves.
  passes::CameraFeed camera;
  const io::ImageF no_motion{inputs.at(0).width, inputs.at(0).height, 2,
                             std::vector<float>(size_t(inputs.at(0).width) * inputs.at(0).height * 2, 0.0f)};
  struct Instance {
    graph::RenderGraph graph;
    std::unique_ptr<passes::UploadPass> upload, depth, motion;
    std::unique_ptr<graph::Executor> executor;
    std::string output;
  };
  const VkExtent2D size{inputs.at(0).width, inputs.at(0).height};
  // An image's staging buffer: the cache's where there is one, else its own.
  auto staged = [&](const io::ImageF& image, VkFormat image_format) {
    if (!staging) return std::make_shared<const passes::StagedImage>(env, image, image_format);
    std::shared_ptr<const passes::StagedImage>& slot = (*staging)[{&image, image_format}];
    if (!slot) slot = std::make_shared<const passes::StagedImage>(env, image, image_format);
    return slot;
  };
  auto make_instance = [&](const io::ImageF& input) {
    auto instance = std::make_unique<Instance>();
    instance->upload =
        std::make_unique<passes::UploadPass>(staged(input, format), passes::UploadPass::When::Once);
    instance->upload->add_to(instance->graph, "input");
    filters::FilterInputs filter_inputs{"input", {}, {}, &camera};
    // The scene's depth and motion in the scene's own sizes of texel (D32 as R32F, RG16F), so that the
    // method moves the bytes it moves in a chain.
    if (step.needs(filters::Input::Depth)) {
      instance->depth = std::make_unique<passes::UploadPass>(staged(scene->depth, VK_FORMAT_R32_SFLOAT),
                                                             passes::UploadPass::When::Once);
      instance->depth->add_to(instance->graph, "depth");
      filter_inputs.depth = "depth";
    }
    if (step.needs(filters::Input::Motion)) {
      instance->motion = std::make_unique<passes::UploadPass>(
          scene ? staged(scene->motion, VK_FORMAT_R16G16_SFLOAT)
                : std::make_shared<const passes::StagedImage>(env, no_motion, VK_FORMAT_R16G16_SFLOAT),
          passes::UploadPass::When::Once);
      instance->motion->add_to(instance->graph, "motion");
      filter_inputs.motion = "motion";
    }
    instance->output = filter->add_to(instance->graph, filter_inputs, step.family->name);
    // The clock probe, once the method's output is complete (it reads a texel of it).
    instance->graph.declare_image(kClockProbe, {VK_FORMAT_R32_SFLOAT, graph::SizeRule::absolute(1, 1)});
    passes::SimplePass(probe_env, kClockProbe, passes::ComputeShader{"bench/clock_probe.comp", {}})
        .sample(BINDING_SOURCE, instance->output, graph::Sampling::Nearest)
        .store(BINDING_DESTINATION, kClockProbe)
        .dispatch([](graph::PassContext&) {
          return std::array<uint32_t, 2>{1, 1};
        })
        .add_to(instance->graph);
    instance->executor = std::make_unique<graph::Executor>(ctx, runtime::kFramesInFlight, true);
    instance->executor->prepare(instance->graph, {instance->output, kClockProbe}, size);
    return instance;
  };
  std::vector<std::unique_ptr<Instance>> instances;
  for (const io::ImageF& input : inputs) instances.push_back(make_instance(input));

  const uint64_t count = instances.size();
  uint64_t timed_from = UINT64_MAX;  // the first measured frame, once warm-up is over
  std::vector<double> frame_us;
  std::map<std::string, std::vector<double>> pass_us;
  std::vector<std::string> pass_order;
  std::vector<double> probe_us;
  // Every frame's time scaled to the top clock seen (its probe against the fastest), warm-up
  // included: what Timing::abandon_over_us is held to.
  uint32_t collected = 0;
  double fastest_scaled_us = 0;
  clock.start_case();
  auto collect = [&](uint64_t frame) {
    auto timings = instances[frame % count]->executor->timings(frame % runtime::kFramesInFlight);
    if (!timings) return;
    const bool measured = frame >= timed_from;
    double sum = 0, probe = 0;
    for (const graph::PassTiming& t : *timings) {
      const double us = t.gpu_ms * 1000.0;
      if (t.name == kClockProbe) {  // every frame's, warm-up included: the clock watch's input
        clock.observe(us);
        probe = us;
        if (measured) probe_us.push_back(us);
        continue;
      }
      if (t.name.rfind("upload ", 0) == 0) continue;  // uploads are not the method's
      if (measured && !pass_us.count(t.name)) pass_order.push_back(t.name);
      if (t.idle) continue;  // recorded nothing this frame: no sample, rather than a 0 us one
      sum += us;
      if (measured) pass_us[t.name].push_back(us);
    }
    if (measured) frame_us.push_back(sum);
    const double scaled = probe > 0 && clock.fastest_us() > 0 ? sum * clock.fastest_us() / probe : sum;
    fastest_scaled_us = collected++ == 0 ? scaled : std::min(fastest_scaled_us, scaled);
  };
  bool abandoned = false;
  // A CPU device has no clock to wait for, and a warm-up of no time (a reference's single frame,
  // the tests) asks for none.
  const bool wait_for_clock = timing.wait_for_clock && !is_cpu_device(ctx.report());
  bool clock_settled = true;
  double warmup_ms = 0;
  {
    runtime::FrameRing ring(ctx);
    const Clock::time_point start = Clock::now();
    const auto warmup_time = std::chrono::milliseconds(timing.warmup_ms);
    const auto settle_limit = std::chrono::duration<double, std::milli>(kSettleLimitMs);
    uint64_t frame = 0;
    for (;; ++frame) {
      if (timed_from == UINT64_MAX && frame >= timing.warmup && Clock::now() - start >= warmup_time) {
        const bool limit = Clock::now() - start >= settle_limit;
        if (!wait_for_clock || clock.settled() || limit) {
          timed_from = frame;
          clock_settled = !wait_for_clock || clock.settled();
          warmup_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        }
      }
      if (timed_from != UINT64_MAX && frame >= timed_from + timing.frames) break;
      // Over the bound after abandon_after frames; or, already after the first, over twice the bound,
      // where no first use of the caches or clock step explains it.
      const double bound = timing.abandon_over_us * (collected >= timing.abandon_after ? 1.0 : 2.0);
      if (timing.abandon_over_us > 0 && collected >= 1 && fastest_scaled_us > bound) {
        abandoned = true;
        break;
      }
      VkCommandBuffer cmd = ring.begin(frame);
      if (frame >= runtime::kFramesInFlight) collect(frame - runtime::kFramesInFlight);
      camera.frame = frame / count;  // the instance's own frame count
      camera.history_invalid = frame < count;
      instances[frame % count]->executor->record(cmd, frame % runtime::kFramesInFlight, frame);
      ring.submit(frame);
    }
    ring.wait_for(frame);
    for (uint64_t f = frame >= runtime::kFramesInFlight ? frame - runtime::kFramesInFlight : 0; f < frame;
         ++f)
      collect(f);
  }
  Timed timed;
  timed.gpu_us = runtime::summarize(frame_us);
  timed.clock_probe_us = runtime::summarize(probe_us);
  timed.clock_correlation = clock_correlation(frame_us, probe_us);
  clock.end_case(timed.clock_probe_us.median);
  timed.clock_settled = clock_settled;
  timed.warmup_ms = warmup_ms;
  timed.abandoned = abandoned;
  timed.fastest_scaled_us = fastest_scaled_us;
  for (const std::string& name : pass_order)
    timed.pass_median_us.emplace_back(name, runtime::summarize(pass_us[name]).median);
  timed.pipelines = runtime::pipeline_reports(library);
  if (!timing.read_output) return timed;
  timed.output = graph::to_float_image(instances[0]->executor->read_image(instances[0]->output));
  if (step.needs(filters::Input::History)) {
    // A fresh run of the first input, a frame at a time, read after each of kConvergenceFrames.
    instances.clear();
    std::unique_ptr<Instance> fresh = make_instance(inputs.at(0));
    runtime::FrameRing ring(ctx);
    const uint64_t last = kConvergenceFrames[std::size(kConvergenceFrames) - 1];
    for (uint64_t frame = 0; frame < last; ++frame) {
      camera.frame = frame;
      camera.history_invalid = frame == 0;
      VkCommandBuffer cmd = ring.begin(frame);
      fresh->executor->record(cmd, frame % runtime::kFramesInFlight, frame);
      ring.submit(frame);
      if (std::find(std::begin(kConvergenceFrames), std::end(kConvergenceFrames), frame + 1) !=
          std::end(kConvergenceFrames)) {
        ring.wait_for(frame + 1);
        timed.converging.emplace_back(uint32_t(frame + 1),
                                      graph::to_float_image(fresh->executor->read_image(fresh->output)));
      }
    }
    ring.wait_for(last);
  }
  return timed;
}

}  // namespace filterlab::bench
