#include "graph/schedule.h"

#include "vk/formats.h"

#include <sstream>

namespace filterlab::graph {

PhysicalIds assign_physical_ids(const CompiledGraph& graph) {
  PhysicalIds out;
  for (const CompiledImage& image : graph.images) {
    const uint32_t first = out.count++;
    const uint32_t second = image.history ? out.count++ : first;
    out.ids.push_back({first, second});
  }
  return out;
}

uint32_t physical_id(const PhysicalIds& ids, const CompiledGraph& graph, uint32_t image, bool history,
                     uint64_t frame) {
  if (!graph.images[image].history) return ids.ids[image][0];
  return ids.ids[image][(frame + (history ? 1 : 0)) % 2];
}

FrameBarriers frame_barriers(const CompiledGraph& graph, const PhysicalIds& ids,
                             const std::vector<uint64_t>& buffer_keys, BarrierTracker& tracker,
                             uint64_t frame) {
  FrameBarriers out;
  out.buffer_keys = buffer_keys;
  for (const CompiledPass& pass : graph.passes) {
    PassBarriers barriers;
    for (const CompiledAccess& a : pass.accesses) {
      const uint32_t id = physical_id(ids, graph, a.image, a.history, frame);
      for (uint32_t m = a.base_mip; m < a.base_mip + a.mip_count; ++m)
        for (const ImageBarrier& b : tracker.access({id, m}, a.usage)) barriers.images.push_back(b);
    }
    for (auto [buffer, usage] : pass.buffer_accesses)
      if (auto b = tracker.access(buffer_keys.at(buffer), usage)) barriers.buffers.push_back(*b);
    out.passes.push_back(std::move(barriers));
  }
  for (size_t i = 0; i < graph.buffers.size(); ++i)
    if (graph.buffers[i].after)
      if (auto b = tracker.access(buffer_keys.at(i), *graph.buffers[i].after)) out.end.buffers.push_back(*b);
  return out;
}

namespace {

template <typename Flags, size_t N>
std::string flag_names(Flags flags, const std::pair<Flags, const char*> (&names)[N]) {
  if (flags == 0) return "none";
  std::string out;
  for (auto [bit, name] : names)
    if ((flags & bit) == bit) {
      out += out.empty() ? "" : "|";
      out += name;
      flags &= ~bit;
    }
  if (flags) out += out.empty() ? "other" : "|other";
  return out;
}

}  // namespace

std::string stage_names(VkPipelineStageFlags2 stages) {
  static const std::pair<VkPipelineStageFlags2, const char*> names[] = {
      {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
       "depth_tests"},
      {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, "fragment"},
      {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, "color_output"},
      {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, "compute"},
      {VK_PIPELINE_STAGE_2_COPY_BIT, "copy"},
      {VK_PIPELINE_STAGE_2_BLIT_BIT, "blit"},
      {VK_PIPELINE_STAGE_2_CLEAR_BIT, "clear"},
      {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, "indirect"},
      {VK_PIPELINE_STAGE_2_HOST_BIT, "host"},
      {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, "all_commands"}};
  return flag_names(stages, names);
}

std::string access_names(VkAccessFlags2 access) {
  static const std::pair<VkAccessFlags2, const char*> names[] = {
      {VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, "sampled_read"},
      {VK_ACCESS_2_SHADER_STORAGE_READ_BIT, "storage_read"},
      {VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, "storage_write"},
      {VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT, "color_read"},
      {VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, "color_write"},
      {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, "depth_read"},
      {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, "depth_write"},
      {VK_ACCESS_2_TRANSFER_READ_BIT, "transfer_read"},
      {VK_ACCESS_2_TRANSFER_WRITE_BIT, "transfer_write"},
      {VK_ACCESS_2_UNIFORM_READ_BIT, "uniform_read"},
      {VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, "indirect_read"},
      {VK_ACCESS_2_HOST_READ_BIT, "host_read"}};
  return flag_names(access, names);
}

const char* layout_name(VkImageLayout layout) {
  switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
    case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL: return "DEPTH_ATTACHMENT";
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY";
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC";
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST";
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC";
    default: return "OTHER";
  }
}

