#include "runtime/pipeline_reports.h"

#include <nlohmann/json.hpp>

#include <set>

namespace filterlab::runtime {

std::vector<vk::PipelineReport> pipeline_reports(vk::PipelineLibrary& library) {
  std::vector<vk::PipelineReport> out;
  for (vk::PipelineHandle handle : library.handles())
    out.push_back({library.status(handle).name, library.get(handle).statistics()});
  return out;
}

nlohmann::json pipelines_json(const std::vector<vk::PipelineReport>& pipelines) {
  nlohmann::json out = nlohmann::json::array();
  for (const vk::PipelineReport& p : pipelines) {
    std::set<std::string> executables;
    for (const vk::PipelineStatistic& s : p.statistics) executables.insert(s.executable);
    nlohmann::json statistics = nlohmann::json::object();
    for (const vk::PipelineStatistic& s : p.statistics)
      statistics[executables.size() > 1 ? s.executable + ": " + s.name : s.name] = s.value;
    out.push_back({{"name", p.name}, {"statistics", statistics}});
  }
  return out;
}

}  // namespace filterlab::runtime
