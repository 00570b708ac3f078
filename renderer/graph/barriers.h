#pragma once
// Derives synchronization2 image and buffer barriers from the last actual access of each image
// subresource and each buffer. Pure logic (no device calls), so it is unit tested without a GPU.
#include "graph/usage.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace filterlab::graph {

struct SubresourceKey {
  uint32_t image = 0;  // physical image index (history images have two)
  uint32_t mip = 0;
  auto operator<=>(const SubresourceKey&) const = default;
};

struct ImageBarrier {
  SubresourceKey key;
  VkPipelineStageFlags2 src_stage = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 src_access = VK_ACCESS_2_NONE;
  VkPipelineStageFlags2 dst_stage = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 dst_access = VK_ACCESS_2_NONE;
  VkImageLayout old_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageLayout new_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  bool operator==(const ImageBarrier&) const = default;
};

// Buffers have no layout: a barrier is only a dependency between two accesses.
struct BufferBarrier {
  uint64_t buffer = 0;  // physical buffer key (the executor uses the VkBuffer handle's value)
  VkPipelineStageFlags2 src_stage = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 src_access = VK_ACCESS_2_NONE;
  VkPipelineStageFlags2 dst_stage = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 dst_access = VK_ACCESS_2_NONE;
  bool operator==(const BufferBarrier&) const = default;
};

// Tracks, per image subresource and per buffer, the last write and the reads since it (and an
// image's layout), across frames. access() returns the barrier the next access needs, if any:
//   read after write   -> memory dependency from the write to the read (once per reading stage);
//   write after read   -> execution dependency from the reads (no memory dependency needed);
//   write after write  -> memory dependency from the earlier write;
//   layout change      -> transition, ordered after the last write and every read since it.
// Image contents are always preserved (old layout = current layout) except at first use, where
// the old layout is UNDEFINED. The first access of a buffer needs no barrier.
class BarrierTracker {
 public:
  std::vector<ImageBarrier> access(SubresourceKey key, Usage usage);
  std::optional<BufferBarrier> access(uint64_t buffer, BufferUsage usage);
  VkImageLayout layout(SubresourceKey key) const;
  void forget_image(uint32_t image);    // the image was (re)created: next use starts UNDEFINED
  void forget_buffer(uint64_t buffer);  // the buffer was destroyed (its key may be reused)
  void clear() {
    images_.clear();
    buffers_.clear();
  }

 private:
  // The last write of one resource and what has waited for it since.
  struct State {
    VkPipelineStageFlags2 write_stage = VK_PIPELINE_STAGE_2_NONE;  // last write or transition
    VkAccessFlags2 write_access = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 visible_stages = VK_PIPELINE_STAGE_2_NONE;  // write made visible to
    VkAccessFlags2 visible_access = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 read_stages = VK_PIPELINE_STAGE_2_NONE;  // reads since the write
  };
  struct ImageState : State {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  };
  struct Source {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
  };
  // The source scope an access in the resource's current layout must wait for, if any.
  static std::optional<Source> source_scope(const State& s, VkPipelineStageFlags2 stage,
                                            VkAccessFlags2 access, bool writes);
  // The state once the access is ordered after what source_scope() returned.
  static void record_access(State& s, VkPipelineStageFlags2 stage, VkAccessFlags2 access, bool reads,
                            bool writes);

  std::map<SubresourceKey, ImageState> images_;
  std::map<uint64_t, State> buffers_;
};

VkAccessFlags2 write_accesses(VkAccessFlags2 access);

}  // namespace filterlab::graph