std::string to_dot(const CompiledGraph& graph, const FrameBarriers& barriers, const PhysicalIds& ids) {
  std::ostringstream dot;
  dot << "digraph filterlab {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n";
  for (size_t i = 0; i < graph.images.size(); ++i) {
    const CompiledImage& image = graph.images[i];
    dot << "  img" << i << " [shape=ellipse, label=\"" << image.name << "\\n"
        << image.extent.width << "x" << image.extent.height << " " << vk::format_name(image.desc.format)
        << " mips " << image.desc.mip_levels << (image.history ? "\\nhistory (2 images)" : "") << "\"];\n";
  }
  for (size_t i = 0; i < graph.buffers.size(); ++i) {
    const CompiledBuffer& buffer = graph.buffers[i];
    dot << "  buf" << i << " [shape=cylinder, label=\"" << buffer.name << "\\n";
    if (buffer.imported) dot << "imported, one per frame in flight";
    else dot << buffer.size << " bytes";
    if (buffer.after) dot << "\\nthen " << usage_name(*buffer.after);
    dot << "\"];\n";
  }
  auto image_of = [&](uint32_t id) -> std::string {
    for (size_t i = 0; i < ids.ids.size(); ++i)
      for (int k = 0; k < 2; ++k)
        if (ids.ids[i][k] == id)
          return graph.images[i].name + (graph.images[i].history ? "[" + std::to_string(k) + "]" : "");
    return "?";
  };
  auto buffer_of = [&](uint64_t key) -> std::string {
    for (size_t i = 0; i < barriers.buffer_keys.size() && i < graph.buffers.size(); ++i)
      if (barriers.buffer_keys[i] == key) return graph.buffers[i].name;
    return "?";
  };
  auto barrier_lines = [&](const PassBarriers& list) {
    std::string out;
    for (const ImageBarrier& b : list.images)
      out += "\\l  barrier " + image_of(b.key.image) + " mip " + std::to_string(b.key.mip) + ": " +
             stage_names(b.src_stage) + "/" + access_names(b.src_access) + " -> " + stage_names(b.dst_stage) +
             "/" + access_names(b.dst_access) + ", " + layout_name(b.old_layout) + " -> " +
             layout_name(b.new_layout);
    for (const BufferBarrier& b : list.buffers)
      out += "\\l  barrier buffer " + buffer_of(b.buffer) + ": " + stage_names(b.src_stage) + "/" +
             access_names(b.src_access) + " -> " + stage_names(b.dst_stage) + "/" +
             access_names(b.dst_access);
    return out;
  };
  for (size_t p = 0; p < graph.passes.size(); ++p) {
    const CompiledPass& pass = graph.passes[p];
    dot << "  pass" << p << " [shape=box, style=filled, fillcolor=\""
        << (pass.kind == PassKind::Graphics  ? "lightblue"
            : pass.kind == PassKind::Compute ? "palegreen"
                                             : "khaki")
        << "\", label=\"" << p << ": " << pass.name << " (" << pass_kind_name(pass.kind) << ")";
    if (p < barriers.passes.size()) dot << barrier_lines(barriers.passes[p]);
    dot << "\\l\"];\n";
    for (const CompiledAccess& a : pass.accesses) {
      const UsageInfo info = usage_info(a.usage);
      std::string label = std::string(usage_name(a.usage)) + (a.history ? " (previous frame)" : "") +
                          (graph.images[a.image].desc.mip_levels > 1
                               ? " mips " + std::to_string(a.base_mip) + "+" + std::to_string(a.mip_count)
                               : "");
      if (info.reads || !info.writes)
        dot << "  img" << a.image << " -> pass" << p << " [label=\"" << label << "\""
            << (a.history ? ", style=dashed" : "") << "];\n";
      if (info.writes) dot << "  pass" << p << " -> img" << a.image << " [label=\"" << label << "\"];\n";
    }
    for (auto [buffer, usage] : pass.buffer_accesses) {
      const BufferUsageInfo info = usage_info(usage);
      if (info.reads)
        dot << "  buf" << buffer << " -> pass" << p << " [label=\"" << usage_name(usage) << "\"];\n";
      if (info.writes)
        dot << "  pass" << p << " -> buf" << buffer << " [label=\"" << usage_name(usage) << "\"];\n";
    }
  }
  if (!barriers.end.empty())
    dot << "  end [shape=box, style=dotted, label=\"end of frame" << barrier_lines(barriers.end)
        << "\\l\"];\n";
  for (const std::string& name : graph.culled)
    dot << "  \"culled: " << name << "\" [shape=box, style=dotted];\n";
  dot << "}\n";
  return dot.str();
}

}  // namespace filterlab::graph
