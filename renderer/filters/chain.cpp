#include "filters/chain.h"

#include <cstdio>
#include <map>
#include <sstream>

namespace filterlab::filters {

const std::string* FilterStep::find(const std::string& key) const {
  for (const auto& [k, v] : params)
    if (k == key) return &v;
  return nullptr;
}

void FilterStep::set(const std::string& key, const std::string& value) {
  for (auto& [k, v] : params)
    if (k == key) {
      v = value;
      return;
    }
  params.emplace_back(key, value);
}

void FilterStep::erase(const std::string& key) {
  std::erase_if(params, [&](const RawParam& p) { return p.first == key; });
}

std::vector<FilterStep> parse_chain(const std::string& spec) {
  std::vector<FilterStep> steps;
  if (spec.empty()) return steps;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    std::string text = spec.substr(start, end - start);
    if (text.empty()) throw ChainError("empty step in --chain '" + spec + "'");
    FilterStep step;
    step.text = text;
    size_t colon = text.find(':');
    std::string head = text.substr(0, colon);
    size_t dot = head.find('.');
    step.filter = head.substr(0, dot);
    if (dot != std::string::npos) step.method = head.substr(dot + 1);
    if (step.filter.empty()) throw ChainError("step '" + text + "' has no filter name");
    if (dot != std::string::npos && step.method.empty())
      throw ChainError("step '" + text + "' has a '.' but no method after it (see filterlab methods)");
    while (colon != std::string::npos) {
      size_t next = text.find(':', colon + 1);
      std::string param =
          text.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
      size_t eq = param.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == param.size())
        throw ChainError("parameter '" + param + "' in step '" + text + "' is not key=value");
      const std::string key = param.substr(0, eq);
      if (step.find(key)) throw ChainError(key + " is given twice in step '" + text + "'");
      step.params.emplace_back(key, param.substr(eq + 1));
      colon = next;
    }
    steps.push_back(std::move(step));
    start = end + 1;
  }
  return steps;
}

std::string step_spec(const FilterStep& step) {
  std::string text = step.filter + (step.method.empty() ? "" : "." + step.method);
  for (const auto& [key, value] : step.params) text += ":" + key + "=" + value;
  return text;
}

std::string ResolvedStep::label() const {
  return family->name + "." + method->name;
}

std::string ResolvedStep::derived_text() const {
  std::string out;
  for (const Param& p : family->params) {
    if (!p.derived || params.given(p.name) || !p.takes(method->name)) continue;
    char value[32];
    std::snprintf(value, sizeof value, "%.6g", params.number(p.name));
    out += label() + ": " + p.name + " " + value + (p.derived_text.empty() ? "" : " (" + p.derived_text + ")") + "\n";
  }
  return out;
}

ResolvedStep resolve(const FilterStep& step, const Registry& registry) {
  const Family* family = &registry.family(step.filter);
  const std::string method_name = step.method.empty() ? family->default_method : step.method;
  if (method_name.empty())
    throw ChainError("filter '" + family->name + "' needs a method: " + family->name +
                     ".<method> (methods: " + family->method_names() + ")");
  const Method* method = &family->method(method_name);
  return {family, method, parse_params(*family, *method, step.params), step.text};
}

void check_chain(const std::vector<FilterStep>& steps, const Registry& registry) {
  for (const FilterStep& step : steps) resolve(step, registry);
}

void check_extent(const ResolvedStep& step, uint32_t width, uint32_t height) {
  if (step.family->check_extent) step.family->check_extent(step.params, width, height);
  if (step.method->check_extent) step.method->check_extent(step.params, width, height);
}

void check_chain(const std::vector<FilterStep>& steps, uint32_t width, uint32_t height,
                 const Registry& registry) {
  for (const FilterStep& step : steps) check_extent(resolve(step, registry), width, height);
}

Support device_support(const ResolvedStep& step, const vk::Context& device) {
  return step.method->support ? step.method->support(device, step.params) : Support{};
}

void check_support(const ResolvedStep& step, const vk::Context& device) {
  const Support support = device_support(step, device);
  if (!support.available()) throw ChainError(step.label() + " is not available: " + support.reason);
  if (support.max_size && step.params.size() > *support.max_size)
    throw ChainError(step.label() + " serves " + step.params.size_name() + " up to " +
                     std::to_string(*support.max_size) + " on this device, not " +
                     std::to_string(step.params.size()));
}

std::unique_ptr<Filter> build_filter(const ResolvedStep& step, const passes::PassEnv& env) {
  check_support(step, env.vk);
  return step.method->create(FilterEnv{env, step.params});
}

std::string add_chain(graph::RenderGraph& graph, const passes::PassEnv& env, const FilterInputs& inputs,
                      const std::vector<FilterStep>& steps, const std::string& prefix,
                      std::vector<std::unique_ptr<Filter>>& built, const Registry& registry) {
  FilterInputs current = inputs;
  const std::vector<std::string> names = step_image_names(steps, prefix);
  for (size_t i = 0; i < steps.size(); ++i) {
    const ResolvedStep resolved = resolve(steps[i], registry);
    check_scene_inputs(resolved, !inputs.depth.empty(), !inputs.motion.empty());
    built.push_back(build_filter(resolved, env));
    current.color = built.back()->add_to(graph, current, names[i]);
  }
  return current.color;
}

std::vector<std::string> step_image_names(const std::vector<FilterStep>& steps, const std::string& prefix) {
  std::vector<std::string> names;
  std::map<std::string, int> uses;
  for (const FilterStep& step : steps) {
    const int n = ++uses[step.filter];
    names.push_back(prefix + (n == 1 ? step.filter : step.filter + "." + std::to_string(n)));
  }
  return names;
}

void check_steps_on_still_image(const std::vector<FilterStep>& steps) {
  for (const FilterStep& step : steps) check_scene_inputs(resolve(step), false, false);
}

void check_scene_inputs(const ResolvedStep& step, bool has_depth, bool has_motion) {
  for (Input needed : {Input::Depth, Input::Motion})
    if (step.needs(needed) && !(needed == Input::Depth ? has_depth : has_motion))
      throw ChainError(step.label() + " reads the scene's " + input_name(needed) +
                       ", which this run has none of (a still image has no " + input_name(needed) + ")");
}

bool chain_needs(const std::vector<FilterStep>& steps, Input input, const Registry& registry) {
  for (const FilterStep& step : steps)
    if (resolve(step, registry).needs(input)) return true;
  return false;
}

}  // namespace filterlab::filters
