#include "runtime/headless_runner.h"

#include "filters/chain.h"
#include "graph/executor.h"
#include "passes/flip_pass.h"
#include "passes/scene_pass.h"
#include "passes/tonemap_pass.h"
#include "runtime/capture.h"
#include "runtime/frame_graph.h"
#include "runtime/frame_ring.h"
#include "runtime/pipeline_reports.h"
#include "vk/resources.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace filterlab::runtime {

namespace {

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

// The previous pass, when pass `p` reads an image it wrote.
std::string reads_previous_output(const graph::CompiledGraph& compiled, size_t p) {
  if (p == 0) return {};
  const graph::CompiledPass &pass = compiled.passes[p], &previous = compiled.passes[p - 1];
  for (const graph::CompiledAccess& read : pass.accesses)
    for (const graph::CompiledAccess& write : previous.accesses)
      if (read.image == write.image && !read.history && graph::usage_info(read.usage).reads &&
          graph::usage_info(write.usage).writes)
        return previous.name;
  return {};
}

}  // namespace

RunResult run_headless(const RunOptions& given) {
  RunOptions options = given;
  const std::vector<filters::FilterStep> steps = filters::parse_chain(options.chain);
  filters::check_chain(steps, options.size.width, options.size.height);
  load_content(options);  // bad input: before the device

  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  context_options.compute_derivatives = true;  // comp.quad_derivative methods, where the device has them
  context_options.pipeline_statistics = true;  // registers and spills beside the timings
  vk::Context ctx(context_options);
  // The run's images are its size: past the device's limit, bad input before any GPU work.
  const uint32_t limit = ctx.report().max_image_dimension_2d;
  if (options.size.width > limit || options.size.height > limit)
    throw filters::ChainError("the run's size " + std::to_string(options.size.width) + "x" +
                              std::to_string(options.size.height) + " is past what " + ctx.report().name +
                              " takes, " + std::to_string(limit) + " pixels a side");
  vk::ShaderSource shaders{options.shader_dir, options.glsl_dir};
  // A library that never watches files, so that the run can list its pipelines.
  vk::PipelineLibrary library(ctx, shaders, {kFramesInFlight, std::chrono::milliseconds(0), false});
  passes::PassEnv env{ctx, shaders, kFramesInFlight, &library};

  graph::RenderGraph graph;
  const ChainGraph chain = build_chain_graph(graph, env, options, steps);
  std::vector<std::string> read_back;
  for (const Capture& c : options.captures) read_back.push_back(c.image);
  read_back.insert(read_back.end(), options.read_images.begin(), options.read_images.end());
  std::vector<std::string> outputs = {passes::TonemapPass::kOutput};
  std::unique_ptr<passes::FlipPass> flip;
  if (options.flip) {
    const FlipRequest& f = *options.flip;
    check_images_exist(graph, {f.reference, f.test});
    flip = std::make_unique<passes::FlipPass>(env, f.viewing.ppd);
    const bool displayed = graph.image_desc(f.reference).format == VK_FORMAT_R8G8B8A8_UNORM;
    if (displayed || f.ldr)
      flip->add_ldr(graph, f.reference, f.test, kFlipImage,
                    displayed ? common::FlipInput::Srgb : common::FlipInput::Linear);
    else flip->add_hdr(graph, f.reference, f.test, kFlipImage, f.viewing.exposures);
    outputs.push_back(kFlipImage);
  }
  outputs.insert(outputs.end(), read_back.begin(), read_back.end());
  check_images_exist(graph, outputs);
  check_images_capturable(graph, read_back);

  graph::Executor executor(ctx, kFramesInFlight, options.gpu_timing);
  executor.prepare(graph, outputs, options.size);

  RunResult result;
  result.device = ctx.report();
  result.culled = executor.compiled().culled;
  if (options.list_images) {
    result.image_list = format_list(graph, executor.compiled());
    return result;
  }

  std::vector<PassSamples> samples(executor.compiled().passes.size());
  auto collect = [&](uint64_t frame) {
    if (frame < options.warmup) {
      executor.timings(frame % kFramesInFlight);  // drain, but do not count warm-up frames
      return;
    }
    auto t = executor.timings(frame % kFramesInFlight);
    if (!t) return;
    for (size_t p = 0; p < t->size(); ++p) samples[p].add((*t)[p].idle, (*t)[p].gpu_ms, (*t)[p].cpu_ms);
  };

  const uint64_t total = uint64_t(options.warmup) + options.frames;
  {
    FrameRing ring(ctx);
    using Clock = std::chrono::steady_clock;
    Clock::time_point timed_start = Clock::now();
    for (uint64_t frame = 0; frame < total; ++frame) {
      if (frame == options.warmup && frame > 0) {
        ring.wait_for(frame);  // the warm-up frames are done: the timed ones start from here
        timed_start = Clock::now();
      }
      VkCommandBuffer cmd = ring.begin(frame);
      if (frame >= kFramesInFlight) collect(frame - kFramesInFlight);
      executor.record(cmd, frame % kFramesInFlight, frame);
      ring.submit(frame);
    }
    ring.wait_for(total);
    result.frame_wall_ms =
        std::chrono::duration<double, std::milli>(Clock::now() - timed_start).count() / options.frames;
    for (uint64_t frame = total >= kFramesInFlight ? total - kFramesInFlight : 0; frame < total; ++frame)
      collect(frame);
  }

  for (size_t p = 0; p < samples.size(); ++p)
    result.passes.push_back({executor.compiled().passes[p].name, summarize(samples[p].gpu_ms),
                             summarize(samples[p].cpu_ms), samples[p].idle_frames,
                             reads_previous_output(executor.compiled(), p)});

  if (flip) result.flip = flip->result((total - 1) % kFramesInFlight);
  for (const Capture& c : options.captures)
    write_capture(executor.read_image(c.image), c.path, options.display);
  for (const std::string& name : options.read_images)
    result.images[name] = to_float_image(executor.read_image(name));
  if (options.dump_graph) {
    std::ofstream dot(*options.dump_graph);
    dot << executor.dot();
    if (!dot) throw io::IoError("cannot write " + options.dump_graph->string());
  }
  result.pipelines = pipeline_reports(library);
  result.validation_messages = ctx.validation_messages();
  return result;
}

