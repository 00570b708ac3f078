#pragma once
// The filter chain: `--chain SPEC` names the filters applied, in order, between the scene and
// the tonemap.  SPEC := step (',' step)* ;  step := filter ['.' method] (':' key '=' value)*
// e.g. "copy" or "copy,copy". Each filter reads the previous image and declares its own.
#include "graph/graph.h"
#include "passes/pass_env.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::filters {

class ChainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FilterStep {
  std::string filter, method;
  std::map<std::string, std::string> params;
  std::string text;  // as written, for messages
};

std::vector<FilterStep> parse_chain(const std::string& spec);

class Filter {
 public:
  virtual ~Filter() = default;
  // Declares the filter's images and passes reading `input`; returns the image it produces.
  virtual std::string add_to(graph::RenderGraph& graph, const std::string& input,
                             const std::string& name) = 0;
};

struct FilterInfo {
  std::string name, methods, description;
};
const std::vector<FilterInfo>& available_filters();

// Throws ChainError for an unknown filter or method, or a bad parameter.
std::unique_ptr<Filter> make_filter(const FilterStep& step, const passes::PassEnv& env);
void check_chain(const std::vector<FilterStep>& steps);  // same checks, no device needed

}  // namespace filterlab::filters
