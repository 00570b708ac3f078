#include "passes/compare_pass.h"

#include "graph/executor.h"
#include "passes/passes_config.h"
#include "passes/simple_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace filterlab::passes {

namespace {

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
  uint32_t flip_of_hdr;
};
static_assert(sizeof(DisplayPush) == 40);
static_assert(sizeof(ResultGpu) == kReductionResultBytes);

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

// A NaN gain would paint everything black.
float display_gain(const CompareSettings& s) {
  return std::isfinite(s.gain) ? s.gain : 0.0f;
}

// Whether the display shader uses the automatic gain (and so reads max |A-B|) with these settings.
bool uses_automatic_gain(const CompareSettings& s) {
  const bool shows_difference = s.mode == CompareSettings::Mode::Difference ||
                                (s.magnifier && s.magnifier_source == CompareSettings::Source::Difference &&
                                 s.mode != CompareSettings::Mode::Flip);
  return shows_difference && display_gain(s) <= 0.0f;
}

// The buffer the reduction `name` leaves its totals in (compare_finish.comp's Result block).
std::string result_buffer(const std::string& reduction) {
  return reduction + " result";
}

uint32_t tile_count(VkExtent2D extent) {
  return ((extent.width + COMPARE_TILE - 1) / COMPARE_TILE) *
         ((extent.height + COMPARE_TILE - 1) / COMPARE_TILE);
}

// Reading one image twice in a pass would declare two accesses to it; once is enough.
DisplayPush display_push(const CompareSettings& s, bool has_flip, bool has_flip_hdr) {
  DisplayPush push{};
  push.mode = std::min(static_cast<uint32_t>(s.mode), 3u);
  if (s.mode == CompareSettings::Mode::Flip && !(s.flip_of_hdr ? has_flip_hdr : has_flip))
    push.mode = uint32_t(CompareSettings::Mode::Split);
  push.divider = s.divider_x;
  push.gain = display_gain(s);
  push.flags = (s.divider_line ? 1u : 0u) | (s.magnifier ? 2u : 0u);
  push.cursor_x = s.cursor_x;
  push.cursor_y = s.cursor_y;
  push.zoom = std::clamp(s.zoom, 1u, 64u);
  push.inset = std::clamp(s.inset_size, 3u, 4096u);
  push.source = std::min(static_cast<uint32_t>(s.magnifier_source), 2u);
  push.flip_of_hdr = s.flip_of_hdr ? 1u : 0u;
  return push;
}

uint32_t groups(uint32_t size, uint32_t group) {
  return (size + group - 1) / group;
}

// The SSIM window's positions inside an image: none under 11x11.
std::optional<VkExtent2D> ssim_positions(VkExtent2D extent) {
  constexpr uint32_t kWindow = 2 * COMPARE_SSIM_RADIUS + 1;
  if (extent.width < kWindow || extent.height < kWindow) return std::nullopt;
  return VkExtent2D{extent.width - kWindow + 1, extent.height - kWindow + 1};
}

constexpr const char* kModeNames[] = {"split", "diff", "side", "flip"};  // CompareSettings::Mode, in order

}  // namespace

void add_reduction_finish(const PassEnv& env, graph::RenderGraph& graph, const std::string& image,
                          const std::string& name, std::function<uint32_t(VkExtent2D)> count,
                          std::function<bool(graph::PassContext&)> needed) {
  SimplePass(env, name + " finish", ComputeShader{"passes/compare_finish.comp"})
      .graph_buffer(BINDING_COMPARE_PARTIALS, name + " partials", graph::BufferUsage::StorageReadCompute)
      .graph_buffer(BINDING_COMPARE_RESULT, result_buffer(name), graph::BufferUsage::StorageWriteCompute)
      .skip_when([needed](graph::PassContext& ctx) { return !needed(ctx); })
      .constants_from<FinishPush>([image, count](graph::PassContext& ctx) {
        const VkExtent2D extent = ctx.extent(image);
        return FinishPush{count(extent), extent.width, extent.height, static_cast<uint32_t>(ctx.frame),
                          static_cast<uint32_t>(ctx.frame >> 32)};
      })
      .dispatch([](graph::PassContext&) {
        return std::array<uint32_t, 2>{1, 1};
      })
      .add_to(graph);
}

