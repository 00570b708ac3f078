// `filterlab tune`: measures the table `auto` reads on this device (bench/tune.h) and writes it where
// auto looks, saying what changed against the table in force before.
#include "command.h"
#include "progress.h"

#include "bench/tune.h"
#include "filters/auto_method.h"
#include "filters/registry.h"
#include "io/input_file.h"
#include "vk/shader_manifest.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  tune                measure which exact method of each family is fastest on this device, by
                      precision and radius, into the table `auto` reads (once per GPU and driver)
)";

constexpr std::string_view kOptions = R"(tune options:
  --filter F,...      the families to tune (default: every family with an auto method)
  --precision fp16,fp32  (default both)
  --size WxH          (default 3840x2160; on a CPU device 256x144, and it says so)
  --keys 1,3,...      the size parameter's values to time (default: each family's keys, 1 2 3 4 8 16 32
                      for a radius), with the values between where the fastest method changes
  --frames N          timed frames of a method that keeps up with the best (default 30)
  --output FILE       write the table here (default: where auto looks, $FILTERLAB_TUNE, else
                      $XDG_CONFIG_HOME/filterlab/tune/<device>_<driver>.json)
  --no-refine         only the table's keys, not the radii between them where the fastest changes
  --times             also print each key's ranking with its times (median us; a method not timed
                      to the end: ">" its fastest frame at the top clock)
  --quiet             no progress line
)";

struct TuneRequest {
  bench::TuneOptions tune;
  std::optional<std::filesystem::path> output;
  bool quiet = false;
  bool times = false;
};

// "<family> fp16 radius 4: comp.a 55.7, comp.b 57.0 (+2%), comp.c >91.2": each key's cases, fastest first.
void print_times(const bench::TuneResult& result) {
  std::map<std::tuple<std::string, std::string, int>, std::vector<const bench::TuneCase*>> keys;
  std::vector<std::tuple<std::string, std::string, int>> order;
  for (const bench::TuneCase& c : result.cases) {
    const auto key = std::make_tuple(c.family, c.precision, c.key);
    if (!keys.count(key)) order.push_back(key);
    keys[key].push_back(&c);
  }
  for (const auto& key : order) {
    std::vector<const bench::TuneCase*>& cases = keys[key];
    std::stable_sort(cases.begin(), cases.end(), [](const bench::TuneCase* a, const bench::TuneCase* b) {
      return a->abandoned != b->abandoned ? !a->abandoned : a->us < b->us;
    });
    const filters::Family& family = filters::registry().family(std::get<0>(key));
    const filters::Param* size = family.size_param();
    std::string line = std::get<0>(key) + " " + std::get<1>(key) +
                       (size ? " " + size->name + " " + std::to_string(std::get<2>(key)) : "") + ":";
    const double best = cases.front()->us;
    char text[96];
    for (const bench::TuneCase* c : cases) {
      if (c->abandoned) std::snprintf(text, sizeof text, " %s >%.1f,", c->method.c_str(), c->us);
      else if (c == cases.front()) std::snprintf(text, sizeof text, " %s %.1f,", c->method.c_str(), c->us);
      else
        std::snprintf(text, sizeof text, " %s %.1f (+%.0f%%),", c->method.c_str(), c->us,
                      100 * (c->us / best - 1));
      line += text;
    }
    line.pop_back();
    std::printf("%s us\n", line.c_str());
  }
}

std::string duration(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%d:%02d", int(seconds) / 60, int(seconds) % 60);
  return text;
}

