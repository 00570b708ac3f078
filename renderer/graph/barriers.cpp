#include "graph/barriers.h"

namespace filterlab::graph {

VkAccessFlags2 write_accesses(VkAccessFlags2 access) {
  return access & (VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
                   VK_ACCESS_2_MEMORY_WRITE_BIT);
}

std::vector<ImageBarrier> BarrierTracker::access(SubresourceKey key, Usage usage) {
  const UsageInfo info = usage_info(usage);
  State& s = states_[key];
  std::vector<ImageBarrier> barriers;
  auto emit = [&](VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                  VkImageLayout new_layout) {
    barriers.push_back({key, src_stage, src_access, info.stage, info.access, s.layout, new_layout});
  };

  if (s.layout != info.layout) {
    // A layout transition writes the image, so it waits for the last write and all reads since.
    emit(s.write_stage | s.read_stages, s.write_access, info.layout);
    s.layout = info.layout;
    s.write_stage = info.stage;
    s.write_access = VK_ACCESS_2_NONE;  // later barriers chain through the stage
    s.visible_stages = info.stage;
    s.visible_access = info.access;
    s.read_stages = VK_PIPELINE_STAGE_2_NONE;
  } else if (info.writes) {
    // Write after write needs the earlier write made available; write after read only needs
    // the reads to finish.
    if (s.write_stage != VK_PIPELINE_STAGE_2_NONE || s.read_stages != VK_PIPELINE_STAGE_2_NONE)
      emit(s.write_stage | s.read_stages, s.write_access, info.layout);
  } else if (s.write_stage != VK_PIPELINE_STAGE_2_NONE &&
             ((info.stage & ~s.visible_stages) != 0 || (info.access & ~s.visible_access) != 0)) {
    // Read after write, for a stage or access the write was not yet made visible to.
    emit(s.write_stage, s.write_access, info.layout);
    s.visible_stages |= info.stage;
    s.visible_access |= info.access;
  }

  if (info.writes) {
    s.write_stage = info.stage;
    s.write_access = write_accesses(info.access);
    s.visible_stages = VK_PIPELINE_STAGE_2_NONE;
    s.visible_access = VK_ACCESS_2_NONE;
    s.read_stages = VK_PIPELINE_STAGE_2_NONE;
  }
  if (info.reads) s.read_stages |= info.stage;
  return barriers;
}

VkImageLayout BarrierTracker::layout(SubresourceKey key) const {
  auto it = states_.find(key);
  return it == states_.end() ? VK_IMAGE_LAYOUT_UNDEFINED : it->second.layout;
}

void BarrierTracker::forget_image(uint32_t image) {
  std::erase_if(states_, [&](const auto& entry) { return entry.first.image == image; });
}

}  // namespace filterlab::graph
