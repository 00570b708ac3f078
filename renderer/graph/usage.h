#pragma once
// One usage per declared image or buffer access. Stage, access mask and layout all follow from it,
// so a pass states what it does with a resource and the graph derives every barrier from that.
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

enum class BufferUsage {
  StorageReadCompute,       // readonly storage buffer in a compute shader
  StorageWriteCompute,      // storage buffer a compute shader writes (or binds writable)
  StorageReadWriteCompute,  // read and written by one dispatch (atomics, accumulation)
  UniformCompute,           // uniform buffer in a compute shader
  IndirectRead,             // arguments of an indirect dispatch or draw
  TransferSrc,              // copy source
  TransferDst,              // copy, fill or update destination
  HostRead,                 // read by the host after the frame's fence (an imported buffer's `after`)
};

struct BufferUsageInfo {
  VkPipelineStageFlags2 stage;
  VkAccessFlags2 access;
  VkBufferUsageFlags buffer_usage;  // what the buffer must be created with
  bool reads;
  bool writes;
};

BufferUsageInfo usage_info(BufferUsage usage);
const char* usage_name(BufferUsage usage);

}  // namespace filterlab::graph
