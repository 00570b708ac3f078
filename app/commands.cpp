#include "commands.h"

#include "progress.h"

#include "bench/bench.h"
#include "bench/report.h"
#include "common/metrics.h"
#include "common/reference.h"
#include "filters/apply.h"
#include "filters/precision.h"
#include "io/image_files.h"
#include "io/input_file.h"
#include "vk/formats.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace filterlab::app {

vk::Context make_context(const DeviceOptions& gpu) {
  vk::ContextOptions options;
  options.device_selector = gpu.device;
  options.validation = gpu.validation;
  options.compute_derivatives = true;  // comp.quad_derivative needs them enabled at device creation
  return vk::Context(options);
}

int validation_exit_code(const vk::Context& ctx) {
  if (ctx.validation_messages() == 0) return 0;
  std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", ctx.validation_messages());
  return 4;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  io::write_file_atomically(path, text);
}

namespace {

const std::vector<int> kCostRadii = {1, 2, 3, 4, 8, 16, 32};

std::string size_text(const io::ImageHeader& h) {
  return std::to_string(h.width) + "x" + std::to_string(h.height);
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
  return text;
}

// Whether the device can hold the image: its side limit, and its memory for the input, its upload
// buffer, the output and an intermediate of `texel_bytes` per pixel each.
void check_fits_device(const std::filesystem::path& path, const io::ImageHeader& h, const vk::Context& ctx,
                       uint32_t texel_bytes) {
  const vk::DeviceReport& d = ctx.report();
  if (h.width > d.max_image_dimension_2d || h.height > d.max_image_dimension_2d)
    throw UsageError(path.string() + " is " + size_text(h) + ": " + d.name + " takes images up to " +
                     std::to_string(d.max_image_dimension_2d) + " pixels a side");
  const double need = double(h.width) * h.height * texel_bytes * 4;
  if (d.device_local_bytes && need > double(d.device_local_bytes))
    throw UsageError(path.string() + " is " + size_text(h) + ": filtering it needs " + gib(need) + ", " +
                     d.name + " has " + gib(double(d.device_local_bytes)));
}

}  // namespace

namespace {

// The limit of a support, as text: "<size parameter> 1..16" (the lower end from the schema).
std::string limits_text(const filters::Family& family, const filters::Support& support) {
  const filters::Param* size = family.size_param();
  if (!size || !support.max_size) return "-";
  return size->name + " " + std::to_string(int(size->min)) + ".." + std::to_string(*support.max_size);
}

// A method's step at its family's defaults, in one precision where the family has one.
filters::ResolvedStep default_step(const filters::Family& family, const filters::Method& method,
                                   const char* precision) {
  filters::FilterStep step{family.name, method.name, {}, family.name + "." + method.name};
  if (family.param("precision")) step.set("precision", precision);
  return filters::resolve(step);
}

}  // namespace

