// `filterlab quality`: the paper's quality tables, every method of every tabled family against its
// family's baseline, by radius, on the scene or a photograph.
#include "command.h"
#include "progress.h"

#include "common/flip.h"
#include "common/metrics.h"
#include "filters/apply.h"
#include "filters/auto_method.h"
#include "filters/registry.h"
#include "io/image_files.h"
#include "runtime/headless_runner.h"
#include "vk/shader_manifest.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  quality             MSE, SSIM and FLIP of every method against its family's baseline on the
                      scene, by radius (the paper's tables)
)";

constexpr std::string_view kOptions = R"(quality options:
  --size WxH (default 1280x720)  --radii 1,2,3  --markdown FILE  --json FILE
  --image FILE        a photograph (.png, .jpg, .pfm, .exr; values as stored) in place of the scene
  --scene builtin|FILE  a glTF scene in place of the built-in one (tonemapped, as the built-in)
  --scene-camera NAME|INDEX  one of its cameras
)";

struct QualityRequest {
  VkExtent2D size{1280, 720};
  std::vector<int> radii = {1, 2, 3};  // 3x3, 5x5, 7x7
  std::optional<std::filesystem::path> markdown, json;
  std::optional<std::filesystem::path> image;  // a photograph in place of the scene
  std::optional<std::filesystem::path> scene;  // a glTF scene in place of the built-in one
  std::optional<std::string> scene_camera;     // one of its cameras
  DeviceOptions gpu;
};

QualityRequest parse_quality(Args& args) {
  QualityRequest q;
  q.gpu = default_device_options(args);
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--size") q.size = parse_size(args.value());
    else if (flag == "--scene") q.scene = parse_scene(args.value());
    else if (flag == "--scene-camera") q.scene_camera = args.value();
    else if (flag == "--image") {
      q.image = args.value();
      check_image_extension(flag, *q.image);
      const io::ImageHeader h = io::read_image_header(*q.image);  // io::InputError: exit 2
      q.size = {h.width, h.height};
    } else if (flag == "--radii") {
      q.radii.clear();
      for (const std::string& r : split_list(flag, args.value())) {
        q.radii.push_back(int(parse_count(flag, r, 1, 1000000)));
        // Each tabled family's schema decides the range.
        for (const filters::Family* family : filters::registry().families())
          if (!family->tools.quality.baseline.empty())
            check_step({family->name, family->tools.quality.baseline, {{family->size_param()->name, r}}, ""});
      }
    } else if (flag == "--markdown") {
      q.markdown = args.output_file();
    } else if (flag == "--json") {
      q.json = args.output_file();
    } else if (!parse_device_flag(args, q.gpu)) {
      args.unknown();
    }
  }
  if (q.size.width < 16 || q.size.height < 16)
    throw UsageError(std::string("quality wants ") + (q.image ? "an --image" : "--size") +
                     " of at least 16x16 (SSIM uses 11x11 windows)");
  if (q.scene_camera && !q.scene) throw UsageError("--scene-camera names a camera of a --scene FILE");
  return q;
}

// The paper's MSE is on the 0..255 scale of 8-bit values; ours are on 0..1.
constexpr double kPaperMseScale = 255.0 * 255.0;

// A method's image against the baseline's: MSE (0..255 scale), SSIM and mean FLIP (common/flip.h,
// the baseline the reference) over RGB (alpha is 1). FLIP: LDR-FLIP of sRGB-encoded pictures (the
// displayed scene, a PNG or JPEG), decoded; HDR-FLIP of linear ones (OpenEXR, PFM), exposures from
// the baseline's luminance.
nlohmann::json quality_cell(const io::ImageF& out, const io::ImageF& baseline, bool srgb) {
  const common::ImageMetrics m = common::image_metrics(out, baseline, 3);
  const double ppd = common::default_pixels_per_degree();
  nlohmann::json flip = nullptr;  // none where the baseline has no exposure range (a black median)
  try {
    flip = common::pool_flip(srgb ? common::ldr_flip(baseline, out, ppd, common::FlipInput::Srgb)
                                  : common::hdr_flip(baseline, out, ppd, common::flip_exposures(baseline)))
               .mean;
  } catch (const std::invalid_argument&) {
  }
  return {{"mse", m.mse},
          {"mse_255", m.mse * kPaperMseScale},
          {"ssim", m.ssim.value_or(std::nan(""))},
          {"flip", flip}};
}

