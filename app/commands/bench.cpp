// `filterlab bench`: methods x parameter sweeps x sizes x precisions timed beside the memory floor's
// copy, with each case's error against the CPU reference (`filterlab tune` writes auto's table).
#include "commands/bench.h"

#include "command.h"
#include "progress.h"

#include "filters/auto_method.h"
#include "filters/registry.h"
#include "io/input_file.h"
#include "vk/shader_manifest.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  bench               time methods x radii x sizes x precisions beside a copy pass; JSON and CSV
)";

constexpr std::string_view kOptions = R"(bench options:
  --filter F          the family to time (default: the first listed below); the memory-floor
                      family is always measured: its fastest method is what every ratio divides by
  --methods A,B       methods to time (default: every method; unavailable ones are listed as skipped)
  --scene FILE  --scene-camera NAME|INDEX   a glTF scene for the families measured on the scene
  --sweep KEY=V1,V2   time every value of a parameter (repeatable: the product of the sweeps)
  --radii 1,2,...     the same as --sweep radius=... (default 1,2,3,4,8,16,32 where there is a radius)
  --param KEY=VALUE   a parameter fixed for every case (repeatable); --KEY VALUE is short for it
  --sizes WxH,...     (default 3840x2160)   --precision fp16,fp32 (default fp16)
  --frames N (100)    --warmup N (20)
  --warmup-ms T       and at least T ms of warm-up per case, so GPU clocks ramp up (default 500)
  --inputs K          resident input images rotated every frame (default 3)
  --repeat N          time each case N times, each with its own allocations (default 1); a case whose
                      medians spread more than 10% is listed as unstable (and "unstable" in the JSON);
                      a case with a run of 20+ frames, more than 10% of them over 10% from their
                      median, is listed as unsteady: its median is of no one level
  --no-error          skip the error against the CPU reference
  --captures DIR      per case, the output's top-left 128x128 and a heat map of its error (for report)
  --json FILE  --csv FILE  --quiet
)";

}  // namespace