int list_methods(const CliOptions& options) {
  vk::Context ctx = make_context(options.gpu);
  using nlohmann::json;
  json list = json::array();
  if (!options.methods.json)
    std::printf("%-40s %-9s %-6s %-14s %s\n", "method", "stage", "exact", "limits here", "availability");
  for (const filters::Family* family : filters::registry().families())
    for (const filters::Method& m : family->methods) {
      const filters::ResolvedStep fp16 = default_step(*family, m, "fp16"),
                                  fp32 = default_step(*family, m, "fp32");
      const filters::Support s16 = filters::device_support(fp16, ctx),
                             s32 = filters::device_support(fp32, ctx);
      const filters::Param* size = family->size_param();
      json limits = json::object();
      if (size && s16.max_size) limits[size->name] = *s16.max_size;
      json entry = {{"filter", family->name},
                    {"method", m.name},
                    {"stage", filters::stage_name(m.stage)},
                    {"exact", m.exact},
                    {"passes", m.passes},
                    {"available", s16.available()},
                    {"default", m.name == family->default_method},
                    {"limits", limits},
                    {"description", m.description}};
      if (size) {
        // The size limit also as its own fields ("min_radius", "max_radius", "max_radius_fp32"):
        // what a table by size needs.
        const auto largest = [&](const filters::Support& s) {
          return s.available() ? s.max_size.value_or(int(size->max)) : 0;
        };
        entry["min_" + size->name] = int(size->min);
        entry["max_" + size->name] = largest(s16);
        entry["max_" + size->name + "_fp32"] = largest(s32);
        json cost = json::object();
        for (int r : kCostRadii) {
          if (r < size->min || r > size->max) continue;
          filters::FilterStep step{family->name, m.name, {{size->name, std::to_string(r)}}, ""};
          const filters::MethodCost c = m.cost(filters::resolve(step).params);
          cost[std::to_string(r)] = {
              {"fetches", c.fetches}, {"shared_reads", c.shared_reads}, {"shared_writes", c.shared_writes}};
        }
        entry["cost_per_pixel_by_" + size->name] = cost;
      }
      entry["fetches_per_pixel"] = m.cost(fp16.params).fetches;  // every method has a cost (schema test)
      json takes = json::array();
      for (const filters::Param& p : family->params)
        if (p.takes(m.name)) takes.push_back(p.name);
      entry["params"] = takes;
      if (!s16.available()) entry["reason"] = s16.reason;
      if (!s32.available()) entry["reason_fp32"] = s32.reason;
      list.push_back(entry);
      if (!options.methods.json) {
        const char* availability = !s16.available()  ? s16.reason.c_str()
                                   : s32.available() ? "available"
                                                     : "available for fp16 images only";
        const std::string name =
            family->name + "." + m.name + (m.name == family->default_method ? " (default)" : "");
        std::printf("%-40s %-9s %-6s %-14s %s\n    %s\n", name.c_str(), filters::stage_name(m.stage),
                    m.exact ? "yes" : "no", s16.available() ? limits_text(*family, s16).c_str() : "-",
                    availability, m.description.c_str());
      }
    }
  if (options.methods.json) {
    json out = {{"device", ctx.report().name}, {"methods", list}};
    std::cout << out.dump(2) << "\n";
  }
  return validation_exit_code(ctx);
}

int filter_file(const CliOptions& options) {
  const FilterOptions& f = options.filter;
  const io::Encoding encoding = f.raw ? io::Encoding::Raw : io::Encoding::Srgb;
  const io::ImageHeader header = io::read_image_header(f.input);  // the size gate: exit 2
  // Samples that halves cannot hold (a 16-bit PNG, float OpenEXR and PFM) are filtered in fp32 unless
  // --precision says otherwise: in fp16 a 16-bit PNG erred by up to 16/65535 (issue #54).
  filters::FilterStep filtered = f.step;
  const bool wide = header.bits > 16 || (header.bits == 16 && io::is_srgb_picture(f.input));
  if (wide && !filtered.find("precision") && filters::registry().family(filtered.filter).param("precision"))
    filtered.set("precision", "fp32");
  const filters::ResolvedStep step = filters::resolve(filtered);
  filters::check_scene_inputs(step, false, false);                // a still image has no depth and no motion
  filters::check_chain({filtered}, header.width, header.height);  // a ROI that leaves the image
  const VkFormat format = step.family->param("precision") ? filters::precision_format(step.params)
                                                          : VK_FORMAT_R32G32B32A32_SFLOAT;
  // The whole file decoded before any device is opened: a corrupt body is bad input too (exit 2).
  const io::ImageF input = io::read_image_file(f.input, encoding);

  vk::Context ctx = make_context(options.gpu);
  check_fits_device(f.input, header, ctx, vk::format_texel_size(format));
  filters::check_support(step, ctx);
  vk::ShaderSource shaders{options.gpu.shader_dir, options.gpu.glsl_dir};
  std::vector<std::string> names;
  for (const runtime::Capture& c : f.captures) names.push_back(c.image);
  filters::StepImages images;
  try {
    images = filters::apply_filter_reading(ctx, shaders, input, filtered, names, format);
  } catch (const filters::ChainError& e) {
    throw UsageError(e.what());  // a capture the step does not make: nothing ran, nothing is written
  }
  // The outputs keep the input's channels (the filter ran on RGBA): an OpenEXR output with the
  // precision's samples, a PNG with the input's bits unless --png-format says otherwise.
  auto write = [&](const std::filesystem::path& path, io::ImageF image) {
    if (path.extension() == ".exr") image = io::first_channels(image, input.channels);
    io::write_image_file(path, image, encoding,
                         vk::format_is_half(format) ? io::ExrSamples::Half : io::ExrSamples::Float,
                         f.png.value_or(io::png_layout_of(header)));
  };
  write(f.output, images.output);
  std::printf("%s -> %s (%s, %ux%u)\n%s", f.input.string().c_str(), f.output.string().c_str(),
              filters::step_spec(filtered).c_str(), images.output.width, images.output.height,
              step.derived_text().c_str());
  for (size_t i = 0; i < f.captures.size(); ++i) {
    write(f.captures[i].path, images.named[i]);
    std::printf("%s -> %s\n", f.captures[i].image.c_str(), f.captures[i].path.string().c_str());
  }
  return validation_exit_code(ctx);
}

