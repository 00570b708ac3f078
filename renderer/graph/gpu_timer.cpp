#include "graph/gpu_timer.h"

namespace filterlab::graph {

GpuTimer::GpuTimer(const vk::Context& ctx, uint32_t frames_in_flight, uint32_t max_passes)
    : ctx_(ctx),
      max_passes_(max_passes),
      recorded_passes_(frames_in_flight, 0),
      flush_after_stamp_(ctx.report().device_type == "cpu") {
  for (uint32_t i = 0; i < frames_in_flight; ++i) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * max_passes;
    VkQueryPool pool;
    VK_CHECK(vkCreateQueryPool(ctx.device(), &info, nullptr, &pool));
    ctx.name(pool, VK_OBJECT_TYPE_QUERY_POOL, "pass timestamps, frame slot " + std::to_string(i));
    pools_.push_back(pool);
  }
}

GpuTimer::~GpuTimer() {
  for (VkQueryPool pool : pools_) vkDestroyQueryPool(ctx_.device(), pool, nullptr);
}

void GpuTimer::begin_frame(VkCommandBuffer cmd, uint32_t slot, uint32_t pass_count) {
  if (pass_count > max_passes_) throw std::runtime_error("GpuTimer: too many passes");
  vkCmdResetQueryPool(cmd, pools_[slot], 0, 2 * max_passes_);
  recorded_passes_[slot] = pass_count;
}

void GpuTimer::write(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query) const {
  // ALL_COMMANDS: the begin stamp waits for earlier work, so a pass is timed on its own.
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, query);
  if (!flush_after_stamp_) return;
  VkMemoryBarrier2 all{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  all.srcStageMask = all.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  all.srcAccessMask = all.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &all;
  vkCmdPipelineBarrier2(cmd, &dep);
}

void GpuTimer::begin_pass(VkCommandBuffer cmd, uint32_t slot, uint32_t pass) {
  write(cmd, pools_[slot], 2 * pass);
}

void GpuTimer::end_pass(VkCommandBuffer cmd, uint32_t slot, uint32_t pass) {
  write(cmd, pools_[slot], 2 * pass + 1);
}

double GpuTimer::elapsed_ms(uint64_t begin, uint64_t end, uint32_t valid_bits, float period_ns) {
  const uint64_t mask = valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1;
  // Masked subtraction stays right when the counter wraps between the two stamps.
  const uint64_t ticks = ((end & mask) - (begin & mask)) & mask;
  return static_cast<double>(ticks) * static_cast<double>(period_ns) * 1e-6;
}

std::optional<std::vector<double>> GpuTimer::read(uint32_t slot) {
  const uint32_t passes = recorded_passes_[slot];
  if (passes == 0) return std::nullopt;
  recorded_passes_[slot] = 0;
  // Value and availability word per query; no WAIT flag, so this never stalls.
  std::vector<uint64_t> data(4 * passes);
  VkResult r = vkGetQueryPoolResults(ctx_.device(), pools_[slot], 0, 2 * passes,
                                     data.size() * sizeof(uint64_t), data.data(), 2 * sizeof(uint64_t),
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  if (r == VK_NOT_READY) return std::nullopt;
  VK_CHECK(r);
  const auto& report = ctx_.report();
  std::vector<double> ms(passes);
  for (uint32_t p = 0; p < passes; ++p) {
    const uint64_t begin = data[4 * p], begin_ready = data[4 * p + 1];
    const uint64_t end = data[4 * p + 2], end_ready = data[4 * p + 3];
    if (!begin_ready || !end_ready) return std::nullopt;
    ms[p] = elapsed_ms(begin, end, report.timestamp_valid_bits, report.timestamp_period_ns);
  }
  return ms;
}

}  // namespace filterlab::graph
