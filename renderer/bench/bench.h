#pragma once
// `filterlab bench`: every requested method of one family x parameter point x size x precision,
// timed on the GPU with rotated resident inputs, beside the copy family's methods measured in the
// same run (the fastest compute copy is the memory floor every ratio divides by; the fragment copy's
// ratio says what a fragment pass costs on the device), and checked against
// the family's double-precision CPU reference on one frame.
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "runtime/stats.h"
#include "vk/context.h"
#include "vk/pipeline_statistics.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::bench {

// One swept parameter: `--sweep sigma=4,8,16`, or `--radii 1,2,4` for the family's size parameter.
struct Sweep {
  std::string param;  // kSizeSweep: the family's size parameter (Param::is_size), where it has one
  std::vector<std::string> values;
};
inline const std::string kSizeSweep;

struct BenchOptions {
  std::string filter;                // the family timed (empty: the registry's default family)
  std::vector<std::string> methods;  // empty: every method (unavailable ones are skipped with the reason)
  std::vector<Sweep> sweeps = {{kSizeSweep, {"1", "2", "3", "4", "8", "16", "32"}}};  // their product
  std::vector<filters::RawParam> params;  // fixed for every case (`--param kernel=box`)
  std::vector<VkExtent2D> sizes = {{3840, 2160}};
  // The scene the families measured on the scene (FamilyTools::bench.on_scene) run on: a glTF
  // (--scene, --scene-camera) in place of the built-in one.
  std::optional<std::filesystem::path> scene;
  std::optional<std::string> scene_camera;
  std::vector<std::string> precisions = {"fp16"};
  uint32_t frames = 100;  // timed frames per case
  uint32_t warmup = 20;   // at least this many warm-up frames per case...
  // ...and at least this long: GPUs idle at low clocks (an H200 at 345 MHz) and take a while to
  // ramp up after the CPU-side gaps between cases, which a few short frames do not cover.
  uint32_t warmup_ms = 500;
  uint32_t inputs = 3;  // resident input images, rotated every frame
  // Each case timed this many times, each with instances of its own (its images and buffers
  // allocated anew): a spread of their medians over kMaxSpread marks the case unstable.
  uint32_t repeats = 1;
  bool measure_error = true;
  // Where to write, per case, the top-left 128x128 of the output (values as stored, 0..1 -> 0..255)
  // and a heat map of |output - reference| (an error of 1/256 is white), for the report. Needs
  // measure_error.
  std::optional<std::filesystem::path> captures_dir;
  uint32_t ssim_crop = 1024;  // SSIM over the centred crop of at most this size (it costs O(pixels))
  std::string device;
  bool validation = false;
  std::filesystem::path shader_dir;
  std::optional<std::filesystem::path> glsl_dir;
};

// A case's medians over its repeats, spread = (largest - smallest) / smallest: above kMaxSpread the
// number is not one number (an allocation's placement, clocks, the work before it).
inline constexpr double kMaxSpread = 0.10;
struct Stability {
  double spread = 0;
  bool unstable = false;
};
Stability stability(const std::vector<double>& medians_us, double max_spread = kMaxSpread);

// A run's frames hold one level when few of them lie far from their median: with more than
// kMaxOffLevel of them further than runtime::kLevelBand from it (Summary::off_level), the device
// changed speed while the run went on (issue #36: fft.vkfft's frames on the H100 stepped between
// levels within one run, its buffers, plans and pipelines the same throughout), and its median is
// of no one level. Under kMinLevelFrames frames there is no verdict: one stray frame would decide it.
inline constexpr double kMaxOffLevel = 0.10;
inline constexpr size_t kMinLevelFrames = 20;
bool unsteady(const runtime::Summary& frames, double max_off_level = kMaxOffLevel);

struct CaseError {
  double max_abs = 0, mse = 0, ssim = 0;
};

using vk::PipelineReport;

// What auto ran at a point where bench also timed the exact methods it could pick (mark_auto).
struct AutoMark {
  std::string chose;    // the method auto ran
  std::string table;    // the table it read (filters::TableInForce::said)
  std::string fastest;  // the fastest exact method at the point, in this run
  double fastest_us = 0;
  double ratio = 0;  // auto's median over the fastest's
};

struct CaseResult {
  std::string filter, method, stage;  // the copy family's cases measure the memory floor
  bool exact = true;
  std::string params;  // the case's given parameters as a chain step spells them
  // Every parameter of the family's schema that the method takes, typed, defaults included: one
  // key each in the JSON.
  std::vector<std::pair<std::string, filters::ParamValues::Value>> values;
  std::string precision;
  VkExtent2D size{};
  runtime::Summary gpu_us;                // per frame: the sum of the method's passes (the first repeat's)
  std::vector<double> repeat_medians_us;  // every repeat's median, the first included
  Stability stability;
  runtime::Summary least_steady_run;  // of its runs' frame times, the one with the most off their level
  // How closely that run's frame times followed its clock probes (clock_correlation, clock_watch.h).
  double least_steady_clock_correlation = 0;
  std::vector<std::pair<std::string, double>> pass_median_us;
  // The clock (clock_watch.h): the probe's median over the timed frames (the first repeat's), the
  // run's fastest probe over it (1: the top clock), whether every repeat's warm-up found the clock at
  // the top (false: it stopped at kSettleLimitMs), and how long the first warm-up took.
  double clock_probe_us = 0, clock_share = 0;
  bool clock_settled = true;
  double warmup_ms = 0;
  double gpixels_per_s = 0;
  double copy_ratio = 0;  // median / the floor: the fastest compute copy at the same size and precision
  bool floor = false;     // this copy is that fastest one
  filters::MethodCost cost;
  std::optional<CaseError> error;
  // A method that accumulates over frames (it reads its history): its error after 1, 4, 16 and 64
  // frames of a fresh run on the still input.
  std::vector<std::pair<uint32_t, CaseError>> error_after_frames;
  std::vector<PipelineReport> pipelines;
  std::optional<std::filesystem::path> capture, diff;  // written when BenchOptions::captures_dir is set
  std::optional<AutoMark> auto_mark;                   // auto's case, beside the methods it picks from
};

struct Skipped {
  std::string method;
  std::string params;
  std::vector<std::pair<std::string, filters::ParamValues::Value>> values;  // as CaseResult's
  VkExtent2D size{};
  std::string precision;  // a method may serve one precision and not the other
  std::string reason;
};

struct Progress {
  size_t index = 0, total = 0;  // case index (1-based) of total
  std::string label;
  double elapsed_s = 0, estimate_left_s = 0;
};

struct BenchResult {
  vk::DeviceReport device;
  std::vector<CaseResult> cases;
  std::vector<Skipped> skipped;
  std::vector<Sweep> sweeps;  // as run: kSizeSweep named, or gone where the family has no size
  uint32_t validation_messages = 0;
  double clock_probe_us = 0;  // the run's fastest probe: the top clock (clock_watch.h)
  size_t unstable_cases() const;
};

// Throws filters::ChainError for an unknown family, method or parameter (a usage error), before any
// GPU work.
BenchResult run_bench(const BenchOptions& options, const std::function<void(const Progress&)>& progress = {});

void write_bench_json(const BenchResult& result, const BenchOptions& options,
                      const std::filesystem::path& path);
void write_bench_csv(const BenchResult& result, const std::filesystem::path& path);
std::string format_bench_table(const BenchResult& result);

// The build's git revision ("unknown" outside a checkout), set when CMake configures.
const char* git_revision();

}  // namespace filterlab::bench
