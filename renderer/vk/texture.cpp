#include "vk/texture.h"

#include <algorithm>
#include <cstring>

namespace filterlab::vk {

namespace {

VkImageMemoryBarrier2 levels_barrier(VkImage image, uint32_t first, uint32_t count,
                                     VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                     VkImageLayout from, VkPipelineStageFlags2 dst_stage,
                                     VkAccessFlags2 dst_access, VkImageLayout to) {
  VkImageMemoryBarrier2 b = image_barrier(image, src_stage, src_access, dst_stage, dst_access, from, to);
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, first, count, 0, 1};
  return b;
}

void record(VkCommandBuffer cmd, const VkImageMemoryBarrier2& barrier) {
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

uint32_t full_mip_count(uint32_t width, uint32_t height) {
  uint32_t levels = 1;
  for (uint32_t side = std::max(width, height); side > 1; side /= 2) ++levels;
  return levels;
}

uint64_t texture_bytes(uint32_t width, uint32_t height) {
  uint64_t bytes = 0;
  for (uint32_t level = 0; level < full_mip_count(width, height); ++level)
    bytes += uint64_t(std::max(width >> level, 1u)) * std::max(height >> level, 1u) * 4;
  return bytes;
}

Image upload_texture(const Context& ctx, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height,
                     bool srgb, const std::string& name) {
  const uint32_t levels = full_mip_count(width, height);
  Image image(
      ctx,
      {srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM,
       {width, height},
       levels,
       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT},
      name);
  Buffer staging(ctx, rgba.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, name + " staging");
  std::memcpy(staging.mapped(), rgba.data(), rgba.size());
  const VkImage handle = image.handle();
  OneShotCommands(ctx).run([&](VkCommandBuffer cmd) {
    record(cmd, levels_barrier(handle, 0, levels, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                               VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                               VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(cmd, staging.handle(), handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    for (uint32_t level = 1; level < levels; ++level) {
      // The level above, written by the copy or the previous blit, becomes the blit's source.
      record(cmd,
             levels_barrier(handle, level - 1, 1, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
      const VkExtent2D from = image.mip_extent(level - 1), to = image.mip_extent(level);
      VkImageBlit2 blit{VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
      blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1};
      blit.srcOffsets[1] = {int32_t(from.width), int32_t(from.height), 1};
      blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
      blit.dstOffsets[1] = {int32_t(to.width), int32_t(to.height), 1};
      VkBlitImageInfo2 info{VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
      info.srcImage = info.dstImage = handle;
      info.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      info.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      info.regionCount = 1;
      info.pRegions = &blit;
      info.filter = VK_FILTER_LINEAR;
      vkCmdBlitImage2(cmd, &info);
    }
    // Every level to the fragment shaders of later submissions.
    if (levels > 1)
      record(cmd, levels_barrier(handle, 0, levels - 1, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                 VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                 VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
    record(cmd,
           levels_barrier(handle, levels - 1, 1, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                          VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
  });
  return image;
}

}  // namespace filterlab::vk