int run_benchmark(const CliOptions& options) {
  std::optional<ProgressLine> line;  // bench knows its cases once it starts
  auto progress = [&](const bench::Progress& p) {
    if (!line) line.emplace(p.total, options.quiet);
    line->print(p.index, p.label, p.elapsed_s, p.estimate_left_s);
  };
  if (options.bench.captures_dir && options.bench_json &&
      !io::path_inside(*options.bench.captures_dir,
                       std::filesystem::absolute(*options.bench_json).parent_path()))
    std::fprintf(stderr,
                 "filterlab: note: --captures %s is outside the folder of --json %s: report inlines them "
                 "only with --captures-from %s\n",
                 options.bench.captures_dir->c_str(), options.bench_json->c_str(),
                 options.bench.captures_dir->c_str());
  // A sweep of another parameter (sigma) leaves the family's size parameter at its default in every
  // case: say so, since sigma 8 at radius 2 is a truncated kernel, not a wider one.
  const filters::Family* family = filters::registry().find(
      options.bench.filter.empty() ? filters::registry().default_family().name : options.bench.filter);
  const filters::Param* size = family ? family->size_param() : nullptr;
  if (size && !options.bench.sweeps.empty()) {
    auto named = [&](const std::string& p) { return p == size->name || p == bench::kSizeSweep; };
    const bool swept = std::any_of(options.bench.sweeps.begin(), options.bench.sweeps.end(),
                                   [&](const bench::Sweep& w) { return named(w.param); });
    const bool fixed = std::any_of(options.bench.params.begin(), options.bench.params.end(),
                                   [&](const filters::RawParam& p) { return p.first == size->name; });
    if (!swept && !fixed)
      std::fprintf(stderr,
                   "filterlab: note: %s stays at its default (%s) in every case; --sweep %s=... or --%s N "
                   "sets it\n",
                   size->name.c_str(), size->fallback.c_str(), size->name.c_str(), size->name.c_str());
  }
  const bench::BenchResult result = bench::run_bench(options.bench, progress);
  line.reset();  // the progress line ends before the table
  if (options.bench_json) bench::write_bench_json(result, options.bench, *options.bench_json);
  if (options.bench_csv) bench::write_bench_csv(result, *options.bench_csv);
  if (!options.quiet) std::cout << bench::format_bench_table(result) << std::flush;
  if (options.bench.tune) {
    const std::filesystem::path where_auto_looks = filters::tune_path(result.device);
    const std::filesystem::path path = options.bench.tune_file.value_or(where_auto_looks);
    filters::write_tune_table(bench::tune_table(result), path);
    // auto reads the file FILTERLAB_TUNE names, else the device's own: say which this one is.
    if (path == where_auto_looks)
      std::printf("tuned on %s: %s (the auto methods of this device read it)\n", result.device.name.c_str(),
                  path.string().c_str());
    else
      std::printf(
          "tuned on %s: %s (auto reads it when FILTERLAB_TUNE=%s; without --tune-file, bench --tune "
          "writes where auto looks: %s)\n",
          result.device.name.c_str(), path.string().c_str(), path.string().c_str(),
          where_auto_looks.string().c_str());
  }
  if (result.validation_messages) {
    std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", result.validation_messages);
    return 4;
  }
  return 0;
}

