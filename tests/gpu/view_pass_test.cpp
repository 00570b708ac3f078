// GPU tier: the viewport's view pass on lavapipe with synchronization validation. Each kind of
// source (HDR colour, display-ready 8-bit colour, depth, motion) is checked against a CPU
// restatement of the mapping passes/view_pass.h documents, on known inputs at odd sizes; the
// scene's own images against the capture conversions in io:: (the viewport and a `--capture`
// PNG must agree) and against the tonemap pass.
//
// Tolerance: where the GPU turns a float into 8-bit UNORM, 1 unit of 8 bits (its fp32 arithmetic
// and its rounding of x.5 against the CPU's double and lround); where the pass copies stored
// bytes, none.
#include "gpu_test_util.h"

#include "passes/tonemap_curves.h"

#include "graph/executor.h"
#include "io/image_io.h"
#include "passes/scene_pass.h"
#include "passes/tonemap_pass.h"
#include "passes/upload_pass.h"
#include "passes/view_pass.h"
#include "runtime/capture.h"
#include "runtime/frame_ring.h"
#include "vk/formats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <random>

using namespace filterlab;
using passes::ViewKind;
using passes::ViewSettings;

namespace {

constexpr int kTolerance = 1;
constexpr uint32_t kWidth = 37, kHeight = 19;  // odd: partial 16x16 workgroups on both axes
constexpr size_t kPixels = size_t(kWidth) * kHeight;

// ---- CPU restatements of the documented mappings, in 8-bit units (0..255, unrounded) ----------

double aces_srgb_units(double value, double exposure) {
  const double x = std::max(value * exposure, 0.0);
  const double t = std::clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
  const double encoded = t <= 0.0031308 ? 12.92 * t : 1.055 * std::pow(t, 1.0 / 2.4) - 0.055;
  return encoded * 255.0;
}

double motion_units(double pixels, double scale) {
  return std::clamp(0.5 + pixels * scale, 0.0, 1.0) * 255.0;
}

// Geometry from white (255) at lo to 48 at hi; clear (>= 1) black; mid-ramp when lo == hi.
double depth_units(float d, float lo, float hi) {
  if (!(d < 1.0f)) return 0.0;
  if (!(hi > lo)) return 0.5 * (255.0 + 48.0);
  const double t = std::clamp((double(d) - lo) / (double(hi) - lo), 0.0, 1.0);
  return 255.0 + t * (48.0 - 255.0);
}

using Expected = std::function<std::array<double, 4>(size_t pixel)>;

// Every channel of every pixel within `tolerance` of round(expected); reports the worst offender.
void expect_view(const graph::Readback& view, uint32_t width, uint32_t height, const Expected& expected,
                 int tolerance = kTolerance) {
  ASSERT_EQ(view.format, VK_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(view.extent.width, width);
  ASSERT_EQ(view.extent.height, height);
  int worst = -1;
  size_t worst_pixel = 0;
  uint32_t worst_channel = 0;
  double worst_expected = 0;
  for (size_t p = 0; p < size_t(width) * height; ++p) {
    const std::array<double, 4> e = expected(p);
    for (uint32_t c = 0; c < 4; ++c) {
      const int diff = std::abs(int(view.bytes[p * 4 + c]) - int(std::lround(e[c])));
      if (diff > worst) worst = diff, worst_pixel = p, worst_channel = c, worst_expected = e[c];
    }
  }
  EXPECT_LE(worst, tolerance) << "pixel (" << worst_pixel % width << ", " << worst_pixel / width
                              << ") channel " << worst_channel << ": GPU "
                              << int(view.bytes[worst_pixel * 4 + worst_channel]) << ", CPU "
                              << worst_expected;
}

std::vector<float> random_floats(size_t count, uint32_t seed, float low, float high) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> values(count);
  for (float& v : values) v = dist(rng);
  return values;
}

std::vector<uint8_t> random_bytes(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, 255);
  std::vector<uint8_t> bytes(count);
  for (uint8_t& b : bytes) b = uint8_t(dist(rng));
  return bytes;
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<uint8_t> half_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint16_t h = vk::float_to_half(values[i]);
    std::memcpy(bytes.data() + 2 * i, &h, 2);
  }
  return bytes;
}

// What a half-float image holds for these values.
std::vector<float> half_rounded(std::vector<float> values) {
  for (float& v : values) v = vk::half_to_float(vk::float_to_half(v));
  return values;
}

