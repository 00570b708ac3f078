#include "headless/headless_runner.h"

#include "filters/chain.h"
#include "graph/executor.h"
#include "headless/capture.h"
#include "passes/scene_pass.h"
#include "passes/tonemap_pass.h"
#include "vk/resources.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace filterlab::headless {

namespace {

constexpr uint32_t kFramesInFlight = 2;

// Command pools and buffers per frame slot, paced by one timeline semaphore: frame k signals
// k + 1, and slot reuse waits for the frame that last used it.
class FrameRing {
public:
  explicit FrameRing(const vk::Context& ctx) : ctx_(ctx) {
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
      VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool.queueFamilyIndex = ctx.queue_family();
      VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pools_[i]));
      VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      alloc.commandPool = pools_[i];
      alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      alloc.commandBufferCount = 1;
      VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, &cmds_[i]));
      ctx.name(cmds_[i], VK_OBJECT_TYPE_COMMAND_BUFFER, "frame slot " + std::to_string(i));
    }
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VK_CHECK(vkCreateSemaphore(ctx.device(), &info, nullptr, &timeline_));
    ctx.name(timeline_, VK_OBJECT_TYPE_SEMAPHORE, "frame timeline");
  }
  ~FrameRing() {
    vkDeviceWaitIdle(ctx_.device());
    vkDestroySemaphore(ctx_.device(), timeline_, nullptr);
    for (VkCommandPool pool : pools_) vkDestroyCommandPool(ctx_.device(), pool, nullptr);
  }

  // Waits until frame `frame - kFramesInFlight` (the slot's previous user) has finished.
  VkCommandBuffer begin(uint64_t frame) {
    wait_for(frame >= kFramesInFlight ? frame - kFramesInFlight + 1 : 0);
    const uint32_t slot = frame % kFramesInFlight;
    VK_CHECK(vkResetCommandPool(ctx_.device(), pools_[slot], 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmds_[slot], &begin));
    return cmds_[slot];
  }

  void submit(uint64_t frame) {
    VkCommandBuffer cmd = cmds_[frame % kFramesInFlight];
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmd_info.commandBuffer = cmd;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = timeline_;
    signal.value = frame + 1;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmd_info;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    VK_CHECK(vkQueueSubmit2(ctx_.queue(), 1, &submit, VK_NULL_HANDLE));
  }

  void wait_for(uint64_t value) {
    if (value == 0) return;
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline_;
    wait.pValues = &value;
    VK_CHECK(vkWaitSemaphores(ctx_.device(), &wait, UINT64_MAX));
  }

private:
  const vk::Context& ctx_;
  VkCommandPool pools_[kFramesInFlight]{};
  VkCommandBuffer cmds_[kFramesInFlight]{};
  VkSemaphore timeline_ = VK_NULL_HANDLE;
};