std::string format_table(const RunResult& result, const RunOptions& options) {
  std::ostringstream out;
  char line[256];
  out << result.device.name << " (" << result.device.driver_name << "), " << options.size.width << "x"
      << options.size.height << ", " << options.frames << " frames after " << options.warmup
      << " warm-up, chain '" << (options.chain.empty() ? "(none)" : options.chain) << "'\n";
  std::snprintf(line, sizeof line, "%-24s %10s %10s %10s %10s\n", "pass", "gpu med ms", "gpu p5", "gpu p95",
                "cpu med ms");
  out << line;
  std::vector<std::string> never_recorded;  // idle in every timed frame: named once, below
  for (const PassStats& p : result.passes) {
    if (p.idle_frames > 0 && p.gpu_ms.count == 0) {
      never_recorded.push_back(p.name);
      continue;
    }
    std::snprintf(line, sizeof line, "%-24s %10.4f %10.4f %10.4f %10.4f", p.name.c_str(), p.gpu_ms.median,
                  p.gpu_ms.p5, p.gpu_ms.p95, p.cpu_ms.median);
    out << line;
    if (p.idle_frames)
      out << "  (idle in " << p.idle_frames << " of " << p.idle_frames + p.gpu_ms.count << " frames)";
    if (!p.reads_from_previous.empty())
      out << "  (L2-assisted: reads what " << p.reads_from_previous << " just wrote)";
    out << "\n";
  }
  double sum = 0;
  for (const PassStats& p : result.passes) sum += p.gpu_ms.median;
  std::snprintf(line, sizeof line, "%-24s %10.4f   (frame wall time %.4f ms)\n", "sum of passes", sum,
                result.frame_wall_ms);
  out << line;
  if (!never_recorded.empty()) {
    out << "idle in every timed frame (nothing recorded): " << never_recorded.size() << " passes, "
        << never_recorded.front();
    if (never_recorded.size() > 1) out << " ... " << never_recorded.back();
    out << "\n";
  }
  if (!options.gpu_timing) out << "(GPU timing off: --no-gpu-timing)\n";
  if (result.flip) {
    const passes::FlipResult& f = *result.flip;
    std::snprintf(line, sizeof line,
                  "%s of %s against %s, the last frame: mean %.6f, max %.6f (%.2f px/degree", f.kind(),
                  options.flip->test.c_str(), options.flip->reference.c_str(), f.mean, f.max, f.ppd);
    out << line;
    if (f.exposures.count) {
      std::snprintf(line, sizeof line, ", %u exposures from %+.3f to %+.3f stops", f.exposures.count,
                    f.exposures.start, f.exposures.stop);
      out << line;
    }
    out << ")\n";
  }
  return out.str();
}

void write_timings_json(const RunResult& result, const RunOptions& options,
                        const std::filesystem::path& path) {
  using nlohmann::json;
  auto summary = [](const Summary& s) {
    return json{{"median", s.median},
                {"p5", s.p5},
                {"p95", s.p95},
                {"min", s.min},
                {"max", s.max},
                {"count", s.count},
                {"off_level_share", s.off_level_share()}};
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
  j["content"] = options.image         ? options.image->string()
                 : options.scene_model ? options.scene_model->name()
                                       : std::string("built-in scene");
  j["gpu_timing"] = options.gpu_timing;
  j["validation"] = options.validation;
  j["validation_messages"] = result.validation_messages;
  j["timing_method"] =
      "vkCmdWriteTimestamp2(ALL_COMMANDS) around each pass, 2 frames in flight, read without waiting; a pass "
      "that reads what the pass before it just wrote names it in reads_from_previous (its input may be in "
      "the "
      "L2 cache: not a memory floor, which `bench` measures on rotated inputs); "
      "on a CPU device (lavapipe) each stamp is followed by a full memory barrier, so that it is written "
      "where it stands";
  j["passes"] = json::array();
  for (const PassStats& p : result.passes)
    j["passes"].push_back(
        {{"name", p.name},
         {"gpu_ms", summary(p.gpu_ms)},
         {"cpu_ms", summary(p.cpu_ms)},
         {"idle_frames", p.idle_frames},
         {"reads_from_previous",
          p.reads_from_previous.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.reads_from_previous)}});
  j["frame_wall_ms"] = result.frame_wall_ms;
  if (result.flip && options.flip) {
    const passes::FlipResult& f = *result.flip;
    j["flip"] = {{"reference", options.flip->reference},
                 {"test", options.flip->test},
                 {"kind", f.hdr ? "HDR" : "LDR"},
                 {"mean", f.mean},
                 {"max", f.max},
                 {"ppd", f.ppd},
                 {"frame", f.frame}};
    j["flip"]["exposures"] = f.hdr ? json{{"start", f.exposures.start},
                                          {"stop", f.exposures.stop},
                                          {"count", f.exposures.count},
                                          {"all_recorded", f.complete}}
                                   : json(nullptr);
  }
  j["culled"] = result.culled;
  j["pipelines"] = pipelines_json(result.pipelines);
  io::write_file_atomically(path, j.dump(2) + "\n");
}

}  // namespace filterlab::runtime