// Raw texels of any format (depth included) copied into mip 0 of a graph image every frame;
// UploadPass makes float colour images only.
class RawUpload {
 public:
  RawUpload(const vk::Context& ctx, VkFormat format, uint32_t width, uint32_t height,
            const std::vector<uint8_t>& bytes, uint32_t mip_levels = 1)
      : format_(format),
        width_(width),
        height_(height),
        mip_levels_(mip_levels),
        staging_(ctx, bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, "view test upload") {
    std::memcpy(staging_.mapped(), bytes.data(), bytes.size());  // coherent; visible to later submissions
  }
  void add_to(graph::RenderGraph& graph, const std::string& name) {
    graph.declare_image(name, {format_, graph::SizeRule::absolute(width_, height_), mip_levels_});
    graph.add_pass("upload " + name, graph::PassKind::Transfer)
        .write(name, graph::Usage::TransferDst, graph::mip(0))
        .execute([this, name](graph::PassContext& ctx) {
          VkBufferImageCopy region{};
          const VkImageAspectFlags aspect =
              vk::is_depth_format(format_) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
          region.imageSubresource = {aspect, 0, 0, 1};
          region.imageExtent = {width_, height_, 1};
          vkCmdCopyBufferToImage(ctx.cmd, staging_.handle(), ctx.image_handle(name),
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        });
  }

 private:
  VkFormat format_;
  uint32_t width_, height_, mip_levels_;
  vk::Buffer staging_;
};

class ViewPassTest : public test::ValidatedSuite {
 protected:
  static passes::PassEnv env() { return passes::PassEnv{*context_, *shaders_, 1}; }

  // One frame of `graph` (or `frames`, one after another), then every output read back.
  static std::map<std::string, graph::Readback> run(const graph::RenderGraph& graph,
                                                    const std::vector<std::string>& outputs,
                                                    VkExtent2D extent, uint32_t frames = 1) {
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, outputs, extent);
    vk::OneShotCommands commands(*context_);
    for (uint32_t f = 0; f < frames; ++f)
      commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, f); });
    std::map<std::string, graph::Readback> images;
    for (const std::string& name : outputs) images.emplace(name, executor.read_image(name));
    return images;
  }

  // Uploads `bytes` as `format`, views it with `settings`, returns the view.
  static graph::Readback view_of(VkFormat format, const std::vector<uint8_t>& bytes,
                                 const ViewSettings& settings, uint32_t width = kWidth,
                                 uint32_t height = kHeight) {
    graph::RenderGraph graph;
    RawUpload upload(*context_, format, width, height, bytes);
    upload.add_to(graph, "source");
    passes::ViewPass view(env());
    view.settings = settings;
    view.add_to(graph, "source", "view");
    return run(graph, {"view"}, {width, height}).at("view");
  }
};

ViewSettings with_exposure(float exposure) {
  ViewSettings s;
  s.exposure = exposure;
  return s;
}

ViewSettings with_channel(ViewSettings::Channel channel, float exposure = 1.0f) {
  ViewSettings s;
  s.channel = channel;
  s.exposure = exposure;
  return s;
}

}  // namespace

TEST_F(ViewPassTest, KindFollowsTheDeclaredFormat) {
  using passes::ViewPass;
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R16G16B16A16_SFLOAT), ViewKind::Hdr);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R32G32B32A32_SFLOAT), ViewKind::Hdr);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R16_SFLOAT), ViewKind::Hdr);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R32_SFLOAT), ViewKind::Hdr);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R8G8B8A8_UNORM), ViewKind::Display);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_B8G8R8A8_SRGB), ViewKind::Display);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_D32_SFLOAT), ViewKind::Depth);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_D16_UNORM), ViewKind::Depth);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R16G16_SFLOAT), ViewKind::Motion);
  EXPECT_EQ(ViewPass::kind_for(VK_FORMAT_R32G32_SFLOAT), ViewKind::Motion);
  EXPECT_FALSE(ViewPass::kind_for(VK_FORMAT_R32_UINT).has_value());
  EXPECT_FALSE(ViewPass::kind_for(VK_FORMAT_R8G8B8A8_UINT).has_value());

  graph::RenderGraph graph;
  graph.declare_image("ids", {VK_FORMAT_R32_UINT});
  passes::ViewPass view(env());
  EXPECT_THROW(view.add_to(graph, "ids", "view"), std::invalid_argument);
  EXPECT_FALSE(graph.has_image("view")) << "a rejected source declares nothing";
  EXPECT_THROW(view.add_to(graph, "missing", "view"), graph::GraphError);
}