std::optional<ReductionTotals> read_reduction(const vk::Buffer& result) {
  ResultGpu r;
  std::memcpy(&r, result.mapped(), sizeof r);
  if (r.width == 0) return std::nullopt;
  ReductionTotals out;
  for (size_t i = 0; i < 4; ++i) out.sums[i] = r.sums[i];
  out.extent = {r.width, r.height};
  out.frame = uint64_t(r.frame_low) | (uint64_t(r.frame_high) << 32);
  return out;
}

std::array<int32_t, 2> compared_pixel(const CompareSettings& s, VkExtent2D extent, int32_t x, int32_t y) {
  if (s.mode != CompareSettings::Mode::SideBySide) return {x, y};
  const int32_t width = int32_t(extent.width);
  x = std::clamp(x, 0, std::max(width - 1, 0));  // as the shader clamps the cursor first
  return {x < width / 2 ? x + width / 4 : x + width / 4 - width / 2, y};
}

MagnifierSquare magnifier_square(const CompareSettings& s, VkExtent2D extent) {
  const int32_t side = int32_t(std::clamp(s.inset_size, 3u, 4096u));
  const int32_t width = int32_t(extent.width), height = int32_t(extent.height);
  const int32_t cx = std::clamp(s.cursor_x, 0, width - 1), cy = std::clamp(s.cursor_y, 0, height - 1);
  return {std::clamp(cx - side / 2, 0, std::max(width - side, 0)),
          std::clamp(cy - side / 2, 0, std::max(height - side, 0)), side};
}

const char* compare_mode_name(CompareSettings::Mode mode) {
  return kModeNames[std::min(static_cast<uint32_t>(mode), 3u)];
}

std::optional<CompareSettings::Mode> parse_compare_mode(const std::string& name) {
  for (uint32_t i = 0; i < std::size(kModeNames); ++i)
    if (name == kModeNames[i]) return CompareSettings::Mode(i);
  return std::nullopt;
}

ComparePass::ComparePass(const PassEnv& env, VkFormat display_format)
    : env_(env), display_format_(display_format), display_shader_(display_shader(display_format)) {
  if (env.frames_in_flight == 0)
    throw std::invalid_argument("ComparePass: frames_in_flight must be at least 1");
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    for (auto* results : {&results_, &ssim_results_}) {
      results->emplace_back(
          env.vk, sizeof(ResultGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
          (results == &results_ ? "compare metrics " : "compare ssim ") + std::to_string(i));
      std::memset(results->back().mapped(), 0, sizeof(ResultGpu));
    }
  }
}

void ComparePass::add_metrics(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                              const std::string& pass_name, Ssim ssim) {
  graph.import_buffer(result_buffer(pass_name), per_slot(results_), graph::BufferUsage::HostRead);
  add_reduction(graph, a, b, pass_name, [] { return true; });
  if (ssim == Ssim::On) add_ssim(graph, a, b, pass_name + " ssim");
}

void ComparePass::add_display(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                              const std::string& output, const std::string& flip_map,
                              const std::string& flip_map_hdr) {
  graph.declare_image(output, {display_format_, graph::SizeRule::relative_to(a)});
  const std::string gain = output + " gain";
  const std::string gain_result = result_buffer(gain);
  graph.declare_buffer(gain_result, {graph::BufferSize::fixed(sizeof(ResultGpu))});
  add_reduction(graph, a, b, gain, [this] { return uses_automatic_gain(settings); });
  SimplePass(env_, output, ComputeShader{display_shader_})
      .sample(BINDING_COMPARE_A, a)
      .sample(BINDING_COMPARE_B, b)
      .sample(BINDING_COMPARE_FLIP, flip_map.empty() ? a : flip_map)  // A: a binding never read
      .sample(BINDING_COMPARE_FLIP_HDR, flip_map_hdr.empty() ? a : flip_map_hdr)
      .graph_buffer(BINDING_COMPARE_RESULT, gain_result, graph::BufferUsage::StorageReadCompute)
      .store(BINDING_COMPARE_DISPLAY, output)
      .constants_from<DisplayPush>([this, a, b, has_flip = !flip_map.empty(),
                                    has_flip_hdr = !flip_map_hdr.empty()](graph::PassContext& ctx) {
        check_same_size(ctx, a, b);
        return display_push(settings, has_flip, has_flip_hdr);
      })
      .dispatch_over(output, COMPARE_DISPLAY_GROUP, COMPARE_DISPLAY_GROUP)
      .add_to(graph);
}

