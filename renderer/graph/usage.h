#pragma once
// One usage per declared image or buffer access. Stage, access mask and layout all follow from it,
// so a pass states what it does with a resource and the graph derives every barrier from that.
//
// A usage that writes and does not read (StorageWriteCompute, TransferDst, an attachment cleared or
// discarded) overwrites everything later readers of the resource read, so the graph culls an
// earlier writer whose result it overwrites before anything reads it. A pass after an earlier
// writer that writes only part of what is read later (some texels, a range of a buffer), or
// merely binds the resource writable, must be declared StorageReadWriteCompute (or a loaded
// attachment): it reads what it leaves alone, and that keeps the earlier writer alive.
#include <vulkan/vulkan.h>

namespace filterlab::graph {

enum class Usage {
  SampledFragment,          // texture() in a fragment shader
  SampledCompute,           // texture() in a compute shader
  StorageReadCompute,       // imageLoad() in a compute shader
  StorageWriteCompute,      // imageStore() in a compute shader, over everything later passes read
  StorageReadWriteCompute,  // imageLoad() and imageStore(), or imageStore() of only a part
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
  StorageWriteCompute,      // written by a compute shader, all of what later passes read
  StorageReadWriteCompute,  // read and written (atomics, accumulation), or written in part
  UniformCompute,           // uniform buffer in a compute shader
  IndirectRead,             // arguments of an indirect dispatch or draw
  TransferSrc,              // copy source
  TransferDst,              // copy, fill or update destination, all of what later passes read
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
