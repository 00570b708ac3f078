#include "passes/view_pass.h"

#include "graph/executor.h"
#include "passes/passes_config.h"
#include "passes/simple_pass.h"
#include "vk/formats.h"
#include "vk/specialization.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace filterlab::passes {

namespace {

struct FormatFacts {
  ViewKind kind;
  uint32_t components;
  bool srgb;
};

std::optional<FormatFacts> format_facts(VkFormat format) {
  if (vk::is_depth_format(format)) return FormatFacts{ViewKind::Depth, 1, false};
  switch (format) {
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R32_SFLOAT: return FormatFacts{ViewKind::Hdr, 1, false};
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return FormatFacts{ViewKind::Hdr, 3, false};
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32B32A32_SFLOAT: return FormatFacts{ViewKind::Hdr, 4, false};
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT: return FormatFacts{ViewKind::Motion, 2, false};
    case VK_FORMAT_R8_UNORM: return FormatFacts{ViewKind::Display, 1, false};
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM: return FormatFacts{ViewKind::Display, 4, false};
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB: return FormatFacts{ViewKind::Display, 4, true};
    default: return std::nullopt;
  }
}

// A value typed into the UI can be NaN or infinite; it would turn every pixel undefined.
float finite_or(float value, float fallback) {
  return std::isfinite(value) ? value : fallback;
}

// Depth: whether the shader takes this frame's range (the same test as view_depth.comp's, on the
// values it gets).
bool auto_depth_range(const ViewSettings& s) {
  return !(finite_or(s.depth_hi, 0.0f) > finite_or(s.depth_lo, 0.0f));
}

}  // namespace

ViewPass::ViewPass(const PassEnv& env) : env_(env) {}

std::optional<ViewKind> ViewPass::kind_for(VkFormat format) {
  if (auto facts = format_facts(format)) return facts->kind;
  return std::nullopt;
}

ViewPush ViewPass::push(uint32_t components, bool srgb) const {
  const ViewSettings& s = settings;
  return {components,
          std::min(static_cast<uint32_t>(s.channel), 4u),
          finite_or(s.exposure, 1.0f),
          finite_or(s.motion_scale, ViewSettings{}.motion_scale),
          finite_or(s.depth_lo, 0.0f),
          finite_or(s.depth_hi, 0.0f),
          srgb ? 1u : 0u,
          std::min(static_cast<uint32_t>(s.tonemapper), passes::kTonemapperCount - 1)};
}

void ViewPass::add_to(graph::RenderGraph& graph, const std::string& source, const std::string& output,
                      const std::string& pass_name) {
  const VkFormat format = graph.image_desc(source).format;
  const std::optional<FormatFacts> facts = format_facts(format);
  if (!facts)
    throw std::invalid_argument("view: cannot show image '" + source + "' of format " +
                                std::to_string(int(format)) + " (" + vk::format_name(format) + ")");
  graph.declare_image(output, {VK_FORMAT_R8G8B8A8_UNORM, graph::SizeRule::relative_to(source)});
  // Each shader binds only what its pass declares: the validation layers count a binding as used
  // when the shader's code touches it, even in a branch a specialization never takes, and every
  // binding is an access the graph orders. Only the depth view reads the range buffer.
  const bool depth = facts->kind == ViewKind::Depth;
  SimplePass view(env_, pass_name,
                  depth
                      ? ComputeShader{"passes/view_depth.comp"}
                      : ComputeShader{"passes/view.comp",
                                      vk::Specialization().set(VIEW_MODE_ID, uint32_t(facts->kind)).words()});
  // texelFetch: depth formats may not filter linearly.
  view.sample(BINDING_VIEW_SOURCE, source, graph::Sampling::Nearest, graph::mip(0))
      .store(BINDING_VIEW_OUTPUT, output);
  if (depth)
    view.graph_buffer(BINDING_VIEW_RANGE, add_depth_range(graph, source, pass_name),
                      graph::BufferUsage::StorageReadCompute);
  // The format's facts are known now; the settings are read each frame.
  view.constants_from<ViewPush>([this, components = facts->components,
                                 srgb = facts->srgb](graph::PassContext&) { return push(components, srgb); })
      .dispatch_over(output, VIEW_GROUP, VIEW_GROUP)
      .add_to(graph);
}

std::string ViewPass::add_depth_range(graph::RenderGraph& graph, const std::string& source,
                                      const std::string& pass_name) {
  // Two order keys: the nearest and the farthest geometry depth.
  const std::string range = pass_name + " depth range";
  graph.declare_buffer(range, {graph::BufferSize::fixed(2 * sizeof(uint32_t))});
  // Both passes record nothing in frames with a fixed range, and say so (idle in the timings).
  graph.add_pass(pass_name + " range reset", graph::PassKind::Transfer)
      .write_buffer(range, graph::BufferUsage::TransferDst)
      .execute([this, range](graph::PassContext& ctx) {
        if (!auto_depth_range(settings)) return ctx.skip();
        // Empty range: the nearest key starts at the largest key, the farthest at the smallest.
        const uint32_t empty[2] = {0xffffffffu, 0u};
        vkCmdUpdateBuffer(ctx.cmd, ctx.buffer(range).handle, 0, sizeof empty, empty);
      });
  // Reads the source and folds it into the buffer; it never touches the view (its shader does not
  // bind it).
  SimplePass(env_, pass_name + " range", ComputeShader{"passes/view_depth_range.comp"})
      .sample(BINDING_VIEW_SOURCE, source, graph::Sampling::Nearest, graph::mip(0))
      .graph_buffer(BINDING_VIEW_RANGE, range, graph::BufferUsage::StorageReadWriteCompute)
      .skip_when([this](graph::PassContext&) { return !auto_depth_range(settings); })
      .dispatch_over(source, VIEW_GROUP, VIEW_GROUP)
      .add_to(graph);
  return range;
}

}  // namespace filterlab::passes
