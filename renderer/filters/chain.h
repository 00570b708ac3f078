#pragma once
// The filter chain: `--chain SPEC` names the filters applied, in order, between the scene and the
// tonemap.  SPEC := step (',' step)* ;  step := family ['.' method] (':' key '=' value)*
// e.g. "copy" or "gaussian.comp.tiled:radius=8". A step is read in three stages, each with its own
// errors (all ChainError, exit 2): the syntax (parse_chain), the family's schema (resolve: no device
// needed), and the device (check_support, build).
#include "filters/family.h"
#include "filters/registry.h"

#include <string>
#include <utility>
#include <vector>

namespace filterlab::filters {

using RawParam = std::pair<std::string, std::string>;

struct FilterStep {
  std::string filter, method;                                  // method empty: the family's default method
  std::vector<RawParam> params;                                // as written, in order
  std::string text;                                            // as written, for messages
  const std::string* find(const std::string& key) const;       // a raw value, or null
  void set(const std::string& key, const std::string& value);  // replaces or appends
  void erase(const std::string& key);
};

// Syntax only: steps, a family name, key=value pairs, no key twice. Throws ChainError.
std::vector<FilterStep> parse_chain(const std::string& spec);
// A step in --chain syntax.
std::string step_spec(const FilterStep& step);

// A step checked against its family's schema: typed values, every default filled in.
struct ResolvedStep {
  const Family* family = nullptr;
  const Method* method = nullptr;
  ParamValues params;
  std::string text;           // as written
  std::string label() const;  // "gaussian.comp.tiled"
  // The values the step derived rather than was given, with how ("sigma 1.3642: the ideal sigma
  // for the radius ..."), one a line; "" for none. What filter and run print, so a default that is
  // computed is never silent.
  std::string derived_text() const;
  // The family's inputs and the method's own (filters/family.h).
  bool needs(Input input) const { return family->needs(input) || method->needs(input); }
};

// Checks raw pairs against `family`'s schema for `method` (unknown, duplicate, not taken by the
// method, out of range, non-finite; then derived defaults and the family's own checks).
ParamValues parse_params(const Family& family, const Method& method, const std::vector<RawParam>& raw);

// Finds the family and method and parses the parameters; no device needed. Throws ChainError.
ResolvedStep resolve(const FilterStep& step, const Registry& registry = filters::registry());
void check_chain(const std::vector<FilterStep>& steps, const Registry& registry = filters::registry());
// The family's and the method's checks against the size of the image the step filters.
void check_extent(const ResolvedStep& step, uint32_t width, uint32_t height);
// check_chain, and each step's parameters against the size of the images it will filter.
void check_chain(const std::vector<FilterStep>& steps, uint32_t width, uint32_t height,
                 const Registry& registry = filters::registry());

// Whether the device runs the step's method with its parameters: the method's availability and
// per-parameter limits. Throws ChainError naming what is missing or the limit.
Support device_support(const ResolvedStep& step, const vk::Context& device);
void check_support(const ResolvedStep& step, const vk::Context& device);

// Checks the device's support, then builds the step's passes.
std::unique_ptr<Filter> build_filter(const ResolvedStep& step, const passes::PassEnv& env);

// A chain's built steps. The images are named after the step's family ("copy", then "copy.2" for a
// second one), after `prefix`. A step whose family reads depth or motion is refused where
// `inputs` has none. Returns the image that ends the chain (inputs.color when there are no steps).
std::string add_chain(graph::RenderGraph& graph, const passes::PassEnv& env, const FilterInputs& inputs,
                      const std::vector<FilterStep>& steps, const std::string& prefix,
                      std::vector<std::unique_ptr<Filter>>& built,
                      const Registry& registry = filters::registry());

// The image each step of a chain writes, as add_chain names them: "copy", "copy.2", after `prefix`.
// A step's other images are named "<its name>.<something>".
std::vector<std::string> step_image_names(const std::vector<FilterStep>& steps,
                                          const std::string& prefix = "");
// Throws ChainError for a step that reads the scene's depth or motion where the run has none (a
// still image): before any device is opened where the inputs are known.
void check_scene_inputs(const ResolvedStep& step, bool has_depth, bool has_motion);
// Every step of `steps` against what a still image offers (no depth, no motion): ChainError.
void check_steps_on_still_image(const std::vector<FilterStep>& steps);

// Whether a step of `steps` belongs to a family that reads `input` (a chain with TAA turns the
// scene's jitter on).
bool chain_needs(const std::vector<FilterStep>& steps, Input input,
                 const Registry& registry = filters::registry());

}  // namespace filterlab::filters
