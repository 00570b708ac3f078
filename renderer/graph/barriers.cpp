#include "graph/barriers.h"

namespace filterlab::graph {

// HOST_WRITE is not among them: no usage writes from the host (an imported buffer's owner fills it
// before the submission, which makes host writes visible by itself).
VkAccessFlags2 write_accesses(VkAccessFlags2 access) {
  return access & (VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                   VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

std::optional<BarrierTracker::Source> BarrierTracker::source_scope(const State& s,
                                                                   VkPipelineStageFlags2 stage,
                                                                   VkAccessFlags2 access, bool writes) {
  if (writes) {
    // Write after write needs the earlier write made available; write after read only needs
    // the reads to finish.
    if (s.write_stage == VK_PIPELINE_STAGE_2_NONE && s.read_stages == VK_PIPELINE_STAGE_2_NONE)
      return std::nullopt;
    return Source{s.write_stage | s.read_stages, s.write_access};
  }
  // Read after write, for a stage or access the write was not yet made visible to.
  if (s.write_stage != VK_PIPELINE_STAGE_2_NONE &&
      ((stage & ~s.visible_stages) != 0 || (access & ~s.visible_access) != 0))
    return Source{s.write_stage, s.write_access};
  return std::nullopt;
}

void BarrierTracker::record_access(State& s, VkPipelineStageFlags2 stage, VkAccessFlags2 access, bool reads,
                                   bool writes) {
  if (writes) {
    s.write_stage = stage;
    s.write_access = write_accesses(access);
    s.visible_stages = VK_PIPELINE_STAGE_2_NONE;
    s.visible_access = VK_ACCESS_2_NONE;
    s.read_stages = VK_PIPELINE_STAGE_2_NONE;
  } else if (s.write_stage != VK_PIPELINE_STAGE_2_NONE) {
    // A read is ordered after the last write: the write is now visible to its stage and access.
    s.visible_stages |= stage;
    s.visible_access |= access;
  }
  // The host reads after waiting for the frame's fence, and a later submission starts after that
  // wait: nothing on the device has to wait for a host read.
  if (reads && stage != VK_PIPELINE_STAGE_2_HOST_BIT) s.read_stages |= stage;
}

std::vector<ImageBarrier> BarrierTracker::access(SubresourceKey key, Usage usage) {
  const UsageInfo info = usage_info(usage);
  ImageState& s = images_[key];
  if (s.layout == info.layout) {
    const std::optional<Source> src = source_scope(s, info.stage, info.access, info.writes);
    record_access(s, info.stage, info.access, info.reads, info.writes);
    if (!src) return {};
    return {{key, src->stage, src->access, info.stage, info.access, s.layout, s.layout}};
  }
  // A layout transition writes the image, so it waits for the last write and all reads since.
  const ImageBarrier transition{
      key, s.write_stage | s.read_stages, s.write_access, info.stage, info.access, s.layout, info.layout};
  s.layout = info.layout;
  s.write_stage = info.stage;
  s.write_access = VK_ACCESS_2_NONE;  // later barriers chain through the stage
  s.visible_stages = info.stage;
  s.visible_access = info.access;
  s.read_stages = VK_PIPELINE_STAGE_2_NONE;
  record_access(s, info.stage, info.access, info.reads, info.writes);  // ordered by the transition
  return {transition};
}

std::optional<BufferBarrier> BarrierTracker::access(uint64_t buffer, BufferUsage usage) {
  const BufferUsageInfo info = usage_info(usage);
  State& s = buffers_[buffer];
  const std::optional<Source> src = source_scope(s, info.stage, info.access, info.writes);
  record_access(s, info.stage, info.access, info.reads, info.writes);
  if (!src) return std::nullopt;
  return BufferBarrier{buffer, src->stage, src->access, info.stage, info.access};
}

VkImageLayout BarrierTracker::layout(SubresourceKey key) const {
  auto it = images_.find(key);
  return it == images_.end() ? VK_IMAGE_LAYOUT_UNDEFINED : it->second.layout;
}

void BarrierTracker::forget_image(uint32_t image) {
  std::erase_if(images_, [&](const auto& entry) { return entry.first.image == image; });
}

void BarrierTracker::forget_buffer(uint64_t buffer) {
  buffers_.erase(buffer);
}

}  // namespace filterlab::graph
