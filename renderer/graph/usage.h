#pragma once
// One usage per declared image access. Stage, access mask and layout all follow from it, so a
// pass states what it does with an image and the graph derives every barrier from that.
#include <vulkan/vulkan.h>

namespace filterlab::graph {

enum class Usage {
  SampledFragment,          // texture() in a fragment shader
  SampledCompute,           // texture() in a compute shader
  StorageReadCompute,       // imageLoad() in a compute shader
  StorageWriteCompute,      // imageStore() in a compute shader
  StorageReadWriteCompute,  // imageLoad() and imageStore() on the same image
  ColorAttachment,          // rendered to by a graphics pass
  DepthAttachment,          // depth test and write in a graphics pass
  TransferSrc,              // copy or blit source (captures, readback)
  TransferDst,              // copy, blit or clear destination
};

struct UsageInfo {
  VkPipelineStageFlags2 stage;
  VkAccessFlags2 access;
  VkImageLayout layout;
  VkImageUsageFlags image_usage;  // what the image must be created with
  bool reads;
  bool writes;
};

UsageInfo usage_info(Usage usage);
const char* usage_name(Usage usage);

}  // namespace filterlab::graph
