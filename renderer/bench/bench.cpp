#include "bench/bench.h"
#include "bench/clock_watch.h"
#include "bench/timing.h"
#include "config.h"

#include "filters/auto_method.h"

#include "common/metrics.h"
#include "common/reference.h"
#include "filters/precision.h"
#include "graph/executor.h"
#include "io/image_files.h"
#include "passes/camera_feed.h"
#include "passes/scene_pass.h"
#include "passes/simple_pass.h"
#include "passes/upload_pass.h"
#include "runtime/capture.h"
#include "runtime/frame_ring.h"
#include "runtime/pipeline_reports.h"
#include "runtime/sequence.h"
#include "scene/gltf_scene.h"
#include "vk/formats.h"
#include "vk/pipeline_library.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "git_revision.h"  // generated at build time by cmake/GitRevision.cmake

namespace filterlab::bench {

const char* git_revision() {
  return FILTERLAB_GIT_REVISION;
}

namespace {

using Clock = std::chrono::steady_clock;

io::ImageF to_float(const common::ImageD& image) {
  io::ImageF out{image.width, image.height, image.channels, {}};
  out.pixels.assign(image.pixels.begin(), image.pixels.end());
  return out;
}

io::ImageF centre_crop(const io::ImageF& image, uint32_t max_side) {
  const uint32_t w = std::min(image.width, max_side), h = std::min(image.height, max_side);
  const uint32_t x0 = (image.width - w) / 2, y0 = (image.height - h) / 2;
  io::ImageF out{w, h, image.channels, {}};
  out.pixels.reserve(size_t(w) * h * image.channels);
  for (uint32_t y = 0; y < h; ++y) {
    const float* row = &image.pixels[(size_t(y0 + y) * image.width + x0) * image.channels];
    out.pixels.insert(out.pixels.end(), row, row + size_t(w) * image.channels);
  }
  return out;
}

CaseError measure_error(const io::ImageF& output, const common::ImageD& reference, uint32_t ssim_crop) {
  const common::ErrorStats stats = common::compare(output, reference);
  CaseError e{stats.max_abs, stats.mse, 0};
  const io::ImageF a = centre_crop(output, ssim_crop), b = centre_crop(to_float(reference), ssim_crop);
  if (a.width >= 11 && a.height >= 11) {
    for (uint32_t c = 0; c < 4; ++c) e.ssim += common::ssim(a, b, c) / 4.0;
  } else {
    e.ssim = std::nan("");  // SSIM's 11x11 window does not fit
  }
  return e;
}

io::ImageF top_left(const io::ImageF& image, uint32_t side) {
  const uint32_t w = std::min(image.width, side), h = std::min(image.height, side);
  io::ImageF out{w, h, image.channels, {}};
  for (uint32_t y = 0; y < h; ++y) {
    const float* row = &image.pixels[size_t(y) * image.width * image.channels];
    out.pixels.insert(out.pixels.end(), row, row + size_t(w) * image.channels);
  }
  return out;
}

// A case's parameters in a file name ("a=2:kernel=box:precision=fp16" -> "a-2_kernel-box"); the
// precision is named on its own.
std::string file_name_part(const std::string& params) {
  std::string out;
  std::istringstream items(params);
  for (std::string item; std::getline(items, item, ':');) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "precision") continue;
    out += (out.empty() ? "" : "_") + key + "-" + value;
  }
  return out;
}

// The corner holds two image borders, where clamp-to-edge mistakes would show.
void write_captures(CaseResult& c, const io::ImageF& output, const common::ImageD& reference,
                    const std::filesystem::path& dir) {
  constexpr uint32_t kSide = 128;
  constexpr double kGain = 256;  // an error of 1/256 of the range is white
  const std::string params = file_name_part(c.params);
  const std::string stem = c.method + (params.empty() ? "" : "_" + params) + "_" +
                           std::to_string(c.size.width) + "x" + std::to_string(c.size.height) + "_" +
                           c.precision;
  const io::ImageF shown = top_left(output, kSide), expected = top_left(to_float(reference), kSide);
  io::ImageF opaque = shown;  // the random inputs have random alpha: show colour only
  for (size_t i = 3; i < opaque.pixels.size(); i += 4) opaque.pixels[i] = 1.0f;
  std::filesystem::create_directories(dir);  // checked writable by the command line; made on first use
  c.capture = dir / (stem + ".png");
  c.diff = dir / (stem + "_diff.png");
  io::write_image_file(*c.capture, opaque, io::Encoding::Raw);
  io::write_png(*c.diff, common::difference_heatmap(shown, expected, kGain));
}