// Only depth needs a buffer (this frame's range) and the passes that fill it; the other kinds are
// one pass reading the source and writing the view, with nothing else to order.
TEST_F(ViewPassTest, OnlyDepthDeclaresTheRangeBufferAndItsPasses) {
  graph::RenderGraph graph;
  const std::vector<std::pair<std::string, VkFormat>> sources = {{"hdr", VK_FORMAT_R16G16B16A16_SFLOAT},
                                                                 {"ldr", VK_FORMAT_R8G8B8A8_UNORM},
                                                                 {"motion", VK_FORMAT_R16G16_SFLOAT},
                                                                 {"depth", VK_FORMAT_D32_SFLOAT}};
  std::vector<std::string> outputs;
  passes::ViewPass view(env());
  for (const auto& [name, format] : sources) {
    graph.declare_image(name, {format});
    graph.add_pass("fill " + name, graph::PassKind::Transfer)
        .write(name, graph::Usage::TransferDst)
        .execute([](graph::PassContext&) {});
    view.add_to(graph, name, name + " view", "view " + name);
    outputs.push_back(name + " view");
  }
  const graph::CompiledGraph compiled = graph.compile(outputs, {kWidth, kHeight});
  ASSERT_EQ(compiled.buffers.size(), 1u);
  EXPECT_EQ(compiled.buffers[0].name, "view depth depth range");
  std::vector<std::string> with_buffers;
  for (const graph::CompiledPass& pass : compiled.passes)
    if (!pass.buffer_accesses.empty()) with_buffers.push_back(pass.name);
  EXPECT_EQ(with_buffers,
            (std::vector<std::string>{"view depth range reset", "view depth range", "view depth"}));
  EXPECT_TRUE(compiled.culled.empty());
}

// The range step reads the depth and folds it into the range buffer; it never touches the view,
// so it declares neither the view nor any write but the buffer's, and the view has one writer.
TEST_F(ViewPassTest, TheRangeStepDeclaresOnlyWhatItTouches) {
  graph::RenderGraph graph;
  graph.declare_image("depth", {VK_FORMAT_D32_SFLOAT});
  graph.add_pass("fill depth", graph::PassKind::Transfer)
      .write("depth", graph::Usage::TransferDst)
      .execute([](graph::PassContext&) {});
  passes::ViewPass view(env());
  view.add_to(graph, "depth", "depth view", "view");
  const graph::CompiledGraph compiled = graph.compile({"depth view"}, {kWidth, kHeight});
  const uint32_t depth = *compiled.find_image("depth"), output = *compiled.find_image("depth view");
  const uint32_t range = *compiled.find_buffer("view depth range");
  auto pass = [&](const std::string& name) -> const graph::CompiledPass& {
    auto it = std::find_if(compiled.passes.begin(), compiled.passes.end(),
                           [&](const graph::CompiledPass& p) { return p.name == name; });
    EXPECT_NE(it, compiled.passes.end()) << name;
    return *it;
  };

  const graph::CompiledPass& range_step = pass("view range");
  ASSERT_EQ(range_step.accesses.size(), 1u);
  EXPECT_EQ(range_step.accesses[0].image, depth);
  EXPECT_EQ(range_step.accesses[0].usage, graph::Usage::SampledCompute);
  EXPECT_EQ(range_step.buffer_accesses, (std::vector<std::pair<uint32_t, graph::BufferUsage>>{
                                            {range, graph::BufferUsage::StorageReadWriteCompute}}));

  // The show step reads the buffer and is the view's only writer.
  EXPECT_EQ(pass("view").buffer_accesses, (std::vector<std::pair<uint32_t, graph::BufferUsage>>{
                                              {range, graph::BufferUsage::StorageReadCompute}}));
  std::vector<std::string> view_accessors;
  for (const graph::CompiledPass& p : compiled.passes)
    for (const graph::CompiledAccess& a : p.accesses)
      if (a.image == output) view_accessors.push_back(p.name);
  EXPECT_EQ(view_accessors, std::vector<std::string>{"view"});
}

