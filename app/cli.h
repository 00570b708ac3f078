#pragma once
// Command-line parsing. Any problem throws UsageError, which main() turns into one line and
// exit code 2.
#include "bench/bench.h"
#include "filters/chain.h"
#include "io/image_files.h"
#include "runtime/headless_runner.h"
#include "window_app.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::app {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Command {
  Evaluate,
  Help,
  Version,
  Run,
  Info,
  ListFilters,
  Methods,
  Filter,
  Bench,
  Quality,
  Compare,
  Report
};

// Where SPIR-V comes from and which device runs: shared by every command that touches the GPU.
struct DeviceOptions {
  std::string device;
  bool validation = false;
  std::filesystem::path shader_dir;
  std::optional<std::filesystem::path> glsl_dir;
};

struct MethodsOptions {
  bool json = false;
};

// `filterlab filter`: one image file through one method of one family.
struct FilterOptions {
  std::filesystem::path input, output;
  filters::FilterStep step;  // what --filter, --method, --param and the shorthands spell
  bool raw = false;
  // --png-format: the PNG outputs' channels and bits; unset: the input's (a gray 16-bit PNG stays one)
  std::optional<io::PngLayout> png;
  // --capture NAME=FILE: more images of the step's graph (a second output beside the first), each
  // written like the output.
  std::vector<runtime::Capture> captures;
};

// `filterlab evaluate`: a family's evaluation (filters::Evaluation) on scene sequences against
// supersampled references.
struct EvaluateOptions {
  std::string filter;                          // empty until parsed: the first family that offers one
  std::optional<std::filesystem::path> scene;  // a glTF scene in place of the built-in one
  std::optional<std::string> scene_camera;     // one of its cameras
  VkExtent2D size{320, 180};
  uint32_t frames = 32;
  uint32_t grid = 8;  // the reference: grid x grid sub-pixel offsets a frame
  std::optional<std::filesystem::path> json;
};

// `filterlab quality`: the paper's quality tables, every method against frag.full2d on the scene.
struct QualityOptions {
  VkExtent2D size{1280, 720};
  std::vector<int> radii = {1, 2, 3};  // 3x3, 5x5, 7x7
  std::optional<std::filesystem::path> markdown, json;
  std::optional<std::filesystem::path> image;  // a photograph in place of the scene
  std::optional<std::filesystem::path> scene;  // a glTF scene in place of the built-in one
  std::optional<std::string> scene_camera;     // one of its cameras
};

// `filterlab compare A B`: metrics of two image files.
struct CompareOptions {
  std::filesystem::path a, b;
  std::optional<std::filesystem::path> json, diff;
  double gain = 0;    // heat map gain; 0: the largest difference is white
  bool alpha = true;  // when both images have alpha, it counts as a fourth channel
};

struct CliOptions {
  Command command = Command::Help;
  std::string help_command;  // `filterlab COMMAND --help`: that command's help; empty: all of it
  bool headless = false;
  runtime::RunOptions run;
  WindowOptions window;  // run without --headless
  std::string info_device;
  bool info_validation = false;
  std::optional<std::filesystem::path> info_json;
  DeviceOptions gpu;  // methods, filter, bench, quality
  MethodsOptions methods;
  FilterOptions filter;
  bench::BenchOptions bench;
  std::optional<std::filesystem::path> bench_json, bench_csv;
  bool quiet = false;
  QualityOptions quality;
  EvaluateOptions evaluate;
  CompareOptions compare;
  std::vector<std::filesystem::path> report_inputs;  // filterlab report A.json [B.json ...] --out F
  std::filesystem::path report_out;
  std::vector<std::filesystem::path> report_capture_roots;  // --captures-from DIR (repeatable)
};

// args excludes argv[0]. exe_dir locates the SPIR-V next to the binary by default.
CliOptions parse_cli(const std::vector<std::string>& args, const std::filesystem::path& exe_dir);
std::string usage_text();  // the options, then every family with its methods and parameters
std::string usage_body();  // the options alone
std::string command_help(const std::string& command);  // `filterlab COMMAND --help`
// Every family, its methods and its parameters, from the registry (`filterlab filters`, --help).
// method_lines: each method on a line of its own with its description (`filterlab filters`).
std::string families_text(bool method_lines);

// Value parsers, exposed for tests.
VkExtent2D parse_size(const std::string& text, const std::string& flag = "--size");  // flag: errors name it
uint32_t parse_count(const std::string& flag, const std::string& text, uint32_t min, uint32_t max);

}  // namespace filterlab::app
