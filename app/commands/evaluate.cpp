// filterlab evaluate: a family's configurations (filters::Evaluation, a temporal filter's settings) on
// three scene sequences against supersampled references. Every metric is on the tonemapped image
// (`final`, RGB in [0, 1]).
//   sequences  still (nothing moves), orbit (the camera orbits), moving (objects move, the camera
//              stands): frames 0..N-1
//   reference  for frame f: the scene paused at f, rendered at grid x grid sub-pixel offsets (cell
//              centres) and averaged with equal weights
//   metrics    PSNR (peak 1) against each frame's reference (the curve, and the last frame's),
//              SSIM of the last frame; flicker on still: the mean |change| of the output between
//              consecutive frames over the second half; ghosting on moving: the RMS error in the
//              pixels an object uncovered in the last 8 frames (a depth now farther than in one of
//              them), over frames 8..N-1
// A family may add itself to another's evaluation as a baseline (FamilyTools::evaluation_baseline):
// one more row, its chain at its defaults.
// `filterlab report` plots the JSON (report/bench_report.cpp).
#include "command.h"
#include "progress.h"

#include "filters/registry.h"
#include "vk/shader_manifest.h"

#include "common/flip.h"
#include "common/metrics.h"
#include "filters/chain.h"
#include "io/image_files.h"
#include "runtime/sequence.h"
#include "scene/gltf_scene.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  evaluate            a filter's configurations on three scene sequences (still, orbit, moving
                      objects) against supersampled references: PSNR, SSIM, FLIP, flicker, ghosting
)";

constexpr std::string_view kOptions =
    R"(evaluate options (the filters that offer an evaluation: see `filterlab filters`):
  --filter NAME (default: the first that offers one)  --scene builtin|FILE (a glTF scene)
  --scene-camera NAME|INDEX
  --size WxH (default 320x180)  --frames N (default 32)  --grid G (reference offsets G x G, default 8)
  --ppd P             FLIP's pixels per degree (default 67.02; filterlab compare --help)
  --json FILE
)";

// `filterlab evaluate`: a family's evaluation (filters::Evaluation) on scene sequences against
// supersampled references.
struct EvaluateRequest {
  std::string filter;                          // empty until parsed: the first family that offers one
  std::optional<std::filesystem::path> scene;  // a glTF scene in place of the built-in one
  std::optional<std::string> scene_camera;     // one of its cameras
  VkExtent2D size{320, 180};
  uint32_t frames = 32;
  uint32_t grid = 8;  // the reference: grid x grid sub-pixel offsets a frame
  double ppd = common::default_pixels_per_degree();  // FLIP's
  std::optional<std::filesystem::path> json;
  DeviceOptions gpu;
};

EvaluateRequest parse_evaluate(Args& args) {
  EvaluateRequest t;
  t.gpu = default_device_options(args);
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--filter") t.filter = args.value();
    else if (flag == "--scene") t.scene = parse_scene(args.value());
    else if (flag == "--scene-camera") t.scene_camera = args.value();
    else if (flag == "--size") t.size = parse_size(args.value());
    else if (flag == "--frames") t.frames = uint32_t(parse_count(flag, args.value(), 1, 4096));
    else if (flag == "--grid") t.grid = uint32_t(parse_count(flag, args.value(), 1, 64));
    else if (flag == "--ppd") {
      t.ppd = parse_positive(flag, args.value());
      if (t.ppd > common::kMaxPixelsPerDegree) throw UsageError(flag + ": at most 1000 pixels per degree");
    } else if (flag == "--json") {
      t.json = args.output_file();
    } else if (!parse_device_flag(args, t.gpu)) {
      args.unknown();
    }
  }
  if (t.size.width < 16 || t.size.height < 16)
    throw UsageError("evaluate wants --size of at least 16x16 (SSIM uses 11x11 windows)");
  std::string offered;
  for (const filters::Family* f : filters::registry().families())
    if (f->tools.evaluation) {
      offered += (offered.empty() ? "" : " ") + f->name;
      if (t.filter.empty()) t.filter = f->name;
    }
  const filters::Family* family = filters::registry().find(t.filter);
  if (!family || !family->tools.evaluation)
    throw UsageError("evaluate --filter: '" + t.filter +
                     "' offers no evaluation (those that do: " + (offered.empty() ? "none" : offered) + ")");
  if (t.scene_camera && !t.scene) throw UsageError("--scene-camera names a camera of a --scene FILE");
  return t;
}

struct SequenceSpec {
  const char* name;
  bool orbit, animate;
};