BenchRequest parse_bench(Args& args) {
  BenchRequest out;
  bench::BenchOptions& b = out.bench;
  DeviceOptions gpu = default_device_options(args);
  bool swept = false;  // the first --radii or --sweep replaces the default sweep over the radius
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--filter") {
      b.filter = args.value();
    } else if (flag == "--methods") {
      b.methods = split_list(flag, args.value());
    } else if (flag == "--radii" || flag == "--sweep") {
      bench::Sweep sweep;
      if (flag == "--radii") {
        sweep = {bench::kSizeSweep, split_list(flag, args.value())};
      } else {
        const filters::RawParam kv = parse_key_value(flag, args.value());
        sweep = {kv.first, split_list(flag, kv.second)};
      }
      if (sweep.param == "precision") throw UsageError(flag + ": sweep precisions with --precision");
      if (!swept) b.sweeps.clear();
      swept = true;
      for (const bench::Sweep& s : b.sweeps)
        if (s.param == sweep.param) throw UsageError(sweep.param + " is swept twice");
      b.sweeps.push_back(sweep);
    } else if (flag == "--param") {
      b.params.push_back(parse_key_value(flag, args.value()));
      if (b.params.back().first == "precision")
        throw UsageError("--param precision: bench times the precisions --precision lists");
    } else if (flag == "--scene") {
      b.scene = parse_scene(args.value());
    } else if (flag == "--scene-camera") {
      b.scene_camera = args.value();
    } else if (flag == "--sizes") {
      b.sizes.clear();
      for (const std::string& size : split_list(flag, args.value())) b.sizes.push_back(parse_size(size));
    } else if (flag == "--precision") {
      b.precisions.clear();
      for (const std::string& p : split_list(flag, args.value())) {
        if (p != "fp16" && p != "fp32") throw UsageError(flag + " wants fp16 or fp32, got '" + p + "'");
        b.precisions.push_back(p);
      }
    } else if (flag == "--frames") b.frames = parse_count(flag, args.value(), 1, 100000);
    else if (flag == "--warmup") b.warmup = parse_count(flag, args.value(), 0, 100000);
    else if (flag == "--warmup-ms") b.warmup_ms = parse_count(flag, args.value(), 0, 600000);
    else if (flag == "--inputs") b.inputs = parse_count(flag, args.value(), 1, 16);
    else if (flag == "--repeat") b.repeats = parse_count(flag, args.value(), 1, 20);
    else if (flag == "--no-error") b.measure_error = false;
    else if (flag == "--tune" || flag == "--tune-file")
      throw UsageError(flag +
                       ": auto's table is measured by its own command now: filterlab tune [--filter F]");
    else if (flag == "--captures") {
      b.captures_dir = args.value();
      check_folder_can_take_files(flag, *b.captures_dir);  // made when the first capture is written
    } else if (flag == "--quiet") out.quiet = true;
    else if (flag == "--json") {
      out.json = args.output_file();
    } else if (flag == "--csv") {
      out.csv = args.output_file();
    } else if (const std::optional<std::string> shorthand = param_shorthand(flag)) {
      b.params.emplace_back(*shorthand, args.value());  // --kernel box: --param kernel=box
    } else if (!parse_device_flag(args, gpu)) {
      args.unknown();
    }
  }
  // The default sweep is over the family's size parameter: a family without one is timed at its
  // defaults.
  if (b.filter.empty()) b.filter = filters::registry().default_family().name;
  const filters::Family* family = nullptr;
  try {
    family = &filters::registry().family(b.filter);
  } catch (const filters::ChainError& e) {
    throw UsageError(std::string("--filter: ") + e.what());
  }
  const filters::Param* size = family->size_param();
  if (!swept && !size) b.sweeps.clear();
  for (bench::Sweep& sweep : b.sweeps)
    if (sweep.param == bench::kSizeSweep) {
      if (!size) throw UsageError("--radii: " + family->name + " has no size parameter to sweep");
      sweep.param = size->name;
      if (std::count_if(b.sweeps.begin(), b.sweeps.end(),
                        [&](const bench::Sweep& s) { return s.param == size->name; }) > 1)
        throw UsageError(size->name + " is swept twice");
    }
  // A fixed radius (--radius 4) replaces the default sweep over it; one swept explicitly clashes.
  if (!swept)
    std::erase_if(b.sweeps, [&](const bench::Sweep& sweep) {
      return std::any_of(b.params.begin(), b.params.end(),
                         [&](const auto& p) { return p.first == sweep.param; });
    });
  for (const bench::Sweep& sweep : b.sweeps)
    for (const filters::RawParam& fixed : b.params)
      if (fixed.first == sweep.param)
        throw UsageError(sweep.param + " is both fixed (--param or --" + sweep.param + ") and swept");
  for (const std::string& m : b.methods) try {
      family->method(m);
    } catch (const filters::ChainError& e) {
      throw UsageError(std::string("--methods: ") + e.what());
    }
  // Every case's step (the methods asked for) against the schema now, before any GPU work.
  std::set<std::string> taken;  // the parameters some method asked for takes
  const filters::Method* first = nullptr;
  for (const filters::Method& m : family->methods) {
    if (!b.methods.empty() && std::find(b.methods.begin(), b.methods.end(), m.name) == b.methods.end())
      continue;
    // A parameter that only some methods take is set on those (bench times the others once).
    auto takes = [&](const std::string& key) {
      const filters::Param* param = family->param(key);
      const bool takes_it = !param || param->takes(m.name);  // an unknown key: the schema's error below
      if (takes_it) taken.insert(key);
      return takes_it;
    };
    if (!first) first = &m;
    filters::FilterStep step{family->name, m.name, b.params, ""};
    std::erase_if(step.params, [&](const filters::RawParam& p) { return !takes(p.first); });
    check_step(step);
    for (const bench::Sweep& sweep : b.sweeps)
      for (const std::string& value : sweep.values) {
        if (!takes(sweep.param)) continue;
        filters::FilterStep point = step;
        point.set(sweep.param, value);
        check_step(point);
      }
  }
  // A parameter no method asked for takes: the schema's message, as the first method would get it.
  std::vector<std::string> keys;
  for (const filters::RawParam& p : b.params) keys.push_back(p.first);
  for (const bench::Sweep& sweep : b.sweeps) keys.push_back(sweep.param);
  for (const std::string& key : keys)
    if (first && !taken.count(key)) {
      filters::FilterStep step{family->name, first->name, b.params, ""};
      for (const bench::Sweep& sweep : b.sweeps) step.set(sweep.param, sweep.values.front());
      check_step(step);
    }
  if (b.scene_camera && !b.scene) throw UsageError("--scene-camera names a camera of a --scene FILE");
  if (b.captures_dir && !b.measure_error)
    throw UsageError("--captures needs the error measurement (drop --no-error)");
  b.device = gpu.device;
  b.validation = gpu.validation;
  b.shader_dir = gpu.shader_dir;
  b.glsl_dir = gpu.glsl_dir;
  return out;
}

namespace {

// Whether `bench` times a family's auto method.
bool bench_times_auto(const bench::BenchOptions& b) {
  const filters::Family* family = filters::registry().find(b.filter);
  if (!family || !family->find("auto")) return false;
  return b.methods.empty() || std::find(b.methods.begin(), b.methods.end(), "auto") != b.methods.end();
}

int run_benchmark(const BenchRequest& options) {
  std::optional<ProgressLine> line;  // bench knows its cases once it starts
  auto progress = [&](const bench::Progress& p) {
    if (!line) line.emplace(p.total, options.quiet);
    line->print(p.index, p.label, p.elapsed_s, p.estimate_left_s);
  };
  if (options.bench.captures_dir && options.json &&
      !io::path_inside(*options.bench.captures_dir, std::filesystem::absolute(*options.json).parent_path()))
    std::fprintf(stderr,
                 "filterlab: note: --captures %s is outside the folder of --json %s: report inlines them "
                 "only with --captures-from %s\n",
                 options.bench.captures_dir->c_str(), options.json->c_str(),
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
  if (options.json) bench::write_bench_json(result, options.bench, *options.json);
  if (options.csv) bench::write_bench_csv(result, *options.csv);
  if (!options.quiet) std::cout << bench::format_bench_table(result) << std::flush;
  return validation_exit_code(result.validation_messages);
}

Work prepare(Args& args) {
  BenchRequest request = parse_bench(args);
  vk::check_shader_files({request.bench.shader_dir, request.bench.glsl_dir});
  if (bench_times_auto(request.bench)) filters::check_tune_file_from_environment();
  return [request] { return run_benchmark(request); };
}

}  // namespace

const Command& bench_command() {
  static const Command command{"bench", kSynopsis, kOptions,
                               Command::kDeviceOptions | Command::kFamilyParams | Command::kNamesFilters,
                               prepare};
  return command;
}

}  // namespace filterlab::app