// A fixed depth range leaves the range passes nothing to do: they record nothing and the frame's
// timings say so (idle, no time), in that frame only; the view itself is never idle.
TEST_F(ViewPassTest, RangePassesAreIdleInFramesWithAFixedRange) {
  const std::vector<float> depth = random_floats(kPixels, 14, 0.9f, 1.0f);
  graph::RenderGraph graph;
  RawUpload upload(*context_, VK_FORMAT_D32_SFLOAT, kWidth, kHeight, float_bytes(depth));
  upload.add_to(graph, "depth");
  passes::ViewPass view(env());
  view.add_to(graph, "depth", "depth view", "view");
  graph::Executor executor(*context_, 1, true);
  executor.prepare(graph, {"depth view"}, {kWidth, kHeight});
  vk::OneShotCommands commands(*context_);
  auto idle_passes = [&](uint64_t frame) {
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, frame); });
    std::vector<std::string> idle;
    const std::optional<std::vector<graph::PassTiming>> timings = executor.timings(0);
    EXPECT_TRUE(timings.has_value());
    for (const graph::PassTiming& t : timings.value_or(std::vector<graph::PassTiming>{}))
      if (t.idle) {
        idle.push_back(t.name);
        EXPECT_EQ(t.gpu_ms, 0.0) << t.name;
      }
    return idle;
  };
  EXPECT_TRUE(idle_passes(0).empty()) << "automatic range";
  view.settings.depth_lo = 0.92f;
  view.settings.depth_hi = 0.95f;
  EXPECT_EQ(idle_passes(1), (std::vector<std::string>{"view range reset", "view range"}));
  view.settings.depth_hi = 0.0f;
  EXPECT_TRUE(idle_passes(2).empty()) << "automatic range again";
}

TEST_F(ViewPassTest, HdrGoesThroughExposureAcesAndSrgb) {
  // Negative, small (the sRGB line segment), mid-tone and far above 1 (the ACES shoulder).
  std::vector<float> texels = random_floats(kPixels * 4, 1, -1.0f, 24.0f);
  const std::vector<float> small = random_floats(kPixels, 2, 0.0f, 0.004f);
  for (size_t p = 0; p < kPixels; p += 3) texels[p * 4 + 1] = small[p];
  for (float exposure : {1.0f, 0.3f, 2.5f}) {
    SCOPED_TRACE("exposure " + std::to_string(exposure));
    for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}) {
      SCOPED_TRACE(vk::format_name(format));
      const bool half = format == VK_FORMAT_R16G16B16A16_SFLOAT;
      const std::vector<float> stored = half ? half_rounded(texels) : texels;
      const graph::Readback view =
          view_of(format, half ? half_bytes(texels) : float_bytes(texels), with_exposure(exposure));
      expect_view(view, kWidth, kHeight, [&](size_t p) {
        return std::array<double, 4>{aces_srgb_units(stored[p * 4], exposure),
                                     aces_srgb_units(stored[p * 4 + 1], exposure),
                                     aces_srgb_units(stored[p * 4 + 2], exposure), 255.0};
      });
    }
  }
}

TEST_F(ViewPassTest, OneChannelHdrShowsAsGray) {
  const std::vector<float> texels = random_floats(kPixels, 3, -0.5f, 12.0f);
  for (VkFormat format : {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R16_SFLOAT}) {
    SCOPED_TRACE(vk::format_name(format));
    const bool half = format == VK_FORMAT_R16_SFLOAT;
    const std::vector<float> stored = half ? half_rounded(texels) : texels;
    const graph::Readback view =
        view_of(format, half ? half_bytes(texels) : float_bytes(texels), with_exposure(0.7f));
    expect_view(view, kWidth, kHeight, [&](size_t p) {
      const double g = aces_srgb_units(stored[p], 0.7f);
      return std::array<double, 4>{g, g, g, 255.0};
    });
  }
}