namespace {

// The paper's MSE is on the 0..255 scale of 8-bit values; ours are on 0..1.
constexpr double kPaperMseScale = 255.0 * 255.0;

// A method's image against the baseline's: MSE (0..255 scale) and SSIM over RGB (alpha is 1).
nlohmann::json quality_cell(const io::ImageF& out, const io::ImageF& baseline) {
  const common::ImageMetrics m = common::image_metrics(out, baseline, 3);
  return {{"mse", m.mse}, {"mse_255", m.mse * kPaperMseScale}, {"ssim", m.ssim.value_or(std::nan(""))}};
}

std::string quality_text(const nlohmann::json& cell) {
  if (cell.contains("skipped")) return " n/a | n/a |";
  char text[64];
  std::snprintf(text, sizeof text, " %.3g | %.4f |", cell["mse_255"].get<double>(),
                cell["ssim"].get<double>());
  return text;
}

// The parameters of a quality column ("output=mean:radius=2"), as a step's.
void set_params(filters::FilterStep& step, const std::string& params) {
  std::istringstream items(params);
  for (std::string item; std::getline(items, item, ':');)
    if (!item.empty()) step.set(item.substr(0, item.find('=')), item.substr(item.find('=') + 1));
}

}  // namespace

// The picture the tables measure: the file given (its values as stored: 8-bit / 255, or OpenEXR and
// PFM floats), or the displayed scene (tonemapped, 8-bit sRGB as stored / 255) standing in for the
// paper's photographs.
std::optional<io::ImageF> quality_picture(const QualityOptions& q, const CliOptions& options) {
  if (q.image) return io::read_image_file(*q.image, io::Encoding::Raw);  // before any device: exit 2
  runtime::RunOptions run;
  run.scene_file = q.scene;
  run.scene_camera = q.scene_camera;
  run.size = q.size;
  run.frames = 1;
  run.warmup = 0;
  run.device = options.gpu.device;
  run.validation = options.gpu.validation;
  run.shader_dir = options.gpu.shader_dir;
  run.glsl_dir = options.gpu.glsl_dir;
  run.read_images = {"final"};
  run.print_table = false;
  runtime::RunResult scene = runtime::run_headless(run);
  if (scene.validation_messages) {
    std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", scene.validation_messages);
    return std::nullopt;
  }
  return scene.images.at("final");
}

int quality_tables(const CliOptions& options) {
  const QualityOptions& q = options.quality;
  const std::optional<io::ImageF> picture = quality_picture(q, options);
  if (!picture) return 4;
  const io::ImageF& image = *picture;

  vk::Context ctx = make_context(options.gpu);
  vk::ShaderSource shaders{options.gpu.shader_dir, options.gpu.glsl_dir};
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
    metric_head += " MSE " + k + " | SSIM " + k + " |";
    metric_rule += " --- | --- |";
  }
  const std::string head = "| method | exact |" + metric_head, rule = "| --- | --- |" + metric_rule;
  const std::string size = std::to_string(image.width) + "x" + std::to_string(image.height);
  const std::string where =
      (q.image ? " on " + q.image->filename().string() + " (" + size + ", its values as stored)"
               : " on the tonemapped " + (q.scene ? q.scene->filename().string() : std::string("scene")) +
                     " (" + size + ", 8-bit sRGB values / 255)") +
      ", MSE on the 0..255 scale, SSIM over RGB, device " + ctx.report().name;
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
            cell = quality_cell(filtered(m.name, r, column.params, precision), baseline[r]);
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
        const json cell = quality_cell(filtered(family->tools.quality.baseline, r, pair.params_a, "fp32"),
                                       filtered(family->tools.quality.baseline, r, pair.params_b, "fp32"));
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