std::string size_text(VkExtent2D s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

}  // namespace

namespace {

// Every point of the sweeps' product, each with the fixed parameters. A sweep of the size
// parameter (kSizeSweep) is over the family's, and none where the family has none.
std::vector<std::vector<filters::RawParam>> sweep_points(const BenchOptions& options,
                                                         const filters::Family& family) {
  std::vector<std::vector<filters::RawParam>> points = {options.params};
  for (const Sweep& sweep : options.sweeps) {
    const filters::Param* size = family.size_param();
    if (sweep.param == kSizeSweep && !size) continue;
    const std::string& name = sweep.param == kSizeSweep ? size->name : sweep.param;
    std::vector<std::vector<filters::RawParam>> next;
    for (const auto& point : points)
      for (const std::string& value : sweep.values) {
        next.push_back(point);
        next.back().emplace_back(name, value);
      }
    points = std::move(next);
  }
  return points;
}

// A sweep point's parameters that the method takes: a sweep of one method's parameter (a sample
// count) times the others once.
// Every parameter of the step's family that its method takes, with its value.
std::vector<std::pair<std::string, filters::ParamValues::Value>> schema_values(
    const filters::ResolvedStep& step) {
  std::vector<std::pair<std::string, filters::ParamValues::Value>> out;
  for (const filters::Param& p : step.family->params)
    if (p.takes(step.method->name)) out.emplace_back(p.name, step.params.values().at(p.name));
  return out;
}

// The case's fields from its step.
void describe(CaseResult& c, const filters::ResolvedStep& step) {
  c.filter = step.family->name;
  c.method = step.method->name;
  c.stage = filters::stage_name(step.method->stage);
  c.exact = step.method->exact;
  c.params = step.params.spec();
  c.values = schema_values(step);
}

}  // namespace

namespace {

// Where one point's cases (from `first` on) hold auto's and the exact methods auto could pick: which
// method auto ran, from which table, and how far its time is from the fastest of them.
void mark_auto(std::vector<CaseResult>& cases, size_t first, const filters::Family& family,
               const std::vector<filters::RawParam>& point, const std::string& precision,
               const vk::Context& ctx) {
  const auto auto_case = std::find_if(cases.begin() + ptrdiff_t(first), cases.end(),
                                      [](const CaseResult& c) { return c.method == "auto"; });
  if (auto_case == cases.end()) return;
  const filters::ResolvedStep step =
      filters::resolve(make_step(family, *family.find("auto"), point, precision));
  const filters::AutoChoice choice = filters::choose_auto(family, step.params, ctx);
  AutoMark mark{choice.method->name, choice.table.said(), "", 0, 0};
  for (size_t i = first; i < cases.size(); ++i) {
    const CaseResult& c = cases[i];
    if (c.method == "auto" || !c.exact || c.filter != family.name) continue;
    if (mark.fastest.empty() || c.gpu_us.median < mark.fastest_us) {
      mark.fastest = c.method;
      mark.fastest_us = c.gpu_us.median;
    }
  }
  if (mark.fastest.empty()) return;  // auto alone: nothing to compare it with
  mark.ratio = mark.fastest_us > 0 ? auto_case->gpu_us.median / mark.fastest_us : 0;
  auto_case->auto_mark = mark;
}

}  // namespace

