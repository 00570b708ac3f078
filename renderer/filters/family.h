#pragma once
// What a filter family declares, in its own folder (renderer/filters/<family>/), and registers with
// one line in registry.cpp. Everything above the graph (chains, `filter`, `methods`, `bench`,
// `quality`, the panel, the help text, the tests) loops over the registry and reads these
// declarations; no code outside a family's folder names it.
//
//   a family    name, description, parameter schema, extra inputs, CPU reference, methods, test points
//   a parameter name, type, range or choices, default (or one derived from other parameters), unit,
//               one line of help, the methods that take it
//   a method    name, stage, exact or not (with its error bound), passes, cost per pixel, availability
//               and per-parameter limits on a device (with the reason), and how to build its passes
#include "common/reference.h"
#include "common/roi.h"
#include "graph/graph.h"
#include "passes/pass_env.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace filterlab::passes {
struct CameraFeed;
}

namespace filterlab::filters {

struct Family;

// A chain, a step or a parameter that cannot be accepted: bad input, exit code 2.
class ChainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- parameters -----------------------------------------------------------------------------------

enum class ParamType {
  Integer,  // whole number in [min, max]
  Number,   // finite real in [min, max]
  Choice,   // one of `choices`
  Region,   // a rectangle: x,y,w,h or WxH+X+Y (common/roi.h); no default
};

class ParamValues;

struct Param {
  std::string name;
  ParamType type = ParamType::Integer;
  double min = 0, max = 0;           // Integer and Number
  std::vector<std::string> choices;  // Choice
  // Choice: a value ending in one of these (".pfm") is also accepted, as a file's path; the family's
  // `check` reads the file.
  std::vector<std::string> file_extensions;
  std::string fallback;  // the default, as text; empty for a Region or a derived default
  // A default computed from the other parameters (sigma from the radius), and how to describe it.
  std::function<double(const ParamValues&)> derived;
  std::string derived_text;
  std::string unit;               // "px", or empty
  std::string help;               // one line
  std::set<std::string> methods;  // the methods that take it; empty: every method
  bool log_scale = false;         // the panel's slider
  // The parameter the filter's reach grows with (a window's radius), at most one a family: `bench`
  // sweeps it by default, `quality` tables by it, `auto` is keyed on it, and Support::max_size
  // limits it.
  bool is_size = false;
  bool takes(const std::string& method) const { return methods.empty() || methods.count(method) > 0; }
  std::string range_text() const;                   // "1..32", "fp16|fp32", "x,y,w,h or WxH+X+Y"
  bool names_file(const std::string& value) const;  // ends in one of file_extensions
};

// The common kinds, in one line each: a choice (its default among the choices) and a number or a
// whole number in [min, max] (default `fallback`, or empty where the family sets a derived one).
Param choice_param(std::string name, std::vector<std::string> choices, std::string fallback,
                   std::string help);
Param number_param(std::string name, double min, double max, std::string fallback, std::string help);
Param integer_param(std::string name, int min, int max, std::string fallback, std::string help);

// A step's parameters once checked against the schema: every parameter of the family, given or
// defaulted (one its method does not take always has its default). Throws std::out_of_range for a
// name the schema does not have.
class ParamValues {
 public:
  int integer(const std::string& name) const;
  // The family's size parameter (Param::is_size: a window's radius), for code shared by families;
  // throws std::out_of_range where the family has none.
  int size() const;
  const std::string& size_name() const { return size_name_; }  // empty: none
  void set_size_param(std::string name) { size_name_ = std::move(name); }
  double number(const std::string& name) const;  // Integer or Number
  const std::string& choice(const std::string& name) const;
  std::optional<common::Roi> region(const std::string& name) const;
  bool given(const std::string& name) const { return given_.count(name) > 0; }  // not defaulted
  // The given values as `key=value`, in the order they were given (a chain step's spelling), and
  // as (key, value) pairs, to give another method of the family the same parameters.
  std::string spec() const;
  std::vector<std::pair<std::string, std::string>> given_pairs() const;

  using Value = std::variant<std::monostate, int, double, std::string, common::Roi>;
  void set(const std::string& name, Value value, bool given);
  const std::map<std::string, Value>& values() const { return values_; }

