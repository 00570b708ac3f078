#include "graph/usage.h"

namespace filterlab::graph {

// The usage tables keep one access per case on two lines, laid out by hand.
// clang-format off
UsageInfo usage_info(Usage usage) {
  constexpr VkPipelineStageFlags2 kFragment = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
  constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  constexpr VkPipelineStageFlags2 kDepthTests =
      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
  switch (usage) {
    case Usage::SampledFragment:
      return {kFragment, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, true, false};
    case Usage::SampledCompute:
      return {kCompute, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, true, false};
    case Usage::StorageReadCompute:
      return {kCompute, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
              VK_IMAGE_USAGE_STORAGE_BIT, true, false};
    case Usage::StorageWriteCompute:
      return {kCompute, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
              VK_IMAGE_USAGE_STORAGE_BIT, false, true};
    case Usage::StorageReadWriteCompute:
      return {kCompute, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
              VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_USAGE_STORAGE_BIT, true, true};
    case Usage::ColorAttachment:
      return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
              VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, false,
              true};
    case Usage::DepthAttachment:
      return {kDepthTests,
              VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
              VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
              VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, false, true};
    case Usage::TransferSrc:
      return {VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
              VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT, true, false};
    case Usage::TransferDst:
      return {VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |
                  VK_PIPELINE_STAGE_2_CLEAR_BIT,
              VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
              VK_IMAGE_USAGE_TRANSFER_DST_BIT, false, true};
  }
  return {};
}
// clang-format on

const char* usage_name(Usage usage) {
  switch (usage) {
    case Usage::SampledFragment: return "sampled-fragment";
    case Usage::SampledCompute: return "sampled-compute";
    case Usage::StorageReadCompute: return "storage-read";
    case Usage::StorageWriteCompute: return "storage-write";
    case Usage::StorageReadWriteCompute: return "storage-read-write";
    case Usage::ColorAttachment: return "color-attachment";
    case Usage::DepthAttachment: return "depth-attachment";
    case Usage::TransferSrc: return "transfer-src";
    case Usage::TransferDst: return "transfer-dst";
  }
  return "?";
}

// The usage tables keep one access per case on two lines, laid out by hand.
// clang-format off
BufferUsageInfo usage_info(BufferUsage usage) {
  constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  constexpr VkAccessFlags2 kRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
  constexpr VkAccessFlags2 kWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  switch (usage) {
    case BufferUsage::StorageReadCompute: return {kCompute, kRead, kStorage, true, false};
    case BufferUsage::StorageWriteCompute: return {kCompute, kWrite, kStorage, false, true};
    case BufferUsage::StorageReadWriteCompute: return {kCompute, kRead | kWrite, kStorage, true, true};
    case BufferUsage::UniformCompute:
      return {kCompute, VK_ACCESS_2_UNIFORM_READ_BIT, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true, false};
    case BufferUsage::IndirectRead:
      // DRAW_INDIRECT is the stage that reads the arguments of indirect dispatches too.
      return {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
              VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, true, false};
    case BufferUsage::TransferSrc:
      return {VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
              true, false};
    case BufferUsage::TransferDst:
      // vkCmdFillBuffer and vkCmdUpdateBuffer are clear commands, vkCmdCopyBuffer a copy.
      return {VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, true};
    case BufferUsage::HostRead:
      return {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, 0, true, false};
  }
  return {};
}
// clang-format on

const char* usage_name(BufferUsage usage) {
  switch (usage) {
    case BufferUsage::StorageReadCompute: return "storage-read";
    case BufferUsage::StorageWriteCompute: return "storage-write";
    case BufferUsage::StorageReadWriteCompute: return "storage-read-write";
    case BufferUsage::UniformCompute: return "uniform";
    case BufferUsage::IndirectRead: return "indirect";
    case BufferUsage::TransferSrc: return "transfer-src";
    case BufferUsage::TransferDst: return "transfer-dst";
    case BufferUsage::HostRead: return "host-read";
  }
  return "?";
}

}  // namespace filterlab::graph
