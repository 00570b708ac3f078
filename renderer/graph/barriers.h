#pragma once
// Derives synchronization2 image barriers from the last actual access of each subresource.
// Pure logic (no device calls), so it is unit tested without a GPU.
#include "graph/usage.h"

#include <cstdint>
#include <map>
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

// Tracks, per subresource, its layout, the last write and the reads since it, across frames.
// access() returns the barrier the next access needs, if any:
//   read after write   -> memory dependency from the write to the read (once per reading stage);
//   write after read   -> execution dependency from the reads (no memory dependency needed);
//   write after write  -> memory dependency from the earlier write;
//   layout change      -> transition, ordered after the last write and every read since it.
// Contents are always preserved (old layout = current layout) except at first use, where the
// old layout is UNDEFINED.
class BarrierTracker {
public:
  std::vector<ImageBarrier> access(SubresourceKey key, Usage usage);
  VkImageLayout layout(SubresourceKey key) const;
  void forget_image(uint32_t image);  // the image was (re)created: next use starts UNDEFINED
  void clear() { states_.clear(); }

private:
  struct State {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkPipelineStageFlags2 write_stage = VK_PIPELINE_STAGE_2_NONE;  // last write or transition
    VkAccessFlags2 write_access = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 visible_stages = VK_PIPELINE_STAGE_2_NONE;  // write made visible to
    VkAccessFlags2 visible_access = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 read_stages = VK_PIPELINE_STAGE_2_NONE;  // reads since the write
  };
  std::map<SubresourceKey, State> states_;
};

VkAccessFlags2 write_accesses(VkAccessFlags2 access);

}  // namespace filterlab::graph