 private:
  const Value& at(const std::string& name) const;
  std::map<std::string, Value> values_;
  std::set<std::string> given_;
  std::vector<std::string> order_;
  std::string size_name_;
};

// ---- methods --------------------------------------------------------------------------------------

enum class Stage { Fragment, Compute, Transfer };
const char* stage_name(Stage stage);  // "fragment", "compute", "transfer"

// Design cost per output pixel.
struct MethodCost {
  double fetches = 0;        // texture or image reads from device memory (or its caches)
  double shared_reads = 0;   // shared-memory loads
  double shared_writes = 0;  // shared-memory stores
};

// Whether a method runs on a device for these parameters, and the largest value of its family's
// size parameter it serves there (a radius of 16 on a device with 32 KiB of shared memory, say).
struct Support {
  std::string reason;           // empty: available
  std::optional<int> max_size;  // none: what the schema allows
  bool available() const { return reason.empty(); }
};

// The images and per-frame facts a step may read besides the previous step's image. A context that
// has no scene (`filterlab filter` on a still image) leaves depth and motion empty; the camera is
// then a fixed one whose history is invalid on the first frame (passes/camera_feed.h).
struct FilterInputs {
  std::string color;                           // the previous step's image
  std::string depth, motion;                   // the scene's, or empty
  const passes::CameraFeed* camera = nullptr;  // this frame's camera; never null in a chain
};

// What a family reads beyond the previous step's image. A step whose family needs depth or motion
// is refused where the context has none.
// Jitter: the scene's sub-pixel camera jitter must be on (a chain with the family turns it on).
enum class Input { Depth, Motion, Camera, History, Jitter };
const char* input_name(Input input);

// A built chain step: declares its images and passes. It owns what its passes use (buffers), so it
// must outlive the frames that record them.
class Filter {
 public:
  virtual ~Filter() = default;
  // Declares the step's images and passes; returns the image that continues the chain, named
  // `name`. Other images it declares are named `name.<something>`; a step that writes several
  // (variance: name.mean and name.stddev) makes `name` an alias of the one that continues.
  virtual std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                             const std::string& name) = 0;
};

struct FilterEnv {
  const passes::PassEnv& pass_env;
  const ParamValues& params;
};

struct Method {
  std::string name;  // "comp.tiled": the stage first
  Stage stage = Stage::Compute;
  bool exact = true;  // false: hardware bilinear weights, coarse derivatives, half arithmetic...
  // An approximate method's error bound against the reference (max |error| on inputs in [0, 1)),
  // which the registry's reference test holds it to; none: wrong by design and tested apart.
  std::optional<double> bound_fp32, bound_fp16;
  int passes = 1;
  std::string description;
  std::function<MethodCost(const ParamValues&)> cost;
  std::function<Support(const vk::Context&, const ParamValues&)> support;
  std::function<std::unique_ptr<Filter>(const FilterEnv&)> create;
  // What this method reads beyond its family's inputs (bigblur's temporal method: motion, history).
  std::vector<Input> inputs;
  // The method's own limit on the image it filters (fft.vkfft: its transform's size), checked with the
  // family's check_extent: throws ChainError. Empty: none.
  std::function<void(const ParamValues&, uint32_t width, uint32_t height)> check_extent;
  // A method that runs another of its family's (`auto`): which one, for a step's parameters on a
  // device. Empty: the method runs itself.
  std::function<const Method*(const ParamValues&, const vk::Context&)> runs;
  bool needs(Input input) const;
};

// ---- what the tools do with a family -------------------------------------------------------------

// `filterlab quality` tables a family (the paper's tables 1-4): every method against `baseline`, by
// its size parameter, on the scene. Empty baseline: not tabled.
struct QualityTables {
  std::string baseline;
  // Its columns: a label and the parameters each is measured at (variance: "VC" at output=mean, the
  // paper's figure 10, and "VC stddev" at output=stddev). Empty: one column, the family's name, at
  // the defaults.
  struct Column {
    std::string label, params;
  };
  std::vector<Column> columns;
  // Two parameter sets compared with the baseline method at each size (the tent's separable kernel
  // (5) against its rank-2 kernel (6)).
  struct Pair {
    std::string label, params_a, params_b;
  };
  std::vector<Pair> pairs;
};

struct BenchSetup {
  // `bench` divides every time by the fastest of this family's methods, timed on the same inputs in
  // the same run: the memory floor. One family in a registry says so (filters/copy).
  bool memory_floor = false;
  // Timed and measured on the tonemapped scene (the `final` image rendered at the bench's size, RGB
  // in [0, 1]) rather than on random images, whose blur measures nothing.
  bool on_scene = false;
  // Errors measured against this method of the family, run on the GPU, rather than against the CPU
  // reference, which large kernels at 4K make too slow (the registry's test holds the method to
  // that reference).
  std::string reference_method;
  // The values of the size parameter `filterlab tune` times (auto's table keys; it adds the values
  // between two where the fastest method changes). Empty: 1, 2, 3, 4, 8, 16 and 32 within the
  // parameter's range; a family without a size parameter has the one key 0.
  std::vector<int> tune_keys;
};

