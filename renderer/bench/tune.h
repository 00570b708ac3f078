#pragma once
// `filterlab tune`: the table `auto` reads on this device (filters/auto_method.h). Every exact method
// of each family with `auto`, at its table's keys (BenchSetup::tune_keys) and both precisions, timed
// on the GPU as bench times them (bench/timing.h) but for a ranking rather than a record: the clock,
// once settled, is only watched (a case waits only where its probe says the clock fell), and a
// method whose every frame so far, at the top clock, is over abandon_ratio x the best at its key is
// not timed further (after three frames; after one, where it took over 3x the best). Between two keys whose
// fastest methods differ, the values between are timed (halving the gap) until the radius where it changes is
// found.
#include "bench/timing.h"
#include "filters/auto_method.h"
#include "filters/registry.h"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::bench {

inline constexpr VkExtent2D kGpuTuneSize{3840, 2160};
// A CPU device (lavapipe) times every case in CPU time: a small size keeps the run to minutes.
inline constexpr VkExtent2D kCpuTuneSize{256, 144};

struct TuneOptions {
  std::vector<std::string> families;  // empty: every family with auto
  std::vector<std::string> precisions = {"fp16", "fp32"};
  std::optional<VkExtent2D> size;  // none: kGpuTuneSize on a GPU, kCpuTuneSize on a CPU device
  std::vector<int> keys;           // the size parameter's values to time; empty: each family's tune_keys
  uint32_t frames = 30;            // timed frames of a method not abandoned
  double abandon_ratio = 1.5;
  bool refine = true;                           // the keys between two whose fastest methods differ
  const filters::Registry* registry = nullptr;  // none: the built-in families (a test brings its own)
  std::string device;
  bool validation = false;
  std::filesystem::path shader_dir;
  std::optional<std::filesystem::path> glsl_dir;
};

struct TuneCase {
  std::string family, precision, method;
  int key = 0;
  bool refined = false;    // a key between the table's, timed where the fastest method changes
  double us = 0;           // the median; abandoned: the fastest frame at the top clock (a bound from below)
  bool abandoned = false;  // over abandon_ratio x the best at the key
  bool clock_settled = true;
};

struct TuneProgress {
  size_t done = 0, planned = 0;  // cases; refining adds to the plan as it goes
  std::string label;
  double elapsed_s = 0, estimate_left_s = 0;
};

struct TuneResult {
  vk::DeviceReport device;
  VkExtent2D size{};
  filters::TuneTable table;
  std::vector<TuneCase> cases;
  std::vector<std::string> notes;  // what could not be tuned, and why
  double seconds = 0;
  uint32_t validation_messages = 0;
};

// The families `tune` measures: `names`, or every family with auto. Throws filters::ChainError (a
// usage error, before any device is opened) for an unknown family or one without auto, and for keys
// outside a family's size parameter or given to a family without one.
std::vector<const filters::Family*> tune_families(const std::vector<std::string>& names,
                                                  const std::vector<int>& keys = {},
                                                  const filters::Registry& registry = filters::registry());
// A family's keys: BenchSetup::tune_keys, else 1, 2, 3, 4, 8, 16 and 32 within its size parameter's
// range; 0 without one.
std::vector<int> tune_keys(const filters::Family& family);

TuneResult run_tune(const TuneOptions& options,
                    const std::function<void(const TuneProgress&)>& progress = {});

// The table in force before, by family and precision.
using TablesBefore = std::map<std::pair<std::string, std::string>, filters::TableInForce>;
// What `tune` changed against `before`: one line per family, precision and key whose fastest method
// differs, e.g. "<family> fp16 radius 32: <method> (was <method>; built-in for another device: NAME)".
std::vector<std::string> table_changes(const TuneResult& result, const TablesBefore& before);

// `result`'s table with what `earlier` (this device's table before) holds that the run did not time:
// other families and precisions, and with only some keys timed, the other keys. Counts what it kept.
filters::TuneTable merged_table(const filters::TuneTable& result, const filters::TuneTable& earlier,
                                bool only_some_keys, size_t& kept);

}  // namespace filterlab::bench