int run_tune_command(const TuneRequest& request) {
  std::optional<ProgressLine> line;
  auto progress = [&](const bench::TuneProgress& p) {
    if (!line) line.emplace(p.planned, request.quiet);
    line->print(p.done, std::max(p.planned, p.done), p.label, p.elapsed_s, p.estimate_left_s);
  };
  const std::vector<const filters::Family*> families = bench::tune_families(request.tune.families);
  bench::TuneResult result = bench::run_tune(request.tune, progress);
  line.reset();
  if (!request.tune.size && bench::is_cpu_device(result.device))
    std::printf("note: %s is a CPU device: tuned at %ux%u in CPU time, which says little about a GPU\n",
                result.device.name.c_str(), result.size.width, result.size.height);
  // What auto read before this table, by family and precision, and this device's own table then (an
  // unreadable one is replaced, and said).
  bench::TablesBefore before;
  std::optional<filters::TuneTable> earlier;
  const std::filesystem::path where_auto_looks = filters::tune_path(result.device);
  const std::filesystem::path path = request.output.value_or(where_auto_looks);
  try {
    for (const filters::Family* f : families)
      for (const char* precision : {"fp16", "fp32"})
        before[{f->name, precision}] = filters::table_for(*f, result.device, precision);
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) earlier = filters::read_tune_table(path);
  } catch (const std::exception& e) {
    std::printf("note: the table there could not be read (%s): replaced\n", e.what());
  }
  // A run of some families, precisions or keys keeps the rest of this device's table.
  filters::TuneTable table = result.table;
  if (earlier && earlier->device == result.device.name) {
    size_t kept = 0;
    table = bench::merged_table(result.table, *earlier, !request.tune.keys.empty(), kept);
    if (kept) std::printf("kept %zu entries of the table before (what this run did not time)\n", kept);
  }
  filters::write_tune_table(table, path);

  size_t abandoned = 0, refined = 0;
  for (const bench::TuneCase& c : result.cases) {
    abandoned += c.abandoned;
    refined += c.refined;
  }
  std::printf(
      "tuned on %s (%s) at %ux%u in %s: %zu cases, %zu not timed to the end (over %.1fx the best at "
      "their key), %zu at radii between the keys\n",
      result.device.name.c_str(), result.device.driver_info.c_str(), result.size.width, result.size.height,
      duration(result.seconds).c_str(), result.cases.size(), abandoned, request.tune.abandon_ratio, refined);
  for (const std::string& note : result.notes) std::printf("note: %s\n", note.c_str());
  if (request.times) print_times(result);
  const std::vector<std::string> changes = bench::table_changes(result, before);
  if (changes.empty()) std::printf("the fastest methods are those of the tables in force before\n");
  else std::printf("changed against the tables in force before (%zu):\n", changes.size());
  for (const std::string& change : changes) std::printf("  %s\n", change.c_str());
  if (path == where_auto_looks)
    std::printf("table: %s (auto on this device reads it)\n", path.string().c_str());
  else
    std::printf(
        "table: %s (auto reads it with FILTERLAB_TUNE=%s; without --output, tune writes where auto "
        "looks: %s)\n",
        path.string().c_str(), path.string().c_str(), where_auto_looks.string().c_str());
  return validation_exit_code(result.validation_messages);
}

Work prepare(Args& args) {
  TuneRequest request;
  bench::TuneOptions& t = request.tune;
  DeviceOptions gpu = default_device_options(args);
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--filter") {
      t.families = split_list(flag, args.value());
    } else if (flag == "--precision") {
      t.precisions.clear();
      for (const std::string& p : split_list(flag, args.value())) {
        if (p != "fp16" && p != "fp32") throw UsageError(flag + " wants fp16 or fp32, got '" + p + "'");
        t.precisions.push_back(p);
      }
    } else if (flag == "--size") {
      t.size = parse_size(args.value());
    } else if (flag == "--keys") {
      t.keys.clear();
      for (const std::string& key : split_list(flag, args.value()))
        t.keys.push_back(int(parse_count(flag, key, 0, 1 << 20)));
      std::sort(t.keys.begin(), t.keys.end());  // in order, once each: the refinement walks between them
      t.keys.erase(std::unique(t.keys.begin(), t.keys.end()), t.keys.end());
    } else if (flag == "--frames") {
      t.frames = parse_count(flag, args.value(), 1, 100000);
    } else if (flag == "--output") {
      request.output = args.output_file();
    } else if (flag == "--no-refine") {
      t.refine = false;
    } else if (flag == "--quiet") {
      request.quiet = true;
    } else if (flag == "--times") {
      request.times = true;
    } else if (!parse_device_flag(args, gpu)) {
      args.unknown();
    }
  }
  try {
    bench::tune_families(t.families, t.keys);  // unknown, without auto, keys outside: before any device
  } catch (const filters::ChainError& e) {
    throw UsageError(std::string(t.keys.empty() ? "--filter: " : "--filter, --keys: ") + e.what());
  }
  if (!request.output)  // where auto looks: its folder must take a file, checked now
    check_folder_can_take_files("--output", filters::tune_path({}).parent_path());
  t.device = gpu.device;
  t.validation = gpu.validation;
  t.shader_dir = gpu.shader_dir;
  t.glsl_dir = gpu.glsl_dir;
  vk::check_shader_files({t.shader_dir, t.glsl_dir});
  return [request] { return run_tune_command(request); };
}

}  // namespace

const Command& tune_command() {
  static const Command command{"tune", kSynopsis, kOptions, Command::kDeviceOptions | Command::kNamesFilters,
                               prepare};
  return command;
}

}  // namespace filterlab::app
