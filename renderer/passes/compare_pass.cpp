#include "passes/compare_pass.h"

#include "graph/executor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace filterlab::passes {

namespace {

constexpr uint32_t kTile = 32;  // pixels per reduction workgroup side (16x16 invocations, 2x2 each)

// Layout of the result buffer (compare_finish.comp's Result block).
struct ResultGpu {
  float sums[4];  // squared-difference sums of R, G, B; largest |A-B|
  uint32_t width, height, frame_low, frame_high;
};

struct FinishPush {
  uint32_t count, width, height, frame_low, frame_high;
};

// Mirrors compare_common.glsl's push constant block.
struct DisplayPush {
  uint32_t mode;
  int32_t divider;
  float gain;
  uint32_t flags;
  int32_t cursor_x, cursor_y;
  uint32_t zoom, inset, source;
};
static_assert(sizeof(DisplayPush) == 36);

const char* display_shader(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: return "passes/compare_display_rgba8.comp";
    case VK_FORMAT_R16G16B16A16_SFLOAT: return "passes/compare_display_rgba16f.comp";
    case VK_FORMAT_R32G32B32A32_SFLOAT: return "passes/compare_display_rgba32f.comp";
    default:
      throw std::invalid_argument(
          "ComparePass: the display format must be RGBA8_UNORM, RGBA16F or RGBA32F, got " +
          std::string(vk::format_name(format)));
  }
}

void check_same_size(const graph::PassContext& ctx, const std::string& a, const std::string& b) {
  const VkExtent2D extent = ctx.image(a).extent;
  const VkExtent2D other = ctx.image(b).extent;
  if (extent.width != other.width || extent.height != other.height)
    throw graph::GraphError("compare: image '" + a + "' is " + std::to_string(extent.width) + "x" +
                            std::to_string(extent.height) + " but '" + b + "' is " +
                            std::to_string(other.width) + "x" + std::to_string(other.height));
}

// Whether the display shader uses the automatic gain (and so reads max |A-B|) with these settings.
bool uses_automatic_gain(const CompareSettings& s, float gain) {
  const bool shows_difference = s.mode == CompareSettings::Mode::Difference ||
                                (s.magnifier && s.magnifier_source == CompareSettings::Source::Difference);
  return shows_difference && gain <= 0.0f;
}

}  // namespace

