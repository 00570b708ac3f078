// tier: smoke
// The one-dispatch box pyramid (renderer/passes/pyramid_pass.h) against its definition, level by
// level: level k + 1 is the exact box mean (double) of level k as the GPU stored it, clamped past an
// odd edge, rounded to the format; the GPU's level must be within 1 ulp of that format (fp32: float
// sums of four; fp16: the same, then one rounding to half). Level 1 comes from the input. Two
// frames with different inputs through one counter show that the last group sets it back to 0.
// Lavapipe, validation on (synchronization validation included).
#include "gpu_test_util.h"

#include "common/reference.h"
#include "graph/executor.h"
#include "graph/readback.h"
#include "passes/passes_config.h"
#include "passes/pyramid_pass.h"
#include "vk/formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace filterlab;

namespace {

// Two RGBA32F images uploaded in turn, frame f gets images[f % 2].
class AlternatingUpload {
 public:
  AlternatingUpload(const vk::Context& ctx, const std::vector<io::ImageF>& images)
      : width_(images.at(0).width), height_(images.at(0).height) {
    for (const io::ImageF& image : images) {
      staging_.emplace_back(ctx, image.pixels.size() * sizeof(float), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true,
                            "pyramid test upload");
      std::memcpy(staging_.back().mapped(), image.pixels.data(), image.pixels.size() * sizeof(float));
    }
  }
  void add_to(graph::RenderGraph& graph, const std::string& name) {
    graph.declare_image(name, {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::absolute(width_, height_)});
    graph.add_pass("upload", graph::PassKind::Transfer)
        .write(name, graph::Usage::TransferDst)
        .execute([this, name](graph::PassContext& ctx) {
          VkBufferImageCopy region{};
          region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
          region.imageExtent = {width_, height_, 1};
          vkCmdCopyBufferToImage(ctx.cmd, staging_.at(ctx.frame % staging_.size()).handle(),
                                 ctx.image_handle(name), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        });
  }

 private:
  uint32_t width_, height_;
  std::vector<vk::Buffer> staging_;
};

// How many representable values of the format lie between a and b (0: equal).
uint32_t ulps(float a, float b, bool half) {
  if (half) {
    auto key = [](float v) {
      const uint16_t h = vk::float_to_half(v);
      return (h & 0x8000) ? -int32_t(h & 0x7fff) : int32_t(h);
    };
    return uint32_t(std::abs(key(a) - key(b)));
  }
  auto key = [](float v) {
    const uint32_t u = std::bit_cast<uint32_t>(v);
    return (u & 0x80000000u) ? -int64_t(u & 0x7fffffffu) : int64_t(u);
  };
  return uint32_t(std::llabs(key(a) - key(b)));
}

// The next level of `s` by the definition, rounded to the format.
io::ImageF box_level(const io::ImageF& s, bool half) {
  io::ImageF out;
  out.width = (s.width + 1) / 2;
  out.height = (s.height + 1) / 2;
  out.channels = 4;
  out.pixels.resize(size_t(out.width) * out.height * 4);
  auto at = [&](uint32_t x, uint32_t y, uint32_t c) {
    return double(s.pixels[(size_t(std::min(y, s.height - 1)) * s.width + std::min(x, s.width - 1)) * 4 + c]);
  };
  for (uint32_t y = 0; y < out.height; ++y)
    for (uint32_t x = 0; x < out.width; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        const double mean = (at(2 * x, 2 * y, c) + at(2 * x + 1, 2 * y, c) + at(2 * x, 2 * y + 1, c) +
                             at(2 * x + 1, 2 * y + 1, c)) /
                            4.0;
        const float rounded = half ? vk::half_to_float(vk::float_to_half(float(mean))) : float(mean);
        out.pixels[(size_t(y) * out.width + x) * 4 + c] = rounded;
      }
  return out;
}

class Pyramid : public test::ValidatedSuite {
 protected:
  // Runs two frames (inputs a, then b) and checks every level of the second against b's definition.
  void check(uint32_t width, uint32_t height, VkFormat format, int levels) {
    const bool half = format == VK_FORMAT_R16G16B16A16_SFLOAT;
    const std::string what = std::to_string(width) + "x" + std::to_string(height) +
                             (half ? " fp16" : " fp32") + " levels " + std::to_string(levels);
    // HDR colours over four decades: the rounding has work at every level. (Positive, as colours
    // are: a sum of values of mixed signs may cancel, and then no bound in the result's ulps holds.)
    io::ImageF a = common::random_image(width, height, 4, 7), b = common::random_image(width, height, 4, 8);
    for (io::ImageF* image : {&a, &b})
      for (float& v : image->pixels) v = std::exp2(13.0f * v - 6.0f);

    passes::PassEnv env{*context_, *shaders_, 1};
    graph::RenderGraph graph;
    AlternatingUpload upload(*context_, {a, b});
    upload.add_to(graph, "input");
    passes::PyramidPass pyramid(env);
    const std::vector<std::string> names = pyramid.add_to(graph, "input", format, levels, "p", "p.pyramid");
    ASSERT_EQ(int(names.size()) - 1,
              levels <= PYRAMID_LOCAL_LEVELS ? PYRAMID_LOCAL_LEVELS : PYRAMID_MAX_LEVELS);
    const std::vector<std::string> outputs(names.begin() + 1, names.end());

    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, outputs, {width, height});
    ASSERT_EQ(executor.compiled().passes.size(), 2u) << "the upload and one pyramid pass";
    vk::OneShotCommands commands(*context_);
    for (uint64_t f = 0; f < 2; ++f) commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, f); });

    io::ImageF above = b;
    for (size_t k = 1; k < names.size(); ++k) {
      const io::ImageF level = graph::to_float_image(executor.read_image(names[k]));
      const io::ImageF expected = box_level(above, half);
      ASSERT_EQ(level.width, expected.width) << what << " level " << k;
      ASSERT_EQ(level.height, expected.height) << what << " level " << k;
      uint32_t worst = 0;
      for (size_t i = 0; i < level.pixels.size(); ++i)
        worst = std::max(worst, ulps(level.pixels[i], expected.pixels[i], half));
      EXPECT_LE(worst, 1u) << what << " level " << k;
      above = level;
    }
  }
};

}  // namespace

