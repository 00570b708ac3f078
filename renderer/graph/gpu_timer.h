#pragma once
// Per-pass GPU timestamps read back without stalling: one query pool per frame in flight,
// read only after that frame's fence has signalled, masked by timestampValidBits and scaled by
// timestampPeriod. Can be switched off, since timestamps themselves serialize passes.
//
// On a CPU device (lavapipe) each stamp is followed by a full memory barrier. llvmpipe queues a
// timestamp into the rasterizer's open batch and writes it only when that batch is flushed, while
// a compute dispatch runs at once on the queue thread: both stamps around a compute pass that
// touches no render target were written after it ended, so the pass read ~0 and its work was
// billed to whichever graphics pass flushed next. A full barrier flushes the batch, so each stamp
// is written where it stands. GPUs are left as they are: there the barrier would only cost time.
#include "vk/context.h"

#include <optional>
#include <vector>

namespace filterlab::graph {

class GpuTimer {
 public:
  GpuTimer(const vk::Context& ctx, uint32_t frames_in_flight, uint32_t max_passes);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  uint32_t max_passes() const { return max_passes_; }
  void begin_frame(VkCommandBuffer cmd, uint32_t slot, uint32_t pass_count);
  void begin_pass(VkCommandBuffer cmd, uint32_t slot, uint32_t pass);
  void end_pass(VkCommandBuffer cmd, uint32_t slot, uint32_t pass);
  // Milliseconds per pass of the frame last recorded in `slot`; call after its fence signalled.
  // Empty when the slot has no results (never used, or the driver reports them not ready).
  std::optional<std::vector<double>> read(uint32_t slot);

  // Exposed for tests: elapsed milliseconds between two raw timestamps.
  static double elapsed_ms(uint64_t begin, uint64_t end, uint32_t valid_bits, float period_ns);

 private:
  const vk::Context& ctx_;
  uint32_t max_passes_;
  std::vector<VkQueryPool> pools_;
  std::vector<uint32_t> recorded_passes_;  // per slot, 0 when nothing is pending
  bool flush_after_stamp_;                 // a CPU device: see the top of this file
  void write(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query) const;
};

}  // namespace filterlab::graph
