#include "vk/resources.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace filterlab::vk {

// ---- Buffer ----------------------------------------------------------------------------------

Buffer::Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
               const std::string& name)
    : device_(ctx.device()), size_(size) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(device_, &info, nullptr, &buffer_));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, buffer_, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex =
      ctx.memory_type(req.memoryTypeBits, host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                                       : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VK_CHECK(vkAllocateMemory(device_, &alloc, nullptr, &memory_));
  VK_CHECK(vkBindBufferMemory(device_, buffer_, memory_, 0));
  if (host_visible) VK_CHECK(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
  ctx.name(buffer_, VK_OBJECT_TYPE_BUFFER, name);
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    reset();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

void Buffer::reset() {
  if (!device_) return;
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);  // unmaps implicitly
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

// ---- Image -----------------------------------------------------------------------------------

Image::Image(const Context& ctx, const ImageInfo& info, const std::string& name)
    : device_(ctx.device()), info_(info) {
  VkImageCreateInfo create{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  create.imageType = VK_IMAGE_TYPE_2D;
  create.format = info.format;
  create.extent = {info.extent.width, info.extent.height, 1};
  create.mipLevels = info.mip_levels;
  create.arrayLayers = 1;
  create.samples = VK_SAMPLE_COUNT_1_BIT;
  create.tiling = VK_IMAGE_TILING_OPTIMAL;
  create.usage = info.usage;
  create.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(vkCreateImage(device_, &create, nullptr, &image_));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device_, image_, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = ctx.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VK_CHECK(vkAllocateMemory(device_, &alloc, nullptr, &memory_));
  VK_CHECK(vkBindImageMemory(device_, image_, memory_, 0));
  ctx.name(image_, VK_OBJECT_TYPE_IMAGE, name);

  auto make_view = [&](uint32_t base, uint32_t count, const std::string& view_name) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image_;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = info.format;
    view.subresourceRange = {aspect(), base, count, 0, 1};
    VkImageView handle;
    VK_CHECK(vkCreateImageView(device_, &view, nullptr, &handle));
    ctx.name(handle, VK_OBJECT_TYPE_IMAGE_VIEW, view_name);
    return handle;
  };
  view_ = make_view(0, info.mip_levels, name);
  for (uint32_t m = 0; m < info.mip_levels; ++m)
    mip_views_.push_back(make_view(m, 1, name + " mip " + std::to_string(m)));
}

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    reset();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    mip_views_ = std::move(other.mip_views_);
    info_ = other.info_;
  }
  return *this;
}

void Image::reset() {
  if (!device_) return;
  for (VkImageView v : mip_views_) vkDestroyImageView(device_, v, nullptr);
  mip_views_.clear();
  if (view_) vkDestroyImageView(device_, view_, nullptr);
  if (image_) vkDestroyImage(device_, image_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

VkImageAspectFlags Image::aspect() const {
  return is_depth_format(info_.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkExtent2D Image::mip_extent(uint32_t level) const {
  return {std::max(1u, info_.extent.width >> level), std::max(1u, info_.extent.height >> level)};
}

// ---- Sampler ---------------------------------------------------------------------------------

Sampler::Sampler(const Context& ctx, VkFilter filter, const std::string& name) : device_(ctx.device()) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = filter;
  info.minFilter = filter;
  info.mipmapMode =
      filter == VK_FILTER_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  // Clamp to edge is the border rule every filter and its CPU reference share.
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.maxLod = VK_LOD_CLAMP_NONE;
  VK_CHECK(vkCreateSampler(device_, &info, nullptr, &sampler_));
  ctx.name(sampler_, VK_OBJECT_TYPE_SAMPLER, name);
}

Sampler::Sampler(const Context& ctx, const VkSamplerCreateInfo& info, const std::string& name)
    : device_(ctx.device()) {
  VK_CHECK(vkCreateSampler(device_, &info, nullptr, &sampler_));
  ctx.name(sampler_, VK_OBJECT_TYPE_SAMPLER, name);
}

Sampler::~Sampler() {
  vkDestroySampler(device_, sampler_, nullptr);
}

// ---- OneShotCommands -------------------------------------------------------------------------

OneShotCommands::OneShotCommands(const Context& ctx) : ctx_(ctx) {
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = ctx.queue_family();
  VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pool_));
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, &cmd_));
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VK_CHECK(vkCreateFence(ctx.device(), &fence, nullptr, &fence_));
}

OneShotCommands::~OneShotCommands() {
  vkDestroyFence(ctx_.device(), fence_, nullptr);
  vkDestroyCommandPool(ctx_.device(), pool_, nullptr);
}

void OneShotCommands::run(const std::function<void(VkCommandBuffer)>& record) {
  VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  record(cmd_);
  VK_CHECK(vkEndCommandBuffer(cmd_));
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd_;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  VK_CHECK(vkResetFences(ctx_.device(), 1, &fence_));
  VK_CHECK(vkQueueSubmit2(ctx_.queue(), 1, &submit, fence_));
  VK_CHECK(vkWaitForFences(ctx_.device(), 1, &fence_, VK_TRUE, UINT64_MAX));
}

VkBufferMemoryBarrier2 buffer_barrier(VkBuffer buffer, VkPipelineStageFlags2 src_stage,
                                      VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                      VkAccessFlags2 dst_access) {
  VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.buffer = buffer;
  b.size = VK_WHOLE_SIZE;
  return b;
}

VkImageMemoryBarrier2 image_barrier(VkImage image, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access,
                                    VkImageLayout old_layout, VkImageLayout new_layout) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.oldLayout = old_layout;
  b.newLayout = new_layout;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return b;
}

VkMemoryBarrier2 memory_barrier(VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  return b;
}

Buffer uploaded_buffer(const Context& ctx, const void* data, VkDeviceSize size, VkBufferUsageFlags usage,
                       VkPipelineStageFlags2 stage, VkAccessFlags2 access, const std::string& name) {
  Buffer staging(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, name + " staging");
  std::memcpy(staging.mapped(), data, size);
  Buffer buffer(ctx, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, name);
  OneShotCommands(ctx).run([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
    record_barriers(
        cmd,
        {buffer_barrier(buffer, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, stage, access)},
        {});
  });
  return buffer;
}

void record_barriers(VkCommandBuffer cmd, const std::vector<VkBufferMemoryBarrier2>& buffers,
                     const std::vector<VkMemoryBarrier2>& memory) {
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
  dep.pBufferMemoryBarriers = buffers.data();
  dep.memoryBarrierCount = static_cast<uint32_t>(memory.size());
  dep.pMemoryBarriers = memory.data();
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace filterlab::vk
