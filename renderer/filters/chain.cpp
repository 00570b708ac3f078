#include "filters/chain.h"

#include "filters/blur_filter.h"
#include "filters/copy_filter.h"

namespace filterlab::filters {

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
    while (colon != std::string::npos) {
      size_t next = text.find(':', colon + 1);
      std::string param =
          text.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
      size_t eq = param.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == param.size())
        throw ChainError("parameter '" + param + "' in step '" + text + "' is not key=value");
      step.params[param.substr(0, eq)] = param.substr(eq + 1);
      colon = next;
    }
    steps.push_back(std::move(step));
    start = end + 1;
  }
  return steps;
}

const std::vector<FilterInfo>& available_filters() {
  static const std::vector<FilterInfo> filters = [] {
    std::string blur_methods_list;
    for (const BlurMethod& m : blur_methods())
      blur_methods_list += (blur_methods_list.empty() ? "" : " ") + std::string(m.name);
    return std::vector<FilterInfo>{
        {"copy", "(none)",
         "plain compute copy: the memory floor every filter is compared against; precision (fp16|fp32)"},
        {"gaussian", blur_methods_list,
         "linear blur; parameters radius (1..32), sigma (default: ideal for the radius), kernel "
         "(gaussian|box|binomial), precision (fp16|fp32); comp.tiled also src_roi, dst_roi (x,y,w,h "
         "or WxH+X+Y) and outside (copy|poison)"},
    };
  }();
  return filters;
}

void check_chain(const std::vector<FilterStep>& steps) {
  for (const FilterStep& step : steps) {
    if (step.filter == "gaussian") {
      parse_blur_settings(step);
      continue;
    }
    if (step.filter == "copy") {
      parse_copy_format(step);
      continue;
    }
    std::string names;
    for (const FilterInfo& f : available_filters()) names += " " + f.name;
    throw ChainError("unknown filter '" + step.filter + "' in --chain (available:" + names + ")");
  }
}

std::unique_ptr<Filter> make_filter(const FilterStep& step, const passes::PassEnv& env) {
  check_chain({step});
  if (step.filter == "gaussian") return std::make_unique<BlurFilter>(env, parse_blur_settings(step));
  return std::make_unique<CopyFilter>(env, parse_copy_format(step));
}

}  // namespace filterlab::filters
