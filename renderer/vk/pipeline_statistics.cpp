#include "vk/pipeline_statistics.h"

#include "vk/check.h"

namespace filterlab::vk {

VkPipelineCreateFlags statistics_create_flags(const Context& ctx) {
  return ctx.report().pipeline_statistics ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
}

bool counts_registers(const std::string& statistic_name) {
  return statistic_name == "Register Count" || statistic_name == "VGPRs";
}

namespace {

double statistic_value(const VkPipelineExecutableStatisticKHR& s) {
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s.value.b32 ? 1.0 : 0.0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return double(s.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return double(s.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return s.value.f64;
    default: return 0;
  }
}

}  // namespace

std::vector<PipelineStatistic> query_pipeline_statistics(const Context& ctx, VkPipeline pipeline) {
  if (!ctx.report().pipeline_statistics) return {};
  auto get_executables = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(ctx.device(), "vkGetPipelineExecutablePropertiesKHR"));
  auto get_statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(ctx.device(), "vkGetPipelineExecutableStatisticsKHR"));
  if (!get_executables || !get_statistics) return {};

  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t count = 0;
  VK_CHECK(get_executables(ctx.device(), &info, &count, nullptr));
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  VK_CHECK(get_executables(ctx.device(), &info, &count, executables.data()));

  std::vector<PipelineStatistic> out;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    executable.pipeline = pipeline;
    executable.executableIndex = e;
    uint32_t n = 0;
    VK_CHECK(get_statistics(ctx.device(), &executable, &n, nullptr));
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    VK_CHECK(get_statistics(ctx.device(), &executable, &n, stats.data()));
    for (const VkPipelineExecutableStatisticKHR& s : stats)
      out.push_back({executables[e].name, s.name, statistic_value(s)});
  }
  return out;
}

}  // namespace filterlab::vk