BenchResult run_bench(const BenchOptions& options, const std::function<void(const Progress&)>& progress) {
  // Every step is checked against its family's schema before any GPU work: bad input is exit 2.
  const filters::Family* family = options.filter.empty() ? &filters::registry().default_family()
                                                         : &filters::registry().family(options.filter);
  const filters::Family& floor_family = filters::registry().memory_floor();
  // Benchmarking the floor's own family: its methods are the floor cases, timed once.
  const bool family_is_floor = family == &floor_family;
  std::vector<const filters::Method*> methods;
  if (options.methods.empty())
    for (const filters::Method& m : family->methods) methods.push_back(&m);
  for (const std::string& name : options.methods) methods.push_back(&family->method(name));
  const std::vector<std::vector<filters::RawParam>> points = sweep_points(options, *family);
  for (const std::string& precision : options.precisions)
    for (const filters::Method* m : methods)
      for (const auto& point : points) filters::resolve(make_step(*family, *m, point, precision));

  // A glTF scene for the families measured on the scene: read (and refused, exit 2) before the device.
  std::shared_ptr<const scene::SceneModel> scene_model;
  if (options.scene) scene_model = scene::load_gltf(*options.scene, options.scene_camera).scene;
  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  context_options.compute_derivatives = true;
  context_options.pipeline_statistics =
      true;  // registers and spills beside the times, where the driver tells
  vk::Context ctx(context_options);
  vk::ShaderSource shaders{options.shader_dir, options.glsl_dir};
  // A CPU device (lavapipe) takes about an hour over the default cases at 4K: say so before it starts.
  const auto large = std::find_if(options.sizes.begin(), options.sizes.end(), [](VkExtent2D e) {
    return uint64_t(e.width) * e.height >= 1920ull * 1080ull;
  });
  if (ctx.report().device_type == "cpu" && large != options.sizes.end())
    std::fprintf(stderr,
                 "filterlab: note: %s is a CPU device: its times are CPU times, and %s takes minutes a case "
                 "here; --sizes 640x360 runs the same cases in seconds\n",
                 ctx.report().name.c_str(), size_text(*large).c_str());

  BenchResult result;
  ClockWatch clock;  // over the whole run: its fastest probe is the top clock
  Timing timing;
  timing.frames = options.frames;
  timing.warmup = options.warmup;
  timing.warmup_ms = options.warmup_ms;
  timing.wait_for_clock = options.warmup_ms > 0;  // a warm-up of no time (the tests) asks for none
  for (const Sweep& sweep : options.sweeps)
    if (sweep.param != kSizeSweep) result.sweeps.push_back(sweep);
    else if (const filters::Param* size = family->size_param())
      result.sweeps.push_back({size->name, sweep.values});
  result.device = ctx.report();
  const size_t total = options.sizes.size() * options.precisions.size() *
                       (floor_family.methods.size() + (family_is_floor ? 0 : points.size() * methods.size()));
  size_t index = 0;
  const Clock::time_point start = Clock::now();
  auto report = [&](const std::string& label) {
    ++index;
    if (!progress) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = index > 1 ? elapsed / double(index - 1) * double(total - index + 1) : 0.0;
    progress({index, total, label, elapsed, left});
  };

  for (const VkExtent2D size : options.sizes)
    for (const std::string& precision : options.precisions) {
      const VkFormat format = filters::precision_format(precision);
      // The floor's family times its copies on random images; another family on its own inputs.
      CaseInputs case_in = case_inputs(ctx, shaders, family_is_floor ? floor_family : *family, size,
                                       precision, options.inputs, scene_model);
      const std::vector<io::ImageF>& inputs = case_in.images;
      std::optional<SceneFrame>& scene = case_in.scene;
      StagingCache staging;  // converted and staged once for every case on these inputs
      const std::string suffix = " " + size_text(size) + " " + precision;

      // One case for each step; `floor` divides the ratios once the copies are measured.
      auto run_case = [&](const filters::ResolvedStep& step, std::optional<common::ImageD>& reference) {
        report(step.label() + " " + step.params.spec() + suffix);
        Timed timed;
        std::vector<double> repeat_medians;
        runtime::Summary least_steady;
        double least_steady_correlation = 0;
        try {
          timed = time_filter(ctx, shaders, inputs, format, step, timing, clock, scene ? &*scene : nullptr,
                              &staging);
          repeat_medians.push_back(timed.gpu_us.median);
          least_steady = timed.gpu_us;
          least_steady_correlation = timed.clock_correlation;
          for (uint32_t r = 1; r < options.repeats; ++r) {
            const Timed again = time_filter(ctx, shaders, inputs, format, step, timing, clock,
                                            scene ? &*scene : nullptr, &staging);
            repeat_medians.push_back(again.gpu_us.median);
            if (again.gpu_us.off_level_share() > least_steady.off_level_share()) {
              least_steady = again.gpu_us;
              least_steady_correlation = again.clock_correlation;
            }
            timed.clock_settled = timed.clock_settled && again.clock_settled;
          }
        } catch (const filters::ChainError& e) {  // unavailable here, or a parameter beyond its limit
          result.skipped.push_back(
              {step.method->name, step.params.spec(), schema_values(step), size, precision, e.what()});
          return;
        }
        CaseResult c;
        describe(c, step);
        c.precision = precision;
        c.size = size;
        c.gpu_us = timed.gpu_us;
        c.repeat_medians_us = repeat_medians;
        c.stability = stability(repeat_medians);
        c.least_steady_run = least_steady;
        c.least_steady_clock_correlation = least_steady_correlation;
        c.pass_median_us = timed.pass_median_us;
        c.clock_probe_us = timed.clock_probe_us.median;
        c.clock_settled = timed.clock_settled;
        c.warmup_ms = timed.warmup_ms;
        c.pipelines = timed.pipelines;
        c.cost = step.method->cost ? step.method->cost(step.params) : filters::MethodCost{};
        // A family whose definition reads the scene's motion (a history reprojected from frame to
        // frame) has a CPU reference of a still image's first frame only: bench's output, after
        // many frames, is not of that definition, so it shows no error rather than one that is not
        // an error (the temporal resolve read 33.5 for every method on the H200; issue #54).
        const bool reference_of_this_output = !step.family->needs(filters::Input::Motion);
        if (options.measure_error && reference_of_this_output) {
          if (!reference && !step.family->tools.bench.reference_method.empty()) {
            // The step's given parameters that the reference method takes, on the same input.
            const filters::FilterStep exact =
                make_step(*step.family, *step.family->find(step.family->tools.bench.reference_method),
                          step.params.given_pairs(), precision);
            Timing once;
            once.frames = 1;
            once.warmup = 0;
            once.warmup_ms = 0;
            once.wait_for_clock = false;
            ClockWatch reference_clock;  // its one frame's probe does not set the run's bar
            const io::ImageF out = time_filter(ctx, shaders, {inputs[0]}, format, filters::resolve(exact),
                                               once, reference_clock, scene ? &*scene : nullptr)
                                       .output;
            reference =
                common::ImageD{out.width, out.height, out.channels, {out.pixels.begin(), out.pixels.end()}};
          }
          if (!reference) reference = step.family->reference(inputs[0], step.params);
          c.error = measure_error(timed.output, *reference, options.ssim_crop);
          for (const auto& [frames, output] : timed.converging)
            c.error_after_frames.emplace_back(frames, measure_error(output, *reference, options.ssim_crop));
          if (options.captures_dir) write_captures(c, timed.output, *reference, *options.captures_dir);
        }
        result.cases.push_back(c);
      };

      // The memory floor: every copy method, on the same inputs, in the same run; the fastest.
      const size_t first = result.cases.size();
      for (const filters::Method& m : floor_family.methods) {
        std::optional<common::ImageD> identity;
        run_case(filters::resolve(make_step(floor_family, m, {}, precision)), identity);
      }
      // The floor is the fastest compute copy; the fragment copy is timed beside it, what a fragment
      // pass costs on this device (its ratio says whether fragments shade on few units).
      double floor = 0;
      for (size_t i = first; i < result.cases.size(); ++i)
        if (result.cases[i].stage == "compute" && (floor == 0 || result.cases[i].gpu_us.median < floor))
          floor = result.cases[i].gpu_us.median;

      const size_t timed_from = result.cases.size();
      std::set<std::string> done;  // method and parameters: a point may repeat a method's case
      for (const auto& point : points) {
        if (family_is_floor) break;
        std::optional<common::ImageD> reference;  // per point, shared by the methods
        const size_t point_first = result.cases.size();
        for (const filters::Method* method : methods) {
          const filters::FilterStep step = make_step(*family, *method, point, precision);
          if (done.insert(step.text).second) run_case(filters::resolve(step), reference);
        }
        mark_auto(result.cases, point_first, *family, point, precision, ctx);
      }
      for (size_t i = first; i < result.cases.size(); ++i) {
        CaseResult& c = result.cases[i];
        c.copy_ratio = floor > 0 ? c.gpu_us.median / floor : 0;
        c.floor = i < timed_from && c.gpu_us.median == floor;
      }
    }
  // Against the fastest probe of the whole run: a case timed before the clock reached its top shows.
  for (CaseResult& c : result.cases) c.clock_share = clock.clock_share(c.clock_probe_us);
  result.clock_probe_us = clock.fastest_us();
  for (CaseResult& c : result.cases)
    c.gpixels_per_s =
        c.gpu_us.median > 0 ? double(c.size.width) * c.size.height / (c.gpu_us.median * 1e3) : 0;
  result.validation_messages = ctx.validation_messages();
  return result;
}