ComparePass::ComparePass(const PassEnv& env, VkFormat display_format) : vk_(env.vk) {
  const char* display = display_shader(display_format);  // checks the format before any allocation
  if (env.frames_in_flight == 0)
    throw std::invalid_argument("ComparePass: frames_in_flight must be at least 1");
  display_format_ = display_format;
  using T = VkDescriptorType;
  const T sampled = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, buffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  reduce_ = vk::make_pipeline(
      env.pipelines, env.vk, env.shaders,
      vk::ComputePipelineDesc{"passes/compare_reduce.comp", {{sampled, sampled, buffer}, 0}, {}});
  finish_ = vk::make_pipeline(
      env.pipelines, env.vk, env.shaders,
      vk::ComputePipelineDesc{"passes/compare_finish.comp", {{buffer, buffer}, sizeof(FinishPush)}, {}});
  display_ = vk::make_pipeline(
      env.pipelines, env.vk, env.shaders,
      vk::ComputePipelineDesc{
          display, {{sampled, sampled, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, buffer}, sizeof(DisplayPush)}, {}});
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    results_.emplace_back(env.vk, sizeof(ResultGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                          "compare metrics " + std::to_string(i));
    // width 0 marks "not computed yet"; the host write is visible to the first submission.
    std::memset(results_.back().mapped(), 0, sizeof(ResultGpu));
  }
  // Host-visible only to start zeroed: a display with a fixed gain binds it without reducing.
  display_gain_ = vk::Buffer(env.vk, sizeof(ResultGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                             "compare display gain");
  std::memset(display_gain_.mapped(), 0, sizeof(ResultGpu));
}

namespace {

// Reading one image twice in a pass would declare two accesses to it; once is enough.
graph::PassBuilder& read_pair(graph::PassBuilder& builder, const std::string& a, const std::string& b) {
  builder.read(a, graph::Usage::SampledCompute);
  if (b != a) builder.read(b, graph::Usage::SampledCompute);
  return builder;
}

}  // namespace

void ComparePass::add_to(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                         const std::string& output) {
  // The metrics pass is declared first, and the graph keeps declaration order, so the display
  // pass can read this frame's result.
  add_metrics(graph, a, b, output + " metrics");
  declare_display(graph, a, b, output, Gain::FromMetrics);
}

void ComparePass::add_metrics(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                              const std::string& pass_name) {
  // Side effect: the host reads the metrics even when nothing shows the display.
  graph::PassBuilder builder = graph.add_pass(pass_name, graph::PassKind::Compute);
  read_pair(builder, a, b).side_effect().execute([this, a, b](graph::PassContext& ctx) {
    check_same_size(ctx, a, b);
    record_reduction(ctx, a, b, partials_, results_.at(ctx.slot), "compare partial sums");
  });
}

void ComparePass::add_display(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                              const std::string& output) {
  declare_display(graph, a, b, output, Gain::OwnReduction);
}

void ComparePass::declare_display(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                                  const std::string& output, Gain gain) {
  graph.declare_image(output, {display_format_, graph::SizeRule::relative_to(a)});
  graph::PassBuilder builder = graph.add_pass(output, graph::PassKind::Compute);
  read_pair(builder, a, b)
      .write(output, graph::Usage::StorageWriteCompute)
      .execute(
          [this, a, b, output, gain](graph::PassContext& ctx) { record_display(ctx, a, b, output, gain); });
}

void ComparePass::record_reduction(graph::PassContext& ctx, const std::string& a, const std::string& b,
                                   vk::Buffer& partials, const vk::Buffer& result,
                                   const char* partials_name) {
  const VkExtent2D extent = ctx.image(a).extent;
  const uint32_t groups_x = (extent.width + kTile - 1) / kTile,
                 groups_y = (extent.height + kTile - 1) / kTile;
  const VkDeviceSize needed = VkDeviceSize(groups_x) * groups_y * 4 * sizeof(float);
  if (partials.size() < needed) {
    // Only when the image grows. Earlier frames may still read the old buffer; waiting is rare
    // enough (a resize, which Executor::prepare already waits for) to beat tracking its lifetime.
    if (partials.handle() != VK_NULL_HANDLE) VK_CHECK(vkDeviceWaitIdle(vk_.device()));
    partials = vk::Buffer(vk_, needed, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false, partials_name);
  }
  constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  constexpr VkAccessFlags2 kWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  constexpr VkAccessFlags2 kRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;

  // Earlier frames read and wrote both buffers (the partials every frame, the result when it was
  // last used, read by that frame's display): finish those before writing again.
  vk::record_barriers(ctx.cmd, {vk::buffer_barrier(partials, kCompute, kWrite, kCompute, kWrite),
                            vk::buffer_barrier(result, kCompute, kWrite, kCompute, kWrite)});
  ctx.bind(*reduce_)
      .sampled(0, a, graph::Filter::Nearest)
      .sampled(1, b, graph::Filter::Nearest)
      .storage_buffer(2, partials)
      .dispatch(groups_x, groups_y);
  vk::record_barriers(ctx.cmd, {vk::buffer_barrier(partials, kCompute, kWrite, kCompute, kRead)});
  const FinishPush push{groups_x * groups_y, extent.width, extent.height, static_cast<uint32_t>(ctx.frame),
                        static_cast<uint32_t>(ctx.frame >> 32)};
  ctx.bind(*finish_).storage_buffer(0, partials).storage_buffer(1, result).constants(push).dispatch(1, 1);
  // The display pass reads the result (automatic gain), and the host reads it after the frame's
  // fence; a fence or semaphore alone does not make device writes visible to the host.
  vk::record_barriers(ctx.cmd, {vk::buffer_barrier(result, kCompute, kWrite, kCompute | VK_PIPELINE_STAGE_2_HOST_BIT,
                                           kRead | VK_ACCESS_2_HOST_READ_BIT)});
}

void ComparePass::record_display(graph::PassContext& ctx, const std::string& a, const std::string& b,
                                 const std::string& output, Gain gain) {
  check_same_size(ctx, a, b);
  const CompareSettings& s = settings;
  DisplayPush push{};
  push.mode = s.mode == CompareSettings::Mode::Difference ? 1u : 0u;
  push.divider = s.divider_x;
  push.gain = std::isfinite(s.gain) ? s.gain : 0.0f;  // a NaN gain would paint everything black
  push.flags = (s.divider_line ? 1u : 0u) | (s.magnifier ? 2u : 0u);
  push.cursor_x = s.cursor_x;
  push.cursor_y = s.cursor_y;
  push.zoom = std::clamp(s.zoom, 1u, 64u);
  push.inset = std::clamp(s.inset_size, 3u, 4096u);
  push.source = std::min(static_cast<uint32_t>(s.magnifier_source), 2u);
  // With a fixed gain (or no difference shown) the shader does not use what the buffer holds.
  if (gain == Gain::OwnReduction && uses_automatic_gain(s, push.gain))
    record_reduction(ctx, a, b, display_partials_, display_gain_, "compare display partial sums");
  ctx.bind(*display_)
      .sampled(0, a, graph::Filter::Nearest)
      .sampled(1, b, graph::Filter::Nearest)
      .storage(2, output)
      .storage_buffer(3, gain == Gain::FromMetrics ? results_.at(ctx.slot) : display_gain_)
      .constants(push)
      .dispatch_over(output, 16, 16);
}

std::optional<CompareMetrics> ComparePass::metrics(uint32_t slot) const {
  if (slot >= results_.size())
    throw std::out_of_range("ComparePass::metrics: slot " + std::to_string(slot) + " but only " +
                            std::to_string(results_.size()) + " frames in flight");
  ResultGpu r;
  std::memcpy(&r, results_[slot].mapped(), sizeof r);
  if (r.width == 0) return std::nullopt;
  CompareMetrics out;
  out.extent = {r.width, r.height};
  out.frame = uint64_t(r.frame_low) | (uint64_t(r.frame_high) << 32);
  const double pixels = double(r.width) * r.height;
  double total = 0;
  for (int c = 0; c < 3; ++c) {
    out.channel_mse[c] = r.sums[c] / pixels;
    total += r.sums[c];
  }
  filters::ImageMetrics& m = out.values;
  m.channels = 3;
  m.mse = total / (pixels * 3);
  m.psnr = m.mse > 0 ? 10 * std::log10(1.0 / m.mse) : std::numeric_limits<double>::infinity();
  m.max_abs = r.sums[3];
  return out;
}

}  // namespace filterlab::passes