int compare_files(const CliOptions& options) {
  const CompareOptions& c = options.compare;
  io::ImageF a, b;
  io::read_image_header(c.a);  // both through the size gate before either is decoded
  io::read_image_header(c.b);
  // Files of one kind compare as stored: 8-bit values / 255 (16-bit ones / 65535), floats as they are.
  // A PNG or JPEG (sRGB-encoded) against a PFM or EXR (linear) would compare two encodings of one
  // picture (11.9 dB for the same image): the encoded one is decoded to linear first, and said so.
  const auto encoded = io::is_srgb_picture;
  const bool mixed = encoded(c.a) != encoded(c.b);
  a = io::read_image_file(c.a, mixed && encoded(c.a) ? io::Encoding::Srgb : io::Encoding::Raw);
  b = io::read_image_file(c.b, mixed && encoded(c.b) ? io::Encoding::Srgb : io::Encoding::Raw);
  if (mixed) {
    const std::filesystem::path& srgb = encoded(c.a) ? c.a : c.b;
    const std::filesystem::path& linear = encoded(c.a) ? c.b : c.a;
    std::fprintf(
        stderr,
        "filterlab: note: %s holds sRGB-encoded values and %s linear ones: %s is decoded from sRGB to "
        "linear before the comparison\n",
        srgb.string().c_str(), linear.string().c_str(), srgb.string().c_str());
  }
  if (a.width != b.width || a.height != b.height)
    throw UsageError("sizes differ: " + c.a.string() + " is " + std::to_string(a.width) + "x" +
                     std::to_string(a.height) + ", " + c.b.string() + " is " + std::to_string(b.width) + "x" +
                     std::to_string(b.height));
  // RGB, or RGBA where both images have alpha and it counts.
  const uint32_t channels = std::min(a.channels, b.channels) == 4 && !c.alpha ? 3 : 4;
  const common::ImageMetrics m = common::image_metrics(a, b, channels);
  const char* names[] = {"", "gray", "RG", "RGB", "RGBA"};
  // Colour with alpha is compared as filterlab filters it: premultiplied (io::Alpha).
  const bool with_alpha = std::min(a.channels, b.channels) == 4;
  const std::string which = std::string(names[m.channels]) +
                            (m.channels == 4 ? " (colour premultiplied by alpha; alpha counted: --alpha off "
                                               "leaves it out)"
                             : with_alpha    ? " (colour premultiplied by alpha; alpha left out: --alpha off)"
                                             : "");
  const bool nonfinite = m.nonfinite_a + m.nonfinite_b > 0;
  const std::string psnr =
      std::isinf(m.psnr) ? (nonfinite ? "inf" : "inf (identical)") : std::to_string(m.psnr);
  const std::string ssim = m.ssim      ? std::to_string(*m.ssim)
                           : nonfinite ? "n/a (non-finite values)"
                                       : "n/a (under 11x11)";
  std::printf("mse      %.9g\npsnr     %s\nssim     %s\nmax_abs  %.9g\nchannels %u %s, %ux%u\n", m.mse,
              psnr.c_str(), ssim.c_str(), m.max_abs, m.channels, which.c_str(), a.width, a.height);
  if (c.json) {
    using nlohmann::json;
    json j = {{"mse", m.mse},
              {"psnr", std::isinf(m.psnr) ? json(nullptr) : json(m.psnr)},
              {"identical", m.max_abs == 0 && !nonfinite},
              {"ssim", m.ssim ? json(*m.ssim) : json(nullptr)},
              {"max_abs", m.max_abs},
              {"channels", m.channels},
              {"alpha_counted", m.channels == 4},
              {"colour", with_alpha ? "premultiplied by alpha" : "as stored"},
              {"nonfinite", {{"a", m.nonfinite_a}, {"b", m.nonfinite_b}}},
              {"width", a.width},
              {"height", a.height},
              {"a", c.a.string()},
              {"b", c.b.string()}};
    write_text(*c.json, j.dump(2) + "\n");
  }
  if (c.diff) io::write_png(*c.diff, common::difference_heatmap(a, b, c.gain));
  if (nonfinite) {
    std::fprintf(stderr,
                 "filterlab: non-finite values (NaN or infinity): %zu in %s, %zu in %s; the metrics leave "
                 "their pixels out\n",
                 m.nonfinite_a, c.a.string().c_str(), m.nonfinite_b, c.b.string().c_str());
    return 1;
  }
  return 0;
}

int write_report(const CliOptions& options) {
  bench::ReportSummary report;
  try {
    report = bench::make_report(options.report_inputs, options.report_capture_roots);
  } catch (const bench::ReportInputError& e) {
    throw UsageError(e.what());
  }
  write_text(options.report_out, report.html);
  std::printf("%s: %d plots from %zu file(s)\n", options.report_out.string().c_str(), report.plots,
              options.report_inputs.size());
  return 0;
}

}  // namespace filterlab::app