namespace {

// Registers per thread: the most of the case's pipelines, where the driver reports them.
std::optional<double> registers(const CaseResult& c) {
  std::optional<double> most;
  for (const PipelineReport& p : c.pipelines)
    for (const vk::PipelineStatistic& s : p.statistics)
      if (vk::counts_registers(s.name)) most = std::max(most.value_or(0.0), s.value);
  return most;
}

// A schema parameter's value as JSON: a number, a choice's text, a region's text, or null (a region
// not given).
nlohmann::json value_json(const filters::ParamValues::Value& value) {
  if (const int* i = std::get_if<int>(&value)) return *i;
  if (const double* d = std::get_if<double>(&value)) return *d;
  if (const std::string* s = std::get_if<std::string>(&value)) return *s;
  if (const common::Roi* roi = std::get_if<common::Roi>(&value)) return common::roi_text(*roi);
  return nullptr;
}

}  // namespace

void write_bench_json(const BenchResult& result, const BenchOptions& options,
                      const std::filesystem::path& path) {
  using nlohmann::json;
  const vk::DeviceReport& d = result.device;
  json j;
  // 2: one key per schema parameter the method takes (1 had radius, sigma and kernel on every case).
  j["schema"] = "filterlab.bench/2";
  j["tool"] = "filterlab";
  j["git_revision"] = git_revision();
  j["date"] = utc_now();
  j["device"] = {{"name", d.name},
                 {"type", d.device_type},
                 {"driver", d.driver_name},
                 {"driver_info", d.driver_info},
                 {"api_version", vk::api_version_string(d.api_version)},
                 {"timestamp_period_ns", d.timestamp_period_ns},
                 {"timestamp_valid_bits", d.timestamp_valid_bits},
                 {"max_compute_shared_memory", d.max_compute_shared_memory},
                 {"shader_cores", d.shader_cores},
                 {"subgroup_size", d.subgroup_size},
                 {"pipeline_statistics", d.pipeline_statistics}};
  j["timings_are"] =
      is_cpu_device(d) ? "cpu: the device is a CPU implementation (lavapipe), not a GPU" : "gpu";
  j["timing_method"] =
      "vkCmdWriteTimestamp2(ALL_COMMANDS) around each pass; per frame the sum of the method's passes; "
      "median, p5 and p95 over the timed frames, after at least `warmup` frames and `warmup_ms` of "
      "warm-up per case and, on a GPU, until the clock probe runs within 5% of its fastest (clock in each "
      "case); inputs resident (uploaded once) and rotated every frame; copy_ratio divides by the "
      "fastest of the memory floor family's (floor_filter) compute methods at the same size and precision "
      "(the case marked floor); the family's fragment copy, timed beside them, has the ratio of a fragment "
      "pass";
  j["frames"] = options.frames;
  j["warmup"] = options.warmup;
  j["warmup_ms"] = options.warmup_ms;
  j["clock_probe_us"] = result.clock_probe_us;
  j["inputs"] = options.inputs;
  j["filter"] = options.filter;
  j["floor_filter"] = filters::registry().memory_floor().name;
  // What the families measured on the scene ran on (the others: random images).
  j["scene"] = options.scene ? options.scene->string() : std::string("built-in scene");
  j["sweeps"] = json::object();
  for (const Sweep& sweep : result.sweeps) j["sweeps"][sweep.param] = sweep.values;
  j["params"] = json::object();
  for (const auto& [key, value] : options.params) j["params"][key] = value;
  j["validation"] = options.validation;
  j["validation_messages"] = result.validation_messages;
  j["error_method"] =
      "against the double-precision CPU reference on input 0; max_abs and mse over the whole frame "
      "and all 4 channels; ssim (Wang et al. 2004, mean of channels) over the centred crop of side "
      "<= " +
      std::to_string(options.ssim_crop);
  j["cases"] = json::array();
  for (const CaseResult& c : result.cases) {
    json passes = json::array();
    for (const auto& [name, us] : c.pass_median_us) passes.push_back({{"name", name}, {"median_us", us}});
    json entry = {{"filter", c.filter},
                  {"method", c.method},
                  {"stage", c.stage},
                  {"exact", c.exact},
                  {"params", c.params},
                  {"width", c.size.width},
                  {"height", c.size.height},
                  {"precision", c.precision},
                  {"median_us", c.gpu_us.median},
                  {"p5_us", c.gpu_us.p5},
                  {"p95_us", c.gpu_us.p95},
                  {"min_us", c.gpu_us.min},
                  {"max_us", c.gpu_us.max},
                  {"frames", c.gpu_us.count},
                  {"gpixels_per_s", c.gpixels_per_s},
                  {"copy_ratio", c.copy_ratio},
                  {"floor", c.floor},
                  {"fetches_per_pixel", c.cost.fetches},
                  {"shared_reads_per_pixel", c.cost.shared_reads},
                  {"shared_writes_per_pixel", c.cost.shared_writes},
                  {"passes", passes},
                  {"repeat_medians_us", c.repeat_medians_us},
                  {"spread", c.stability.spread},
                  {"unstable", c.stability.unstable},
                  {"off_level_share", c.least_steady_run.off_level_share()},
                  {"unsteady", unsteady(c.least_steady_run)},
                  {"clock",
                   {{"probe_us", c.clock_probe_us},
                    {"share", c.clock_share},
                    {"settled", c.clock_settled},
                    {"warmup_ms", c.warmup_ms},
                    {"least_steady_correlation", c.least_steady_clock_correlation}}}};
    for (const auto& [key, value] : c.values) {
      // A parameter named like a fixed key (or like the capture, pipeline and error keys below)
      // would overwrite it or be overwritten: a family's schema must not name one so.
      static const std::set<std::string> kLater = {
          "capture", "diff", "pipelines", "error", "error_after_frames", "auto"};
      if (key == "precision") continue;  // the fixed key is this parameter (precision_param)
      if (entry.contains(key) || kLater.count(key))
        throw std::logic_error(c.filter + "'s parameter " + key +
                               " is named like a key every bench case has");
      entry[key] = value_json(value);
    }
    const std::filesystem::path json_dir = std::filesystem::absolute(path).parent_path();
    for (const auto& [key, file] : {std::pair{"capture", c.capture}, std::pair{"diff", c.diff}})
      if (file) entry[key] = std::filesystem::relative(std::filesystem::absolute(*file), json_dir).string();
    entry["pipelines"] = runtime::pipelines_json(c.pipelines);
    if (c.auto_mark)
      entry["auto"] = {{"chose", c.auto_mark->chose},
                       {"table", c.auto_mark->table},
                       {"fastest", c.auto_mark->fastest},
                       {"fastest_us", c.auto_mark->fastest_us},
                       {"ratio", c.auto_mark->ratio}};
    if (c.error) {
      entry["error"] = {{"max_abs", c.error->max_abs}, {"mse", c.error->mse}};
      entry["error"]["ssim"] = std::isnan(c.error->ssim) ? json(nullptr) : json(c.error->ssim);
    } else {
      entry["error"] = nullptr;
    }
    if (!c.error_after_frames.empty()) {
      entry["error_after_frames"] = json::array();
      for (const auto& [frames, e] : c.error_after_frames)
        entry["error_after_frames"].push_back({{"frames", frames},
                                               {"max_abs", e.max_abs},
                                               {"mse", e.mse},
                                               {"ssim", std::isnan(e.ssim) ? json(nullptr) : json(e.ssim)}});
    }
    j["cases"].push_back(entry);
  }
  j["skipped"] = json::array();
  for (const Skipped& s : result.skipped) {
    json entry = {{"method", s.method},      {"params", s.params},       {"width", s.size.width},
                  {"height", s.size.height}, {"precision", s.precision}, {"reason", s.reason}};
    for (const auto& [key, value] : s.values) entry[key] = value_json(value);
    j["skipped"].push_back(entry);
  }
  io::write_file_atomically(path, j.dump(2) + "\n");
}

