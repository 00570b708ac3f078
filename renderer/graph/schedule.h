#pragma once
// Maps a compiled graph onto physical images and derives the barriers of one frame. Pure logic:
// the executor records what this returns, and the unit tests check it without a GPU.
#include "graph/barriers.h"
#include "graph/graph.h"

#include <array>
#include <string>

namespace filterlab::graph {

// Physical image ids per compiled image. A history image has two, swapped every frame: frame k
// writes ids[k % 2] and reads the previous frame's version from ids[(k + 1) % 2].
struct PhysicalIds {
  std::vector<std::array<uint32_t, 2>> ids;
  uint32_t count = 0;
};

PhysicalIds assign_physical_ids(const CompiledGraph& graph);
uint32_t physical_id(const PhysicalIds& ids, const CompiledGraph& graph, uint32_t image, bool history,
                     uint64_t frame);

struct PassBarriers {
  std::vector<ImageBarrier> images;
  std::vector<BufferBarrier> buffers;
  bool empty() const { return images.empty() && buffers.empty(); }
};

struct FrameBarriers {
  std::vector<PassBarriers> passes;   // before each live pass, in pass order
  PassBarriers end;                   // after the last pass: imported buffers to their `after` usage
  std::vector<uint64_t> buffer_keys;  // the physical key of each compiled buffer in this frame
};

// The barriers of frame `frame`; advances the tracker. buffer_keys: the physical key of each
// compiled buffer in this frame (an imported buffer has one per frame-in-flight slot).
FrameBarriers frame_barriers(const CompiledGraph& graph, const PhysicalIds& ids,
                             const std::vector<uint64_t>& buffer_keys, BarrierTracker& tracker,
                             uint64_t frame);

// Graphviz DOT of the compiled graph: passes, images, buffers, usages and the given barriers.
std::string to_dot(const CompiledGraph& graph, const FrameBarriers& barriers, const PhysicalIds& ids);

std::string stage_names(VkPipelineStageFlags2 stages);
std::string access_names(VkAccessFlags2 access);
const char* layout_name(VkImageLayout layout);

}  // namespace filterlab::graph
