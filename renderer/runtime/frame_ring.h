#pragma once
// Command pools and buffers per frame slot, paced by one timeline semaphore: frame k signals
// k + 1, and slot reuse waits for the frame that last used it. Shared by the headless runner and
// the benchmark.
#include "vk/context.h"

namespace filterlab::runtime {

constexpr uint32_t kFramesInFlight = 2;

class FrameRing {
 public:
  explicit FrameRing(const vk::Context& ctx) : ctx_(ctx) {
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
      VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool.queueFamilyIndex = ctx.queue_family();
      VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pools_[i]));
      VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      alloc.commandPool = pools_[i];
      alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      alloc.commandBufferCount = 1;
      VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, &cmds_[i]));
      ctx.name(cmds_[i], VK_OBJECT_TYPE_COMMAND_BUFFER, "frame slot " + std::to_string(i));
    }
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VK_CHECK(vkCreateSemaphore(ctx.device(), &info, nullptr, &timeline_));
    ctx.name(timeline_, VK_OBJECT_TYPE_SEMAPHORE, "frame timeline");
  }
  FrameRing(const FrameRing&) = delete;
  FrameRing& operator=(const FrameRing&) = delete;
  ~FrameRing() {
    vkDeviceWaitIdle(ctx_.device());
    vkDestroySemaphore(ctx_.device(), timeline_, nullptr);
    for (VkCommandPool pool : pools_) vkDestroyCommandPool(ctx_.device(), pool, nullptr);
  }

  // Frame `frame - kFramesInFlight`, the slot's previous user, has completed. A window calls it
  // before acquiring a swapchain image (the slot's acquire semaphore is then free again).
  void wait_slot(uint64_t frame) { wait_for(frame >= kFramesInFlight ? frame - kFramesInFlight + 1 : 0); }

  // Waits for the slot, then begins its command buffer.
  VkCommandBuffer begin(uint64_t frame) {
    wait_slot(frame);
    const uint32_t slot = frame % kFramesInFlight;
    VK_CHECK(vkResetCommandPool(ctx_.device(), pools_[slot], 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmds_[slot], &begin));
    return cmds_[slot];
  }

  // Signals the timeline with frame + 1; a window adds the acquired image's semaphore to wait for
  // and the binary semaphore its present waits for.
  void submit(uint64_t frame, const VkSemaphoreSubmitInfo* wait = nullptr,
              const VkSemaphoreSubmitInfo* signal = nullptr) {
    VkCommandBuffer cmd = cmds_[frame % kFramesInFlight];
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmd_info.commandBuffer = cmd;
    VkSemaphoreSubmitInfo signals[2] = {{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}, {}};
    signals[0].semaphore = timeline_;
    signals[0].value = frame + 1;
    signals[0].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    if (signal) signals[1] = *signal;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = wait ? 1 : 0;
    submit.pWaitSemaphoreInfos = wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmd_info;
    submit.signalSemaphoreInfoCount = signal ? 2 : 1;
    submit.pSignalSemaphoreInfos = signals;
    VK_CHECK(vkQueueSubmit2(ctx_.queue(), 1, &submit, VK_NULL_HANDLE));
  }

  void wait_for(uint64_t value) {
    if (value == 0) return;
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline_;
    wait.pValues = &value;
    VK_CHECK(vkWaitSemaphores(ctx_.device(), &wait, UINT64_MAX));
  }

 private:
  const vk::Context& ctx_;
  VkCommandPool pools_[kFramesInFlight]{};
  VkCommandBuffer cmds_[kFramesInFlight]{};
  VkSemaphore timeline_ = VK_NULL_HANDLE;
};

}  // namespace filterlab::runtime