TEST_F(ViewPassTest, AChannelAloneShowsAsGrayThroughTheKindsMapping) {
  const std::vector<float> texels = random_floats(kPixels * 4, 4, 0.0f, 6.0f);
  const std::vector<uint8_t> bytes = random_bytes(kPixels * 4, 5);
  using Channel = ViewSettings::Channel;
  for (Channel channel : {Channel::R, Channel::G, Channel::B, Channel::A}) {
    const uint32_t c = uint32_t(channel) - 1;
    SCOPED_TRACE("channel " + std::to_string(c));
    const graph::Readback hdr =
        view_of(VK_FORMAT_R32G32B32A32_SFLOAT, float_bytes(texels), with_channel(channel, 1.5f));
    expect_view(hdr, kWidth, kHeight, [&](size_t p) {
      const double g = aces_srgb_units(texels[p * 4 + c], 1.5f);
      return std::array<double, 4>{g, g, g, 255.0};
    });
    const graph::Readback display = view_of(VK_FORMAT_R8G8B8A8_UNORM, bytes, with_channel(channel));
    expect_view(
        display, kWidth, kHeight,
        [&](size_t p) {
          const double g = bytes[p * 4 + c];
          return std::array<double, 4>{g, g, g, 255.0};
        },
        0);
  }
}

TEST_F(ViewPassTest, DisplayImagesShowTheirStoredValues) {
  const std::vector<uint8_t> bytes = random_bytes(kPixels * 4, 6);
  const graph::Readback rgba = view_of(VK_FORMAT_R8G8B8A8_UNORM, bytes, {});
  EXPECT_EQ(rgba.bytes, bytes) << "an RGBA8 image is copied bit-exact, alpha included";

  // BGRA in memory; the view is RGBA.
  const graph::Readback bgra = view_of(VK_FORMAT_B8G8R8A8_UNORM, bytes, {});
  expect_view(
      bgra, kWidth, kHeight,
      [&](size_t p) {
        const uint8_t* s = &bytes[p * 4];
        return std::array<double, 4>{double(s[2]), double(s[1]), double(s[0]), double(s[3])};
      },
      0);

  // The sampler decodes sRGB formats and the pass re-encodes them: the stored bytes again, but
  // through two fp32 curves.
  const graph::Readback srgb = view_of(VK_FORMAT_R8G8B8A8_SRGB, bytes, {});
  expect_view(srgb, kWidth, kHeight, [&](size_t p) {
    const uint8_t* s = &bytes[p * 4];
    return std::array<double, 4>{double(s[0]), double(s[1]), double(s[2]), double(s[3])};
  });

  const std::vector<uint8_t> gray = random_bytes(kPixels, 7);
  const graph::Readback r8 = view_of(VK_FORMAT_R8_UNORM, gray, {});
  expect_view(
      r8, kWidth, kHeight,
      [&](size_t p) {
        return std::array<double, 4>{double(gray[p]), double(gray[p]), double(gray[p]), 255.0};
      },
      0);
}

TEST_F(ViewPassTest, DepthAutoRangeSpansThisFramesGeometry) {
  // A perspective depth buffer's values crowd towards 1; a block of clear (1.0) pixels.
  std::vector<float> depth = random_floats(kPixels, 8, 0.97f, 0.9999f);
  for (uint32_t y = 3; y < 9; ++y)
    for (uint32_t x = 20; x < 31; ++x) depth[y * kWidth + x] = 1.0f;
  float lo = 1.0f, hi = 0.0f;
  for (float d : depth)
    if (d < 1.0f) lo = std::min(lo, d), hi = std::max(hi, d);
  const graph::Readback view = view_of(VK_FORMAT_D32_SFLOAT, float_bytes(depth), {});
  expect_view(view, kWidth, kHeight, [&](size_t p) {
    const double g = depth_units(depth[p], lo, hi);
    return std::array<double, 4>{g, g, g, 255.0};
  });
  // The ends of the ramp are reached: white at the nearest pixel, 48 at the farthest.
  const size_t nearest = std::min_element(depth.begin(), depth.end()) - depth.begin();
  EXPECT_EQ(view.bytes[nearest * 4], 255);
  size_t farthest = 0;
  for (size_t p = 0; p < kPixels; ++p)
    if (depth[p] < 1.0f && depth[p] == hi) farthest = p;
  EXPECT_NEAR(view.bytes[farthest * 4], 48, kTolerance);
}