// `filterlab evaluate`: labelled chains run on the scene's sequences (still, orbit, moving) against
// supersampled references (app/evaluate.cpp), for a filter whose quality shows over frames. A config
// may carry the value of `plotted_param` it runs at: the report plots the last frame's PSNR and the
// still sequence's flicker against it.
struct Evaluation {
  struct Config {
    std::string label, chain;       // an empty chain: the scene unfiltered and unjittered
    std::optional<double> plotted;  // the config's value of plotted_param
  };
  std::string title;                                               // "TAA"
  std::string plotted_param;                                       // "gamma"; empty: no such plots
  // Those the device runs; `family` is the registry's (with its `auto`).
  std::function<std::vector<Config>(const Family& family, const vk::Context&)> configs;
};

// `filterlab evaluate --filter <evaluated>` adds a row for this family's chain at its defaults (a
// spatial anti-aliasing beside a temporal one's configurations), so that the evaluated family's
// configurations need not know of it.
struct EvaluationBaseline {
  std::string evaluated;  // the family whose evaluation takes the row
  std::string label;      // the row's configuration label
};

struct FamilyTools {
  QualityTables quality;
  BenchSetup bench;
  // What auto's tables (filters/auto_method.h) are keyed on, from a step's parameters. Empty: the size
  // parameter (0 for a family without one). A family whose size is not one parameter derives it (a kernel
  // file's side).
  std::function<int(const ParamValues&)> auto_key;
  std::optional<Evaluation> evaluation;
  std::optional<EvaluationBaseline> evaluation_baseline;
};

// A definition that takes hard decisions (a threshold, a search that stops where a value crosses
// one): where an input puts a pixel within rounding of one, the GPU's float arithmetic may decide
// the other way than the reference's double, legitimately, and that pixel's value then differs by
// far more than rounding. The registry's reference test leaves out the pixels whose margin is below
// `epsilon`, asserts they are at most `max_fraction` of each image, and holds the rest to the
// family's tolerances.
struct Decisions {
  // Per pixel, row-major: the smallest |quantity - threshold| of the decisions the reference takes
  // there on this input, in the units the family compares (not scaled with the input's range);
  // infinity where none could go either way.
  std::function<std::vector<double>(const io::ImageF& input, const ParamValues&)> margins;
  double epsilon = 0;
  double max_fraction = 0.01;
};

// ---- families -------------------------------------------------------------------------------------

struct Family {
  std::string name, description;
  std::vector<Param> params;
  std::vector<Input> inputs;  // beyond the previous step's image
  std::vector<Method> methods;
  std::string default_method;  // what a step naming no method gets; empty: a method must be named
  // Cross-parameter and derived checks (a sigma whose weights underflow, a ROI pair of two sizes):
  // throws ChainError naming the parameter.
  std::function<void(const ParamValues&)> check;
  // Checks the parameters against the size of the image the step filters (a ROI must lie inside
  // it); throws ChainError naming the parameter. Run before any GPU work wherever the size is known
  // (filter, run, the window before an edit and after a resize). Empty: any size will do.
  std::function<void(const ParamValues&, uint32_t width, uint32_t height)> check_extent;
  // The double-precision CPU reference of the family's definition, clamp-to-edge border, on the
  // first min(channels, 4) channels.
  std::function<common::ImageD(const io::ImageF& input, const ParamValues&)> reference;
  // The registry's reference test runs every method at each of these points ("radius=3:kernel=box")
  // on odd sizes, and holds exact methods to these bounds (max |error| on inputs in [0, 1)).
  std::vector<std::string> test_points;
  double tolerance_fp32 = 1e-5, tolerance_fp16 = 0;
  // A bound of its own for some steps (variance: the standard deviation, whose square root
  // magnifies the variance's rounding near 0): (params, fp16) -> bound; empty: the two above.
  std::function<double(const ParamValues&, bool fp16)> tolerance_for;
  // Where the definition takes hard decisions: the margins the reference test leaves pixels out by.
  std::optional<Decisions> decisions;
  // What the tools do with the family, beside what the filter is.
  FamilyTools tools;

  const Method* find(const std::string& method) const;
  // The method so named, or a ChainError naming the methods (and the closest, if one is near).
  const Method& method(const std::string& name) const;
  const Param* param(const std::string& name) const;
  const Param* size_param() const;  // the one marked is_size, or none
  bool needs(Input input) const;
  std::string method_names() const;  // "comp.a comp.b ..."
};

}  // namespace filterlab::filters