std::string quality_text(const nlohmann::json& cell) {
  if (cell.contains("skipped")) return " n/a | n/a | n/a |";
  char text[80];
  std::snprintf(text, sizeof text, " %.3g | %.4f |", cell["mse_255"].get<double>(),
                cell["ssim"].get<double>());
  char flip[32] = " n/a |";
  if (cell["flip"].is_number()) std::snprintf(flip, sizeof flip, " %.4f |", cell["flip"].get<double>());
  return std::string(text) + flip;
}

// The parameters of a quality column ("output=mean:radius=2"), as a step's.
void set_params(filters::FilterStep& step, const std::string& params) {
  std::istringstream items(params);
  for (std::string item; std::getline(items, item, ':');)
    if (!item.empty()) step.set(item.substr(0, item.find('=')), item.substr(item.find('=') + 1));
}

// The picture the tables measure: the file given (its values as stored: 8-bit / 255, or OpenEXR and
// PFM floats), or the displayed scene (tonemapped, 8-bit sRGB as stored / 255) standing in for the
// paper's photographs.
std::optional<io::ImageF> quality_picture(const QualityRequest& q) {
  if (q.image) return io::read_image_file(*q.image, io::Encoding::Raw);  // before any device: exit 2
  runtime::RunOptions run;
  run.scene_file = q.scene;
  run.scene_camera = q.scene_camera;
  run.size = q.size;
  run.frames = 1;
  run.warmup = 0;
  run.device = q.gpu.device;
  run.validation = q.gpu.validation;
  run.shader_dir = q.gpu.shader_dir;
  run.glsl_dir = q.gpu.glsl_dir;
  run.read_images = {"final"};
  run.print_table = false;
  runtime::RunResult scene = runtime::run_headless(run);
  if (validation_exit_code(scene.validation_messages)) return std::nullopt;
  return scene.images.at("final");
}