TEST_F(Pyramid, EveryLevelIsTheBoxMeanOfTheLevelAboveAsStored) {
  for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT})
    for (VkExtent2D size : {VkExtent2D{1, 1}, VkExtent2D{3, 5}, VkExtent2D{257, 131}}) {
      check(size.width, size.height, format, PYRAMID_MAX_LEVELS);
      check(size.width, size.height, format, 3);
    }
}

// A frame's size: tiles of 64 x 64 in a 30 x 17 grid (two a group in fp16, so 15 x 17 groups), the
// tiles cut by the edge, and a tail of eight levels through the last group.
TEST_F(Pyramid, AFullHdFrame) {
  check(1920, 1080, VK_FORMAT_R16G16B16A16_SFLOAT, PYRAMID_MAX_LEVELS);
  check(1921, 1079, VK_FORMAT_R32G32B32A32_SFLOAT, PYRAMID_MAX_LEVELS);
}

// Past 4096 on a side, the last group's first levels no longer fit its shared memory and it reads
// them back from their images (behind a fence). 16.8 million texels: outside CI (FILTERLAB_LARGE_TESTS=1).
TEST_F(Pyramid, ALargeImageReadsItsLastLevelsBackFromTheImages) {
  if (!std::getenv("FILTERLAB_LARGE_TESTS")) GTEST_SKIP() << "set FILTERLAB_LARGE_TESTS=1 to run";
  check(4097, 4097, VK_FORMAT_R16G16B16A16_SFLOAT, PYRAMID_MAX_LEVELS);
}