void ComparePass::add_reduction(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                                const std::string& name, std::function<bool()> needed) {
  const std::string partials = name + " partials";
  graph.declare_buffer(partials,
                       {graph::BufferSize::per_tile(a, COMPARE_TILE, COMPARE_TILE, 4 * sizeof(float))});
  // Both record nothing in frames that do not need them (idle in the timings).
  SimplePass(env_, name, ComputeShader{"passes/compare_reduce.comp"})
      .sample(BINDING_COMPARE_A, a)
      .sample(BINDING_COMPARE_B, b)
      .graph_buffer(BINDING_COMPARE_PARTIALS, partials, graph::BufferUsage::StorageWriteCompute)
      .skip_when([a, b, needed](graph::PassContext& ctx) {
        check_same_size(ctx, a, b);
        return !needed();
      })
      .dispatch_over(a, COMPARE_TILE, COMPARE_TILE)
      .add_to(graph);
  add_reduction_finish(
      env_, graph, a, name, [](VkExtent2D extent) { return tile_count(extent); },
      [needed](graph::PassContext&) { return needed(); });
}

void ComparePass::add_ssim(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                           const std::string& name) {
  graph.import_buffer(result_buffer(name), per_slot(ssim_results_), graph::BufferUsage::HostRead);
  graph.declare_buffer(
      name + " partials",
      {graph::BufferSize::per_tile(a, COMPARE_SSIM_GROUP, COMPARE_SSIM_GROUP, 4 * sizeof(float))});
  auto too_small = [a](graph::PassContext& ctx) { return !ssim_positions(ctx.extent(a)); };
  SimplePass(env_, name, ComputeShader{"passes/compare_ssim.comp"})
      .sample(BINDING_COMPARE_A, a)
      .sample(BINDING_COMPARE_B, b)
      .graph_buffer(BINDING_COMPARE_PARTIALS, name + " partials", graph::BufferUsage::StorageWriteCompute)
      .skip_when(too_small)
      .dispatch([a](graph::PassContext& ctx) {
        const VkExtent2D positions = *ssim_positions(ctx.extent(a));
        return std::array<uint32_t, 2>{groups(positions.width, COMPARE_SSIM_GROUP),
                                       groups(positions.height, COMPARE_SSIM_GROUP)};
      })
      .add_to(graph);
  add_reduction_finish(
      env_, graph, a, name,
      [](VkExtent2D extent) {
        const VkExtent2D positions = *ssim_positions(extent);
        return groups(positions.width, COMPARE_SSIM_GROUP) * groups(positions.height, COMPARE_SSIM_GROUP);
      },
      [a, too_small](graph::PassContext& ctx) { return !too_small(ctx); });
}

std::optional<CompareMetrics> ComparePass::metrics(uint32_t slot) const {
  if (slot >= results_.size())
    throw std::out_of_range("ComparePass::metrics: slot " + std::to_string(slot) + " but only " +
                            std::to_string(results_.size()) + " frames in flight");
  const std::optional<ReductionTotals> r = read_reduction(results_[slot]);
  if (!r) return std::nullopt;
  CompareMetrics out;
  out.extent = r->extent;
  out.frame = r->frame;
  const double pixels = double(r->extent.width) * r->extent.height;
  double total = 0;
  for (int c = 0; c < 3; ++c) {
    out.channel_mse[c] = r->sums[c] / pixels;
    total += r->sums[c];
  }
  common::ImageMetrics& m = out.values;
  m.channels = 3;
  m.mse = total / (pixels * 3);
  m.psnr = m.mse > 0 ? 10 * std::log10(1.0 / m.mse) : std::numeric_limits<double>::infinity();
  m.max_abs = r->sums[3];
  // The SSIM, where the same frame took it (its result keeps an older frame's, or none, otherwise).
  const std::optional<ReductionTotals> ssim = read_reduction(ssim_results_[slot]);
  if (ssim && ssim->frame == out.frame)
    if (const std::optional<VkExtent2D> positions = ssim_positions(out.extent))
      m.ssim = (ssim->sums[0] + ssim->sums[1] + ssim->sums[2]) / (3.0 * positions->width * positions->height);
  return out;
}

}  // namespace filterlab::passes