int quality_tables(const QualityRequest& q) {
  const std::optional<io::ImageF> picture = quality_picture(q);
  if (!picture) return 4;
  const io::ImageF& image = *picture;
  // The displayed scene and PNG/JPEG files hold sRGB-encoded values; OpenEXR and PFM linear ones.
  const bool srgb = !q.image || io::is_srgb_picture(*q.image);

  vk::Context ctx = make_context(q.gpu);
  vk::ShaderSource shaders{q.gpu.shader_dir, q.gpu.glsl_dir};
  using nlohmann::json;
  json tables = json::array(), pairs = json::array();
  std::string text;
  // The paper's tables 1-4: per column, per radius, the fine and the coarse method's cells.
  struct PaperColumn {
    std::string label;
    std::map<int, json> fine, coarse;
  };
  std::vector<PaperColumn> paper;
  // The per-radius columns, after each table's own first ones.
  std::string metric_head, metric_rule;
  for (int r : q.radii) {
    const std::string k = std::to_string(2 * r + 1) + "x" + std::to_string(2 * r + 1);
    metric_head += " MSE " + k + " | SSIM " + k + " | FLIP " + k + " |";
    metric_rule += " --- | --- | --- |";
  }
  const std::string head = "| method | exact |" + metric_head, rule = "| --- | --- |" + metric_rule;
  const std::string size = std::to_string(image.width) + "x" + std::to_string(image.height);
  const std::string where =
      (q.image ? " on " + q.image->filename().string() + " (" + size + ", its values as stored)"
               : " on the tonemapped " + (q.scene ? q.scene->filename().string() : std::string("scene")) +
                     " (" + size + ", 8-bit sRGB values / 255)") +
      ", MSE on the 0..255 scale, SSIM and mean FLIP (" + (srgb ? "LDR" : "HDR") +
      "-FLIP, 67.02 pixels per degree) over RGB, device " + ctx.report().name;
  size_t steps = 0;  // a step: one method (or the baseline, or a pair) at every radius
  for (const filters::Family* family : filters::registry().families())
    if (!family->tools.quality.baseline.empty())
      steps += std::max<size_t>(family->tools.quality.columns.size(), 1) * (family->methods.size() + 1) +
               family->tools.quality.pairs.size();
  ProgressLine progress(steps, false);
  for (const filters::Family* family : filters::registry().families()) {
    if (family->tools.quality.baseline.empty()) continue;
    // A tabled family has a size parameter (the schema test checks); the precision where it has one.
    const std::string& size = family->size_param()->name;
    auto filtered = [&](const std::string& method, int r, const std::string& params, const char* precision) {
      filters::FilterStep step{family->name, method, {{size, std::to_string(r)}}, ""};
      set_params(step, params);
      if (family->param("precision")) step.set("precision", precision);
      return filters::apply_filter(ctx, shaders, image, step);
    };
    std::vector<filters::QualityTables::Column> columns = family->tools.quality.columns;
    if (columns.empty()) columns.push_back({family->name, ""});
    for (const filters::QualityTables::Column& column : columns) {
      PaperColumn& paper_column = paper.emplace_back(PaperColumn{column.label, {}, {}});
      json rows = json::array();
      std::string table = head + "\n" + rule + "\n";
      std::map<int, io::ImageF> baseline;
      progress.step(family->name + " " + column.label + ": " + family->tools.quality.baseline);
      for (int r : q.radii) baseline[r] = filtered(family->tools.quality.baseline, r, column.params, "fp32");
      for (const filters::Method& m : family->methods) {
        // A method that serves fp16 images only (half arithmetic) is measured in fp16, and says so.
        const bool fp32_served = filters::device_support(default_step(*family, m, "fp32"), ctx).available();
        const bool fp16_only =
            !fp32_served && filters::device_support(default_step(*family, m, "fp16"), ctx).available();
        // Served in neither: the fp16 attempt records the reason that is not about the precision.
        const char* precision = fp32_served ? "fp32" : "fp16";
        progress.step(family->name + " " + column.label + ": " + m.name);
        std::string line =
            "| " + m.name + (fp16_only ? " (fp16)" : "") + " | " + (m.exact ? "yes" : "no") + " |";
        json row = {{"method", m.name},
                    {"exact", m.exact},
                    {"stage", filters::stage_name(m.stage)},
                    {"precision", precision},
                    {"by_radius", json::object()}};
        for (int r : q.radii) {
          json cell;
          try {
            cell = quality_cell(filtered(m.name, r, column.params, precision), baseline[r], srgb);
          } catch (const filters::ChainError& e) {
            cell = {{"skipped", e.what()}};
          }
          line += quality_text(cell);
          row["by_radius"][std::to_string(r)] = cell;
          if (m.name == "frag.quad_derivative") paper_column.fine[r] = cell;
          if (m.name == "frag.quad_derivative_coarse") paper_column.coarse[r] = cell;
        }
        table += line + "\n";
        rows.push_back(row);
      }
      const std::string title = family->name + (column.params.empty() ? "" : " (" + column.params + ")");
      text += "### " + title + "\n\nEvery method against " + family->tools.quality.baseline + where +
              ".\n\n" + table + "\n";
      tables.push_back({{"filter", family->name},
                        {"column", column.label},
                        {"params", column.params},
                        {"baseline", family->tools.quality.baseline},
                        {"methods", rows}});
    }
    for (const filters::QualityTables::Pair& pair : family->tools.quality.pairs) {
      progress.step(family->name + ": " + pair.label);
      std::string line = "| " + pair.label + " |";
      json by_radius = json::object();
      for (int r : q.radii) {
        const json cell =
            quality_cell(filtered(family->tools.quality.baseline, r, pair.params_a, "fp32"),
                         filtered(family->tools.quality.baseline, r, pair.params_b, "fp32"), srgb);
        line += quality_text(cell);
        by_radius[std::to_string(r)] = cell;
      }
      text += "### " + family->name + ": " + pair.label + "\n\n" + family->tools.quality.baseline + where +
              ".\n\n" + "| images |" + metric_head + "\n| --- |" + metric_rule + "\n" + line + "\n\n";
      pairs.push_back({{"filter", family->name},
                       {"label", pair.label},
                       {"a", pair.params_a},
                       {"b", pair.params_b},
                       {"by_radius", by_radius}});
    }
  }
  // The paper's tables 1-4: frag.quad_derivative (fine) and frag.quad_derivative_coarse against the
  // baseline, one column per family (and per quality column), one row per window size.
  const char* titles[] = {
      "Table 1: MSE, fine derivatives against the default", "Table 2: SSIM, fine derivatives",
      "Table 3: MSE, coarse derivatives against the default", "Table 4: SSIM, coarse derivatives"};
  json paper_json = json::array();
  for (int t = 0; t < 4; ++t) {
    const bool coarse = t >= 2, mse = t % 2 == 0;
    std::string table = "| area |", line_rule = "| --- |";
    for (const PaperColumn& c : paper) {
      table += " " + c.label + " |";
      line_rule += " ---: |";
    }
    table += "\n" + line_rule + "\n";
    json rows = json::array();
    for (int r : q.radii) {
      const std::string area = std::to_string(2 * r + 1) + "x" + std::to_string(2 * r + 1);
      table += "| " + area + " |";
      json row = {{"area", area}};
      for (const PaperColumn& c : paper) {
        const std::map<int, json>& cells = coarse ? c.coarse : c.fine;
        const auto it = cells.find(r);
        if (it == cells.end() || it->second.contains("skipped")) {
          table += " n/a |";
          continue;
        }
        const double v = it->second[mse ? "mse_255" : "ssim"].get<double>();
        char cell[32];
        std::snprintf(cell, sizeof cell, mse ? " %.3g |" : " %.4f |", v);
        table += cell;
        row[c.label] = v;
      }
      table += "\n";
      rows.push_back(row);
    }
    text += std::string("### ") + titles[t] + "\n\n" + table + "\n";
    paper_json.push_back({{"title", titles[t]}, {"rows", rows}});
  }
  progress.finish();
  std::cout << text;
  if (q.markdown) write_text(*q.markdown, text);
  if (q.json) {
    json out = {{"device", ctx.report().name},
                {"size", {image.width, image.height}},
                {"image", q.image   ? q.image->string() + ", values as stored"
                          : q.scene ? "tonemapped " + q.scene->string() + ", 8-bit sRGB values / 255"
                                    : std::string("tonemapped scene, 8-bit sRGB values / 255")},
                {"mse_scale", "mse: 0..1 values; mse_255: 0..255 values, the paper's scale"},
                {"tables", tables},
                {"pairs", pairs},
                {"paper_tables", paper_json}};
    write_text(*q.json, out.dump(2) + "\n");
  }
  return validation_exit_code(ctx);
}

Work prepare(Args& args) {
  QualityRequest request = parse_quality(args);
  vk::check_shader_files({request.gpu.shader_dir, request.gpu.glsl_dir});
  filters::check_tune_file_from_environment();  // every method of every tabled family, auto included
  return [request] { return quality_tables(request); };
}

}  // namespace

const Command& quality_command() {
  static const Command command{"quality", kSynopsis, kOptions,
                               Command::kDeviceOptions | Command::kNamesFilters, prepare};
  return command;
}

}  // namespace filterlab::app
