#pragma once
// What the driver's shader compiler says about a pipeline it built (VK_KHR_pipeline_executable_
// properties): registers per thread, instructions, spills, shared memory, as the driver names them.
// Registers decide how many groups an SM keeps resident, which no timing shows directly; the bench
// writes these beside each case's times.
#include "vk/context.h"

#include <string>
#include <vector>

namespace filterlab::vk {

struct PipelineStatistic {
  std::string executable;  // the driver's name for the compiled stage, e.g. "Compute Shader"
  std::string name;        // e.g. "Register Count" (NVIDIA), "Instructions" (Mesa)
  double value = 0;        // booleans as 0 or 1
};

// One pipeline and its compiler statistics (empty where the driver gives none).
struct PipelineReport {
  std::string name;  // the shader and variant, e.g. "filters/gaussian/comp_separable_stream.comp#fp16"
  std::vector<PipelineStatistic> statistics;
};

// Empty unless the context enabled statistics (ContextOptions::pipeline_statistics) and the
// pipeline was created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR.
std::vector<PipelineStatistic> query_pipeline_statistics(const Context& ctx, VkPipeline pipeline);

// Whether a statistic is the registers per thread, as drivers name it: NVIDIA "Register Count",
// AMD (RADV) "VGPRs". They bound how many groups a compute unit keeps resident.
bool counts_registers(const std::string& statistic_name);

// The creation flag that asks for them, where the context has them enabled.
VkPipelineCreateFlags statistics_create_flags(const Context& ctx);

}  // namespace filterlab::vk