void write_bench_csv(const BenchResult& result, const std::filesystem::path& path) {
  std::ostringstream out;
  out << "filter,method,stage,exact,params,width,height,precision,median_us,p5_us,p95_us,"
         "gpixels_per_s,copy_ratio,floor,fetches_per_pixel,shared_reads_per_pixel,shared_writes_per_pixel,"
         "max_abs,"
         "mse,ssim\n";
  for (const CaseResult& c : result.cases) {
    char line[512];
    std::snprintf(line, sizeof line, "%s,%s,%s,%d,%s,%u,%u,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%.6g,%.6g,%.6g,",
                  c.filter.c_str(), c.method.c_str(), c.stage.c_str(), c.exact ? 1 : 0, c.params.c_str(),
                  c.size.width, c.size.height, c.precision.c_str(), c.gpu_us.median, c.gpu_us.p5,
                  c.gpu_us.p95, c.gpixels_per_s, c.copy_ratio, c.floor ? 1 : 0, c.cost.fetches,
                  c.cost.shared_reads, c.cost.shared_writes);
    out << line;
    if (c.error) {
      std::snprintf(line, sizeof line, "%.6g,%.6g,%.6g", c.error->max_abs, c.error->mse, c.error->ssim);
      out << line;
    } else {
      out << ",,";
    }
    out << "\n";
  }
  io::write_file_atomically(path, out.str());
}

