#pragma once
// The methods every window family shares (a filter whose output at a pixel is a function of the
// (2r+1)^2 texels around it: the tent, the variance statistics, the bilateral). The family writes
// what it sums in one GLSL file and includes filters/common/window.glsl, whose drivers make each
// method of it; here each method becomes a Method of the family's, built from these few facts.
//
//   frag.full2d                 the fetch loop, (2r+1)^2 fetches (the paper's default)
//   frag.quad_derivative        the quad exchange through fine derivatives (section 3.3)
//   frag.quad_derivative_coarse the same with coarse ones: wrong by design (tables 3, 4)
//   comp.full2d_shared          the tile and its apron in shared memory, 16x16 threads
//   comp.quad_subgroup          the quad exchange by subgroup quad swaps
//   comp.quad_derivative        the quad exchange through compute-shader derivatives
//   comp.separable_shared       row sums staged in shared memory, then column sums
//   comp.running                sums sliding down strips and prefix sums along rows, the same work
//                               at every radius, for a window whose sums slide (window_running.glsl)
// A window whose kernel is a sum of separable terms (shaders/filters/common/window_terms.glsl:
// the Gaussian, the tent) declares how many; its methods then sum rows once per term: its fetch
// loops fold row sums, comp.full2d_shared takes tiles of 16 x 16K outputs, and
// comp.separable_shared is two passes (rows, each term to an image of its own; then columns).
#include "filters/common/window_config.h"
#include "filters/family.h"
#include "vk/resources.h"
#include "vk/specialization.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::filters {

struct WindowFamily {
  std::string shaders;     // "filters/tent/tent": the family's <shaders>.frag and <shaders>.comp
  uint32_t acc_vec4s = 1;  // the shader's ACC_VEC4S: the bytes its separable tile stages per sum
  // Sets the family's specialization constants, by the ids its *_config.h names (from
  // WINDOW_FAMILY_CONSTANT, window_config.h).
  std::function<void(const ParamValues&, vk::Specialization&)> constants;
  // The images a step writes, as suffixes of the step's name ("" is the name itself), and which
  // of them continues the chain. Default: one, the name itself.
  std::function<std::vector<std::string>(const ParamValues&)> outputs;
  std::function<size_t(const ParamValues&)> continuing;
  // Why comp.separable_shared cannot compute a step (a window that does not factor); empty: it can.
  std::function<std::string(const ParamValues&)> not_separable;
  int max_radius = 1;  // what the methods without shared memory serve (at most the schema's)
  // > 0: the kernel is a sum of this many separable terms (the shader defines WINDOW_TERMS).
  int terms = 0;
  // The two-pass rows in the output's format rather than fp32: row sums that are weighted means,
  // which keep the output's precision there.
  bool rows_in_output_format = false;
  // A buffer frag.full2d reads at BINDING_FAMILY_DATA, made for the step (the Gaussian's weights:
  // loads in its fetch loop rather than constants behind a switch); empty: none. The shader's
  // full2d variant declares it; the other variants must not.
  std::function<vk::Buffer(const vk::Context&, const ParamValues&)> full2d_data;
  // comp.running, where the family's sums slide: its shader <shaders>_running.comp (the family's
  // column sums and row output, filters/common/window_running.glsl), and what the driver cannot
  // know. Its images are the family's outputs; its cost follows from these counts.
  struct Running {
    std::string description;
    int slide_fetches = 2;    // a column's fetches to move its sums down a row
    int prefixes = 1;         // prefixes a row writes, a column each
    double prefix_reads = 2;  // shared-memory reads of them per output
    // What it needs beyond the subgroup scans (a shape it slides, doubles); empty: nothing.
    std::function<Support(const vk::Context&, const ParamValues&)> support;
    // The radius its sums span, where not the size parameter (a tent whose outer weights are 0).
    std::function<int(const ParamValues&)> radius;
  };
  std::optional<Running> running;
};

// A comp.running method's workgroup (running sums down strips): a thread for each column of a strip
// WINDOW_RUNNING_COLS outputs wide and its apron of r on either side, in whole warps of 32; at most
// WINDOW_RUNNING_MAX_THREADS (window_config.h: group_prefix.glsl keeps a total a subgroup).
constexpr uint32_t running_threads(int r) {
  return (WINDOW_RUNNING_COLS + 2 * uint32_t(r) + 31) / 32 * 32;
}
static_assert(running_threads(WINDOW_RUNNING_MAX_RADIUS) <= WINDOW_RUNNING_MAX_THREADS);

// A comp.running method's strip height: 16 rows up to r = 8, 32 beyond. A walk down a strip waits on
// each row's fetches in turn, so more and shorter strips in flight pay for their first row's extra
// fetches (2r + 1 a column against two); docs/families/variance.md has the measurements.
constexpr int running_rows(int r) {
  return r <= 8 ? 16 : 32;
}

enum class WindowMethod {
  Full2d,
  QuadFine,
  QuadCoarse,
  Shared,
  QuadSubgroup,
  QuadDerivative,
  Separable,
  Running
};

Method window_method(const WindowFamily& family, WindowMethod which);

// The drivers' table, for a family that runs the same methods through passes of its own (the TAA
// resolve): each method's name, where it runs, whether it is exact, the variant of the family's
// shaders it names and how it gathers the window.
struct WindowMethodInfo {
  const char* name;
  Stage stage;
  bool exact;
  const char* variant;  // of the family's .frag, or of its .comp before ".fp16"/".fp32"
  const char* description;
};
WindowMethodInfo window_method_info(WindowMethod which);
// What the quad methods need of a device (a quad exchange in compute); the others: nothing.
Support quad_exchange_support(WindowMethod which, const vk::Context& device);

// The radius every window family takes, named by the family: 1..max_radius, default `fallback`; its
// size parameter, which the methods read.
Param window_radius_param(std::string name, int max_radius, int fallback);

// A window family's reference: out(x, y) = window(values), where values[(j + r)(2r + 1) + i + r]
// is the input at (x + i, y + j) clamped to the edge, every channel up to four; in double.
using WindowFunction = std::function<void(const std::vector<std::array<double, 4>>& values, int radius,
                                          std::array<double, 4>& out)>;
common::ImageD window_reference(const io::ImageF& input, int radius, const WindowFunction& window);

// Every method above but Separable and Running, in that order; with Separable for a window of
// separable terms (another family adds it if its sums factor, and Running where it has one).
std::vector<Method> window_methods(const WindowFamily& family);

}  // namespace filterlab::filters
