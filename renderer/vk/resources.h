#pragma once
// RAII owners for images, buffers, samplers and one-shot command submission. Each resource has
// its own allocation: the graph creates a handful of images, so a sub-allocator would be noise.
#include "vk/context.h"
#include "vk/formats.h"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace filterlab::vk {

class Buffer {
 public:
  Buffer() = default;
  Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
         const std::string& name);
  ~Buffer() { reset(); }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;

  // A host-visible buffer holding a copy of `values` (a family's weights, say).
  template <typename T>
  static Buffer holding(const Context& ctx, const std::vector<T>& values, VkBufferUsageFlags usage,
                        const std::string& name) {
    Buffer b(ctx, values.size() * sizeof(T), usage, true, name);
    std::memcpy(b.mapped(), values.data(), values.size() * sizeof(T));
    return b;
  }

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }  // host-visible buffers stay mapped (coherent)

 private:
  void reset();
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

struct ImageInfo {
  VkFormat format = VK_FORMAT_R16G16B16A16_SFLOAT;
  VkExtent2D extent{};
  uint32_t mip_levels = 1;
  VkImageUsageFlags usage = 0;
};

class Image {
 public:
  Image() = default;
  Image(const Context& ctx, const ImageInfo& info, const std::string& name);
  ~Image() { reset(); }
  Image(Image&& other) noexcept { *this = std::move(other); }
  Image& operator=(Image&& other) noexcept;

  VkImage handle() const { return image_; }
  const ImageInfo& info() const { return info_; }
  VkImageAspectFlags aspect() const;
  VkImageView view() const { return view_; }  // all mip levels
  VkImageView mip_view(uint32_t level) const { return mip_views_.at(level); }
  VkExtent2D mip_extent(uint32_t level) const;

 private:
  void reset();
  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  std::vector<VkImageView> mip_views_;
  ImageInfo info_;
};

class Sampler {
 public:
  Sampler(const Context& ctx, VkFilter filter, const std::string& name);
  Sampler(const Context& ctx, const VkSamplerCreateInfo& info, const std::string& name);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;
  VkSampler handle() const { return sampler_; }

 private:
  VkDevice device_;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

// Barriers for resources no render graph tracks: one-shot readbacks (Executor::read_image), the
// swapchain image and --screenshot buffer the present copy writes, and tests that record frames
// by hand. Graph images and buffers get theirs from the graph, derived from the accesses passes
// declare (a host read after the frame included: import_buffer's `after`), never from these.
VkBufferMemoryBarrier2 buffer_barrier(VkBuffer buffer, VkPipelineStageFlags2 src_stage,
                                      VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                      VkAccessFlags2 dst_access);
inline VkBufferMemoryBarrier2 buffer_barrier(const Buffer& buffer, VkPipelineStageFlags2 src_stage,
                                             VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                             VkAccessFlags2 dst_access) {
  return buffer_barrier(buffer.handle(), src_stage, src_access, dst_stage, dst_access);
}
VkMemoryBarrier2 memory_barrier(VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
// A layout transition of a single-level, single-layer colour image, for code outside the render
// graph (the swapchain copy, the copy study); graph passes never write barriers.
VkImageMemoryBarrier2 image_barrier(VkImage image, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access,
                                    VkImageLayout old_layout, VkImageLayout new_layout);
// Transfer writes made visible to the host reads that follow a fence or semaphore wait.
inline VkMemoryBarrier2 copy_to_host_barrier() {
  return memory_barrier(VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}
void record_barriers(VkCommandBuffer cmd, const std::vector<VkBufferMemoryBarrier2>& buffers,
                     const std::vector<VkMemoryBarrier2>& memory = {});

// A device-local buffer holding `size` bytes of `data`, copied in through a staging buffer in a
// one-shot submission that ends with the copy made visible to `stage` / `access` in every later
// submission: a resource's contents before any frame uses it (a mesh, a counter's zero). The frame
// graph orders every use after that.
class Buffer;
Buffer uploaded_buffer(const Context& ctx, const void* data, VkDeviceSize size, VkBufferUsageFlags usage,
                       VkPipelineStageFlags2 stage, VkAccessFlags2 access, const std::string& name);

// A command pool with one primary buffer and a fence: record, submit, wait. For readback and
// set-up work outside the frame loop.
class OneShotCommands {
 public:
  explicit OneShotCommands(const Context& ctx);
  ~OneShotCommands();
  OneShotCommands(const OneShotCommands&) = delete;
  OneShotCommands& operator=(const OneShotCommands&) = delete;
  void run(const std::function<void(VkCommandBuffer)>& record);

 private:
  const Context& ctx_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace filterlab::vk