namespace {

// For an unsteady run on a GPU: whether its frames moved with the clock probe, or not.
std::string clock_reading(const vk::DeviceReport& d, double correlation) {
  if (is_cpu_device(d)) return "";
  char text[128];
  std::snprintf(text, sizeof text, "; its frames %s the clock probe (correlation %.2f)",
                correlation >= kClockFollows ? "went with" : "did not follow", correlation);
  return text;
}

}  // namespace

std::string format_bench_table(const BenchResult& result) {
  std::ostringstream out;
  const vk::DeviceReport& d = result.device;
  out << d.name << " (" << d.driver_name << ")"
      << (is_cpu_device(d) ? ": a CPU implementation, so these are CPU timings" : "") << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-34s %-16s %10s %5s %10s %8s %7s %9s %10s %5s\n", "method", "parameters",
                "size", "prec", "median us", "p95 us", "x floor", "fetch/px", "max err", "regs");
  out << line;
  for (const CaseResult& c : result.cases) {
    const std::string name = c.filter + "." + c.method + (c.floor ? " (floor)" : "");
    const std::string params = file_name_part(c.params);
    const std::optional<double> regs = registers(c);
    char error[32] = "-";  // not measured (--no-error)
    if (c.error) std::snprintf(error, sizeof error, "%.3g", c.error->max_abs);
    std::snprintf(line, sizeof line, "%-34s %-16s %10s %5s %10.2f %8.2f %7.2f %9.1f %10s %5s\n", name.c_str(),
                  params.empty() ? "-" : params.c_str(), size_text(c.size).c_str(), c.precision.c_str(),
                  c.gpu_us.median, c.gpu_us.p95, c.copy_ratio, c.cost.fetches, error,
                  regs ? std::to_string(int(*regs)).c_str() : "-");
    out << line;
  }
  // auto beside the methods it picks from: what it ran, from which table, and how far from the fastest.
  for (const CaseResult& c : result.cases)
    if (const std::optional<AutoMark>& a = c.auto_mark) {
      std::snprintf(line, sizeof line, "%.2f", a->ratio);
      out << "auto " << c.filter << " " << c.params << " " << size_text(c.size) << " " << c.precision << ": "
          << a->chose << " (table: " << a->table << "), " << line << "x the fastest exact method here ("
          << a->fastest << ", " << std::lround(a->fastest_us * 10) / 10.0 << " us)\n";
    }
  for (const CaseResult& c : result.cases)
    if (c.stability.unstable) {
      out << "unstable " << c.filter << "." << c.method << " " << c.params << " " << size_text(c.size) << " "
          << c.precision << ": its medians over " << c.repeat_medians_us.size() << " runs spread "
          << int(std::lround(100 * c.stability.spread)) << "% (more than "
          << int(std::lround(100 * kMaxSpread)) << "%):";
      for (double us : c.repeat_medians_us) out << " " << std::lround(us * 10) / 10.0;
      out << " us\n";
    }
  for (const CaseResult& c : result.cases)
    if (const runtime::Summary& run = c.least_steady_run; unsteady(run))
      out << "unsteady " << c.filter << "." << c.method << " " << c.params << " " << size_text(c.size) << " "
          << c.precision << ": " << run.off_level << " of " << run.count << " frames of a run lie more than "
          << std::lround(100 * runtime::kLevelBand) << "% from their median of " << std::lround(run.median)
          << " us (" << std::lround(run.min) << " to " << std::lround(run.max)
          << "): the median is of no one level" << clock_reading(d, c.least_steady_clock_correlation) << "\n";
  // A clock under the top one (on a CPU device there is none to wait for).
  for (const CaseResult& c : result.cases)
    if (!is_cpu_device(d) && (!c.clock_settled || c.clock_share < 1.0 - kClockBand))
      out << "clock " << c.filter << "." << c.method << " " << c.params << " " << size_text(c.size) << " "
          << c.precision << ": ran at " << std::lround(100 * c.clock_share)
          << "% of the top clock seen (its probe " << std::lround(c.clock_probe_us * 10) / 10.0
          << " us, the fastest " << std::lround(result.clock_probe_us * 10) / 10.0 << ")"
          << (c.clock_settled ? "" : "; the warm-up stopped at its limit before the clock rose") << "\n";
  for (const Skipped& s : result.skipped)
    out << "skipped " << s.method << " " << s.params << " " << size_text(s.size) << " " << s.precision << ": "
        << s.reason << "\n";
  return out.str();
}

Stability stability(const std::vector<double>& medians_us, double max_spread) {
  Stability s;
  if (medians_us.size() < 2) return s;
  const auto [lo, hi] = std::minmax_element(medians_us.begin(), medians_us.end());
  s.spread = *lo > 0 ? (*hi - *lo) / *lo : 0.0;
  s.unstable = s.spread > max_spread;
  return s;
}

bool unsteady(const runtime::Summary& frames, double max_off_level) {
  return frames.count >= kMinLevelFrames && frames.off_level_share() > max_off_level;
}

size_t BenchResult::unstable_cases() const {
  return size_t(
      std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return c.stability.unstable; }));
}

}  // namespace filterlab::bench
