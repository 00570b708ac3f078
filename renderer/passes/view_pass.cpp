#include "passes/view_pass.h"

#include "graph/executor.h"
#include "vk/formats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace filterlab::passes {

namespace {

constexpr uint32_t kLocalSize = 16;  // view_source.glsl's workgroup side

// Mirrors view_common.glsl's push constant block.
struct ViewPush {
  uint32_t components;
  uint32_t channel;
  float exposure;
  float motion_scale;
  float depth_lo, depth_hi;
  uint32_t srgb_source;
};
static_assert(sizeof(ViewPush) == 28);

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

void ViewPass::build_pipeline(size_t mode) {
  if (pipelines_.at(mode)) return;
  pipelines_[mode] = vk::make_pipeline(env_.pipelines, env_.vk, env_.shaders, pipeline_desc(mode));
}

vk::ComputePipelineDesc ViewPass::pipeline_desc(size_t mode) {
  // Each shader binds only what its pass declares: the validation layers count a binding as used
  // when the shader's code touches it, even in a branch a specialization never takes, and every
  // binding is an access the graph orders.
  if (mode == kDepthRangeStep)  // the source and the range buffer: no view, no push constants
    return {"passes/view_depth_range.comp",
            {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0},
            {}};
  std::vector<VkDescriptorType> bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                            VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
  if (mode == size_t(ViewKind::Depth)) {  // the only kind that reads the range buffer
    bindings.push_back(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    return {"passes/view_depth.comp", {bindings, sizeof(ViewPush)}, {}};
  }
  return {"passes/view.comp", {bindings, sizeof(ViewPush)}, {uint32_t(mode)}};  // constant: the ViewKind
}

void ViewPass::add_to(graph::RenderGraph& graph, const std::string& source, const std::string& output,
                      const std::string& pass_name) {
  const VkFormat format = graph.image_desc(source).format;
  const std::optional<FormatFacts> facts = format_facts(format);
  if (!facts)
    throw std::invalid_argument("view: cannot show image '" + source + "' of format " +
                                std::to_string(int(format)) + " (" + vk::format_name(format) + ")");
  build_pipeline(size_t(facts->kind));
  if (facts->kind == ViewKind::Depth) build_pipeline(kDepthRangeStep);

  graph.declare_image(output, {VK_FORMAT_R8G8B8A8_UNORM, graph::SizeRule::relative_to(source)});
  const std::optional<std::string> range = facts->kind == ViewKind::Depth
                                               ? std::optional(add_depth_range(graph, source, pass_name))
                                               : std::nullopt;
  graph::PassBuilder view = graph.add_pass(pass_name, graph::PassKind::Compute);
  view.read(source, graph::Usage::SampledCompute, graph::mip(0))
      .write(output, graph::Usage::StorageWriteCompute);
  if (range) view.read_buffer(*range);  // depth reads this frame's range (readonly in view_depth.comp)
  // The format's facts are known now: each frame's record only reads them.
  view.execute([this, mode = size_t(facts->kind), components = facts->components, srgb = facts->srgb, source,
                output, range](graph::PassContext& ctx) {
    dispatch_view(ctx, mode, components, srgb, source, output, range);
  });
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
  // bind it), so it declares only those two.
  graph.add_pass(pass_name + " range", graph::PassKind::Compute)
      .read(source, graph::Usage::SampledCompute, graph::mip(0))
      .read_write_buffer(range)
      .execute([this, source, range](graph::PassContext& ctx) {
        if (!auto_depth_range(settings)) return ctx.skip();
        ctx.bind(*pipelines_.at(kDepthRangeStep))
            .sampled(0, source, graph::Sampling::Nearest)
            .storage_buffer(1, range)
            .dispatch_over(source, kLocalSize, kLocalSize);
      });
  return range;
}

void ViewPass::dispatch_view(graph::PassContext& ctx, size_t mode, uint32_t components, bool srgb,
                             const std::string& source, const std::string& output,
                             const std::optional<std::string>& range) {
  const ViewSettings& s = settings;
  const ViewPush push{components,
                      std::min(static_cast<uint32_t>(s.channel), 4u),
                      finite_or(s.exposure, 1.0f),
                      finite_or(s.motion_scale, ViewSettings{}.motion_scale),
                      finite_or(s.depth_lo, 0.0f),
                      finite_or(s.depth_hi, 0.0f),
                      srgb ? 1u : 0u};
  graph::PassContext::Binder binder = ctx.bind(*pipelines_.at(mode));
  binder
      .sampled(0, source, graph::Sampling::Nearest)  // texelFetch; depth formats may not filter linearly
      .storage(1, output);
  if (range) binder.storage_buffer(2, *range);
  binder.constants(push).dispatch_over(output, kLocalSize, kLocalSize);
}

}  // namespace filterlab::passes