TEST_F(ViewPassTest, DepthFixedRangeClampsAndEdgeCases) {
  const std::vector<float> depth = random_floats(kPixels, 9, 0.5f, 1.0f);  // includes values past both ends
  ViewSettings fixed;
  fixed.depth_lo = 0.7f;
  fixed.depth_hi = 0.9f;
  const graph::Readback view = view_of(VK_FORMAT_D32_SFLOAT, float_bytes(depth), fixed);
  expect_view(view, kWidth, kHeight, [&](size_t p) {
    const double g = depth_units(depth[p], 0.7f, 0.9f);
    return std::array<double, 4>{g, g, g, 255.0};
  });

  // One depth value everywhere but a clear row: mid-ramp gray; nothing but clear: black.
  std::vector<float> flat(kPixels, 0.25f);
  std::fill(flat.begin(), flat.begin() + kWidth, 1.0f);
  expect_view(view_of(VK_FORMAT_D32_SFLOAT, float_bytes(flat), {}), kWidth, kHeight, [&](size_t p) {
    const double g = depth_units(flat[p], 0.25f, 0.25f);
    return std::array<double, 4>{g, g, g, 255.0};
  });
  const std::vector<float> clear(kPixels, 1.0f);
  expect_view(
      view_of(VK_FORMAT_D32_SFLOAT, float_bytes(clear), {}), kWidth, kHeight,
      [](size_t) {
        return std::array<double, 4>{0, 0, 0, 255};
      },
      0);
}

TEST_F(ViewPassTest, MotionMapsPixelsToRedAndGreenAroundGray) {
  std::vector<float> motion = random_floats(kPixels * 2, 10, -12.0f, 12.0f);
  motion[0] = motion[1] = 0.0f;  // still: gray
  for (float scale : {1.0f / 16.0f, 0.25f}) {
    SCOPED_TRACE("scale " + std::to_string(scale));
    ViewSettings s;
    s.motion_scale = scale;
    for (VkFormat format : {VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R32G32_SFLOAT}) {
      SCOPED_TRACE(vk::format_name(format));
      const bool half = format == VK_FORMAT_R16G16_SFLOAT;
      const std::vector<float> stored = half ? half_rounded(motion) : motion;
      const graph::Readback view = view_of(format, half ? half_bytes(motion) : float_bytes(motion), s);
      expect_view(view, kWidth, kHeight, [&](size_t p) {
        return std::array<double, 4>{motion_units(stored[p * 2], scale),
                                     motion_units(stored[p * 2 + 1], scale), 128.0, 255.0};
      });
    }
  }
}

TEST_F(ViewPassTest, ReadsMipZeroOfAMippedSource) {
  const std::vector<uint8_t> bytes = random_bytes(kPixels * 4, 11);
  graph::RenderGraph graph;
  RawUpload upload(*context_, VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, bytes, 3);
  upload.add_to(graph, "source");
  passes::ViewPass view(env());
  view.add_to(graph, "source", "view");
  EXPECT_EQ(run(graph, {"view"}, {kWidth, kHeight}).at("view").bytes, bytes);
}

// The scene's real images: the view agrees with the capture conversions (io::) and with the
// tonemap pass, so the viewport shows what `--capture` writes and what "final" holds.
TEST_F(ViewPassTest, SceneImagesMatchTheCapturesAndTheTonemap) {
  const uint32_t width = 97, height = 61;
  const float exposure = 1.3f;
  graph::RenderGraph graph;
  passes::ScenePass scene(env(), scene::SceneSettings{});
  scene.add_to(graph);
  passes::TonemapPass tonemap(env());
  tonemap.display.exposure = exposure;
  tonemap.add_to(graph, passes::ScenePass::kColor);
  // One ViewPass for all four, each view with its own depth range buffer in the graph.
  passes::ViewPass view(env());
  view.settings.exposure = exposure;
  view.add_to(graph, passes::ScenePass::kColor, "scene view", "view scene");
  view.add_to(graph, passes::ScenePass::kDepth, "depth view", "view depth");
  view.add_to(graph, passes::ScenePass::kMotion, "motion view", "view motion");
  view.add_to(graph, passes::TonemapPass::kOutput, "final view", "view final");
  // Frame 1: the camera orbits and objects move between frames 0 and 1, so motion is not zero.
  const auto images = run(
      graph, {"scene view", "depth view", "motion view", "final view", "scene", "depth", "motion", "final"},
      {width, height}, 2);

  const io::ImageF depth = graph::to_float_image(images.at("depth"));
  const auto [lo, hi] = std::minmax_element(depth.pixels.begin(), depth.pixels.end());
  ASSERT_LT(*lo, *hi) << "the scene's depth should vary";
  const io::ImageF motion = graph::to_float_image(images.at("motion"));
  float fastest = 0.0f;  // pixels; a fraction of one at this size and 1/60 s a frame
  for (float m : motion.pixels) fastest = std::max(fastest, std::abs(m));
  ASSERT_GT(fastest, 0.1f) << "the scene should move";

  auto expect_matches = [&](const std::string& name, const io::ImageU8& cpu, int tolerance) {
    SCOPED_TRACE(name);
    expect_view(
        images.at(name), width, height,
        [&](size_t p) {
          const uint8_t* c = &cpu.rgba[p * 4];
          return std::array<double, 4>{double(c[0]), double(c[1]), double(c[2]), double(c[3])};
        },
        tolerance);
  };
  expect_matches("scene view", passes::hdr_to_display(graph::to_float_image(images.at("scene")), exposure),
                 kTolerance);
  expect_matches("depth view", io::depth_to_display(depth), kTolerance);
  expect_matches("motion view", io::motion_to_display(motion), kTolerance);
  const graph::Readback& final_image = images.at("final");
  expect_matches("final view", io::ImageU8{width, height, final_image.bytes}, 0);
  // The same shader functions (display_common.glsl) on the same input: the same bytes as "final".
  EXPECT_EQ(images.at("scene view").bytes, final_image.bytes);
}