std::string format_list(const graph::RenderGraph& graph, const graph::CompiledGraph& compiled) {
  std::ostringstream out;
  out << "images (name, format, size, written by):\n";
  for (const std::string& name : graph.image_names()) {
    auto index = compiled.find_image(name);
    out << "  " << name << "  " << vk::format_name(graph.image_desc(name).format);
    if (index) {
      const auto& image = compiled.images[*index];
      out << "  " << image.extent.width << "x" << image.extent.height << "  " << image.producer
          << (image.history ? "  (history)" : "");
    } else {
      out << "  (culled)";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace

RunResult run_headless(const RunOptions& options) {
  const std::vector<filters::FilterStep> steps = filters::parse_chain(options.chain);
  filters::check_chain(steps);

  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  vk::Context ctx(context_options);
  vk::ShaderSource shaders{options.shader_dir, options.glsl_dir};
  passes::PassEnv env{ctx, shaders, kFramesInFlight};

  // Declare: scene -> filters in chain order -> tonemap -> "final".
  graph::RenderGraph graph;
  passes::ScenePass scene(env, options.scene);
  scene.add_to(graph);
  std::string current = passes::ScenePass::kColor;
  std::vector<std::unique_ptr<filters::Filter>> filters;
  std::map<std::string, int> uses;
  for (const filters::FilterStep& step : steps) {
    filters.push_back(filters::make_filter(step, env));
    const int n = ++uses[step.filter];
    const std::string name = n == 1 ? step.filter : step.filter + "." + std::to_string(n);
    current = filters.back()->add_to(graph, current, name);
  }
  passes::TonemapPass tonemap(env);
  tonemap.exposure = options.exposure;
  tonemap.add_to(graph, current);

  std::vector<std::string> outputs = {passes::TonemapPass::kOutput};
  for (const Capture& c : options.captures) outputs.push_back(c.image);
  for (const std::string& name : options.read_images) outputs.push_back(name);
  for (const std::string& name : outputs)
    if (!graph.has_image(name)) {
      std::string names;
      for (const std::string& n : graph.image_names()) names += " " + n;
      throw UnknownImageError("no image named '" + name + "' (images:" + names + ")");
    }

  graph::Executor executor(ctx, kFramesInFlight, options.gpu_timing);
  executor.prepare(graph, outputs, options.size);

  RunResult result;
  result.device = ctx.report();
  result.culled = executor.compiled().culled;
  if (options.list_images) {
    result.image_list = format_list(graph, executor.compiled());
    return result;
  }

  std::vector<std::vector<double>> gpu(executor.compiled().passes.size());
  std::vector<std::vector<double>> cpu(gpu.size());
  auto collect = [&](uint64_t frame) {
    if (frame < options.warmup) {
      executor.timings(frame % kFramesInFlight);  // drain, but do not count warm-up frames
      return;
    }
    auto t = executor.timings(frame % kFramesInFlight);
    if (!t) return;
    for (size_t p = 0; p < t->size(); ++p) {
      gpu[p].push_back((*t)[p].gpu_ms);
      cpu[p].push_back((*t)[p].cpu_ms);
    }
  };

  const uint64_t total = uint64_t(options.warmup) + options.frames;
  {
    FrameRing ring(ctx);
    for (uint64_t frame = 0; frame < total; ++frame) {
      VkCommandBuffer cmd = ring.begin(frame);
      if (frame >= kFramesInFlight) collect(frame - kFramesInFlight);
      executor.record(cmd, frame % kFramesInFlight, frame);
      ring.submit(frame);
    }
    ring.wait_for(total);
    for (uint64_t frame = total >= kFramesInFlight ? total - kFramesInFlight : 0; frame < total; ++frame)
      collect(frame);
  }

  for (size_t p = 0; p < gpu.size(); ++p)
    result.passes.push_back({executor.compiled().passes[p].name, summarize(gpu[p]), summarize(cpu[p])});

  for (const Capture& c : options.captures) write_capture(executor.read_image(c.image), c.path, options.exposure);
  for (const std::string& name : options.read_images) result.images[name] = to_float_image(executor.read_image(name));
  if (options.dump_graph) {
    std::ofstream dot(*options.dump_graph);
    dot << executor.dot();
    if (!dot) throw io::IoError("cannot write " + options.dump_graph->string());
  }
  result.validation_messages = ctx.validation_messages();
  return result;
}

std::string format_table(const RunResult& result, const RunOptions& options) {
  std::ostringstream out;
  char line[256];
  out << result.device.name << " (" << result.device.driver_name << "), " << options.size.width << "x"
      << options.size.height << ", " << options.frames << " frames after " << options.warmup
      << " warm-up, chain '" << (options.chain.empty() ? "(none)" : options.chain) << "'\n";
  std::snprintf(line, sizeof line, "%-24s %10s %10s %10s %10s\n", "pass", "gpu med ms", "gpu p5", "gpu p95", "cpu med ms");
  out << line;
  for (const PassStats& p : result.passes) {
    std::snprintf(line, sizeof line, "%-24s %10.4f %10.4f %10.4f %10.4f\n", p.name.c_str(), p.gpu_ms.median,
                  p.gpu_ms.p5, p.gpu_ms.p95, p.cpu_ms.median);
    out << line;
  }
  if (!options.gpu_timing) out << "(GPU timing off: --no-gpu-timing)\n";
  return out.str();
}

void write_timings_json(const RunResult& result, const RunOptions& options, const std::filesystem::path& path) {
  using nlohmann::json;
  auto summary = [](const Summary& s) {
    return json{{"median", s.median}, {"p5", s.p5}, {"p95", s.p95}, {"min", s.min}, {"max", s.max}, {"count", s.count}};
  };
  const vk::DeviceReport& d = result.device;
  json j;
  j["device"] = {{"name", d.name},
                 {"driver", d.driver_name},
                 {"driver_info", d.driver_info},
                 {"type", d.device_type},
                 {"api_version", vk::api_version_string(d.api_version)},
                 {"timestamp_period_ns", d.timestamp_period_ns},
                 {"timestamp_valid_bits", d.timestamp_valid_bits}};
  j["size"] = {options.size.width, options.size.height};
  j["frames"] = options.frames;
  j["warmup"] = options.warmup;
  j["chain"] = options.chain;
  j["gpu_timing"] = options.gpu_timing;
  j["validation"] = options.validation;
  j["validation_messages"] = result.validation_messages;
  j["timing_method"] = "vkCmdWriteTimestamp2(ALL_COMMANDS) around each pass, 2 frames in flight, read without waiting";
  j["passes"] = json::array();
  for (const PassStats& p : result.passes)
    j["passes"].push_back({{"name", p.name}, {"gpu_ms", summary(p.gpu_ms)}, {"cpu_ms", summary(p.cpu_ms)}});
  j["culled"] = result.culled;
  const std::string text = j.dump(2) + "\n";
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw io::IoError("cannot write " + path.string());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw io::IoError("cannot write " + path.string() + ": " + ec.message());
}

}  // namespace filterlab::headless
