#include "app_state.h"

namespace filterlab::app {

ChainConfig ChainConfig::parse(const std::string& spec) {
  ChainConfig config;
  for (filters::FilterStep& step : filters::parse_chain(spec))
    config.entries.push_back({std::move(step), true});
  return config;
}

std::vector<filters::FilterStep> ChainConfig::enabled_steps() const {
  std::vector<filters::FilterStep> steps;
  for (const ChainEntry& e : entries)
    if (e.enabled) steps.push_back(e.step);
  return steps;
}

std::string ChainConfig::spec() const {
  std::string text;
  for (const filters::FilterStep& step : enabled_steps())
    text += (text.empty() ? "" : ",") + filters::step_spec(step);
  return text;
}

bool operator==(const ChainConfig& a, const ChainConfig& b) {
  if (a.entries.size() != b.entries.size()) return false;
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const ChainEntry &x = a.entries[i], &y = b.entries[i];
    if (x.enabled != y.enabled || x.step.filter != y.step.filter || x.step.method != y.step.method ||
        x.step.params != y.step.params)
      return false;
  }
  return true;
}

}  // namespace filterlab::app