// Two frames in flight, one ViewPass showing HDR and depth, settings edited between frames: the
// frame recorded right after an edit, while the frame before it (old settings) may still run,
// already shows the new settings, and the depth view's range buffer, reset, measured and read by
// three passes in every frame, raises no synchronization message across frames in flight.
TEST_F(ViewPassTest, SettingsEditedBetweenFramesApplyToTheNextFrame) {
  const std::vector<float> hdr = random_floats(kPixels * 4, 12, 0.0f, 8.0f);
  const std::vector<float> depth = random_floats(kPixels, 13, 0.9f, 1.0f);
  graph::RenderGraph graph;
  RawUpload hdr_upload(*context_, VK_FORMAT_R32G32B32A32_SFLOAT, kWidth, kHeight, float_bytes(hdr));
  RawUpload depth_upload(*context_, VK_FORMAT_D32_SFLOAT, kWidth, kHeight, float_bytes(depth));
  hdr_upload.add_to(graph, "hdr");
  depth_upload.add_to(graph, "depth");
  passes::ViewPass view({*context_, *shaders_, runtime::kFramesInFlight});
  // The depth view first here (the scene test has it after an HDR view).
  view.add_to(graph, "depth", "depth view", "view depth");
  view.add_to(graph, "hdr", "hdr view", "view hdr");

  graph::Executor executor(*context_, runtime::kFramesInFlight, false);
  executor.prepare(graph, {"hdr view", "depth view"}, {kWidth, kHeight});
  runtime::FrameRing ring(*context_);
  struct Step {
    float exposure, depth_lo, depth_hi;
  };
  uint64_t frame = 0;
  auto record_frame = [&] {
    VkCommandBuffer cmd = ring.begin(frame);
    executor.record(cmd, uint32_t(frame % runtime::kFramesInFlight), frame);
    ring.submit(frame);
    ++frame;
  };
  for (Step step : {Step{1.0f, 0, 0}, Step{0.25f, 0.92f, 0.95f}, Step{3.0f, 0, 0}, Step{0.5f, 0, 0}}) {
    SCOPED_TRACE("exposure " + std::to_string(step.exposure));
    record_frame();  // with the previous settings, left in flight
    view.settings.exposure = step.exposure;
    view.settings.depth_lo = step.depth_lo;
    view.settings.depth_hi = step.depth_hi;
    record_frame();  // the frame right after the edit: the images read below are its own
    ring.wait_for(frame);
    expect_view(executor.read_image("hdr view"), kWidth, kHeight, [&](size_t p) {
      return std::array<double, 4>{aces_srgb_units(hdr[p * 4], step.exposure),
                                   aces_srgb_units(hdr[p * 4 + 1], step.exposure),
                                   aces_srgb_units(hdr[p * 4 + 2], step.exposure), 255.0};
    });
    float lo = step.depth_lo, hi = step.depth_hi;
    if (!(hi > lo)) {
      lo = 1.0f, hi = 0.0f;
      for (float d : depth)
        if (d < 1.0f) lo = std::min(lo, d), hi = std::max(hi, d);
    }
    expect_view(executor.read_image("depth view"), kWidth, kHeight, [&](size_t p) {
      const double g = depth_units(depth[p], lo, hi);
      return std::array<double, 4>{g, g, g, 255.0};
    });
  }
}