constexpr SequenceSpec kSequences[] = {
    {"still", false, false}, {"orbit", true, false}, {"moving", false, true}};
constexpr uint32_t kGhostFrames = 8;

scene::SceneSettings settings_of(const SequenceSpec& s) {
  scene::SceneSettings settings;
  settings.orbit_camera = s.orbit;
  settings.animate_objects = s.animate;
  return settings;
}

nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

int evaluate(const EvaluateRequest& t) {
  const filters::Family& family = *filters::registry().find(t.filter);
  const filters::Evaluation& evaluation = *family.tools.evaluation;
  // A glTF scene in place of the built-in one: read (and refused, exit 2) before any device.
  std::shared_ptr<const scene::SceneModel> model;
  if (t.scene) model = scene::load_gltf(*t.scene, t.scene_camera).scene;
  vk::Context ctx = make_context(t.gpu);
  vk::ShaderSource shaders{t.gpu.shader_dir, t.gpu.glsl_dir};
  const passes::PassEnv env{ctx, shaders, runtime::kFramesInFlight};
  using nlohmann::json;
  json sequences = json::array();
  std::string text;
  std::vector<filters::Evaluation::Config> all = evaluation.configs(family, ctx);
  // Other families that offer themselves as a baseline for this evaluation (a spatial anti-aliasing
  // beside a temporal one): their chain at its defaults, where the device runs it.
  for (const filters::Family* f : filters::registry().families())
    if (f->tools.evaluation_baseline && f->tools.evaluation_baseline->evaluated == family.name &&
        filters::device_support(filters::resolve(filters::parse_chain(f->name).at(0)), ctx).available())
      all.push_back({f->tools.evaluation_baseline->label, f->name, {}});
  // A step: a sequence's supersampled references, or one configuration over the sequence.
  ProgressLine progress(std::size(kSequences) * (1 + all.size()), false);
  for (const SequenceSpec& spec : kSequences) {
    progress.step(std::string(spec.name) + ": references (" + std::to_string(t.grid * t.grid) + " offsets)");
    // The references, and each frame's unjittered depth (for the ghosting mask).
    runtime::Sequence reference(env, settings_of(spec), {}, t.size, {"final", "depth"}, model);
    std::vector<io::ImageF> refs, depths;
    for (uint32_t f = 0; f < t.frames; ++f) {
      reference.settings().animation_frame = f;
      io::ImageF sum;
      for (uint32_t j = 0; j < t.grid; ++j)
        for (uint32_t i = 0; i < t.grid; ++i) {
          reference.settings().jitter_offset =
              glm::vec2((float(i) + 0.5f) / float(t.grid) - 0.5f, (float(j) + 0.5f) / float(t.grid) - 0.5f);
          reference.run();
          const io::ImageF sample = reference.image("final");
          if (sum.pixels.empty())
            sum = io::ImageF{sample.width, sample.height, sample.channels,
                             std::vector<float>(sample.pixels.size(), 0.0f)};
          for (size_t k = 0; k < sum.pixels.size(); ++k)
            sum.pixels[k] += sample.pixels[k] / float(t.grid * t.grid);
        }
      reference.settings().jitter_offset.reset();
      reference.run();
      depths.push_back(reference.image("depth"));
      refs.push_back(std::move(sum));
    }
    std::string table = "### " + std::string(spec.name) + "\n\n| configuration | PSNR frame " +
                        std::to_string(t.frames) + " | SSIM | FLIP | " +
                        (std::string(spec.name) == "still"    ? "flicker"
                         : std::string(spec.name) == "moving" ? "ghosting RMS"
                                                              : "-") +
                        " |\n| --- | ---: | ---: | ---: | ---: |\n";
    json rows = json::array();
    for (const filters::Evaluation::Config& c : all) {
      progress.step(std::string(spec.name) + ": " + c.label);
      runtime::Sequence run(
          env, settings_of(spec),
          c.chain.empty() ? std::vector<filters::FilterStep>{} : filters::parse_chain(c.chain), t.size,
          {"final"}, model);
      json curve = json::array();
      io::ImageF previous, last;
      double flicker = 0, ghost_sq = 0;
      size_t flicker_n = 0, ghost_n = 0;
      double ssim = std::nan("");
      for (uint32_t f = 0; f < t.frames; ++f) {
        run.run();
        const io::ImageF out = run.image("final");
        const common::ImageMetrics m = common::image_metrics(out, refs[f], 3);
        curve.push_back(finite_or_null(m.psnr));
        if (f + 1 == t.frames) ssim = m.ssim.value_or(std::nan(""));
        if (f >= t.frames / 2 && !previous.pixels.empty())
          for (size_t p = 0; p < size_t(out.width) * out.height; ++p)
            for (uint32_t ch = 0; ch < 3; ++ch) {
              flicker += std::abs(out.pixels[p * out.channels + ch] - previous.pixels[p * out.channels + ch]);
              ++flicker_n;
            }
        if (f >= kGhostFrames)
          for (size_t p = 0; p < size_t(out.width) * out.height; ++p) {
            bool uncovered = false;
            for (uint32_t k = f - kGhostFrames; k < f && !uncovered; ++k)
              uncovered = depths[k].pixels[p] + 1e-3f < depths[f].pixels[p];
            if (!uncovered) continue;
            for (uint32_t ch = 0; ch < 3; ++ch) {
              const double d = out.pixels[p * out.channels + ch] - refs[f].pixels[p * out.channels + ch];
              ghost_sq += d * d;
              ++ghost_n;
            }
          }
        previous = out;
        last = out;
      }
      const double final_psnr = curve.back().is_null() ? INFINITY : curve.back().get<double>();
      // Mean LDR-FLIP of the last frame against its reference (common/flip.h): both "final", the
      // displayed values, decoded from sRGB.
      const double flip =
          common::pool_flip(common::ldr_flip(refs[t.frames - 1], last, t.ppd, common::FlipInput::Srgb)).mean;
      json row = {{"config", c.label},
                  {"chain", c.chain},
                  {"plotted", c.plotted ? json(*c.plotted) : json(nullptr)},
                  {"psnr", curve},
                  {"psnr_last", finite_or_null(final_psnr)},
                  {"ssim_last", finite_or_null(ssim)},
                  {"flip_last", flip}};
      // Flicker needs two frames in the run's second half: one frame has none (null, as ghosting).
      const double flicker_v = flicker_n ? flicker / double(flicker_n) : std::nan("");
      const double ghost_v = ghost_n ? std::sqrt(ghost_sq / double(ghost_n)) : std::nan("");
      row["flicker"] = finite_or_null(flicker_v);
      row["ghosting_rms"] = finite_or_null(ghost_v);
      row["ghosting_pixels"] = ghost_n / 3;
      rows.push_back(row);
      char line[256];
      // Ghosting is undefined where no object uncovered a pixel in the last frames (too few frames,
      // or nothing moved): said, rather than nan.
      const std::string extra =
          std::string(spec.name) == "still"   ? (flicker_n ? std::to_string(flicker_v) : "- (needs 2 frames)")
          : std::string(spec.name) == "orbit" ? "-"
          : ghost_n                           ? std::to_string(ghost_v)
          : t.frames <= kGhostFrames ? "- (needs more than " + std::to_string(kGhostFrames) + " frames)"
                                     : "- (no pixel uncovered)";
      std::snprintf(line, sizeof line, "| %s | %.2f | %.4f | %.4f | %s |\n", c.label.c_str(), final_psnr,
                    ssim, flip, extra.c_str());
      table += line;
    }
    text += table + "\n";
    sequences.push_back({{"sequence", spec.name}, {"configs", rows}});
  }
  progress.finish();
  std::cout << evaluation.title << " on " << ctx.report().name << ", " << t.size.width << "x" << t.size.height
            << ", " << t.frames << " frames, references of " << t.grid * t.grid
            << " offsets; PSNR (dB, peak 1), SSIM and mean LDR-FLIP (" << t.ppd
            << " pixels per degree) of the last frame\n\n"
            << text;
  if (t.json) {
    json out = {{"schema", "filterlab.evaluation/1"},
                {"content", model ? model->name() : std::string("built-in scene")},
                {"filter", family.name},
                {"title", evaluation.title},
                {"plotted_param", evaluation.plotted_param},
                {"device", ctx.report().name},
                {"size", {t.size.width, t.size.height}},
                {"frames", t.frames},
                {"reference_offsets", t.grid * t.grid},
                {"flip_ppd", t.ppd},
                {"image", "tonemapped final, RGB in [0, 1]"},
                {"sequences", sequences}};
    write_text(*t.json, out.dump(2) + "\n");
  }
  return validation_exit_code(ctx);
}

Work prepare(Args& args) {
  EvaluateRequest request = parse_evaluate(args);
  vk::check_shader_files({request.gpu.shader_dir, request.gpu.glsl_dir});
  return [request] { return evaluate(request); };
}

}  // namespace

const Command& evaluate_command() {
  static const Command command{"evaluate", kSynopsis, kOptions, Command::kDeviceOptions, prepare};
  return command;
}

}  // namespace filterlab::app
