// tier: smoke
// The tonemap pass against its CPU model (passes::tonemap, in double): every curve, with a fixed
// exposure and with the automatic one (measured on the GPU in two passes, on the CPU over the same
// pixels), each 8-bit output within 1 of the model's. The input spans 2^-12 to 2^6 on each channel
// (every curve's toe, shoulder and saturation), with gray pixels among the coloured ones.
// Lavapipe, validation on (synchronization validation included).
#include "gpu_test_util.h"

#include "graph/executor.h"
#include "graph/readback.h"
#include "passes/tonemap_curves.h"
#include "passes/tonemap_pass.h"
#include "passes/upload_pass.h"
#include "vk/resources.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace filterlab;

namespace {

io::ImageF hdr_image(uint32_t width, uint32_t height, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> stops(-12.0f, 6.0f);
  io::ImageF image{width, height, 4, std::vector<float>(size_t(width) * height * 4, 1.0f)};
  for (size_t p = 0; p < size_t(width) * height; ++p) {
    float* px = &image.pixels[p * 4];
    px[0] = std::exp2(stops(rng));
    const bool gray = p % 5 == 0;
    px[1] = gray ? px[0] : std::exp2(stops(rng));
    px[2] = gray ? px[0] : std::exp2(stops(rng));
  }
  return image;
}

class TonemapTest : public test::ValidatedSuite {
 protected:
  // "final" of one frame, as the GPU made it.
  io::ImageU8 run(const io::ImageF& hdr, const passes::Display& display) {
    passes::PassEnv env{*context_, *shaders_, 1};
    graph::RenderGraph graph;
    passes::UploadPass upload(env, hdr, VK_FORMAT_R32G32B32A32_SFLOAT);
    upload.add_to(graph, "hdr");
    passes::TonemapPass tonemap(env);
    tonemap.display = display;
    tonemap.add_to(graph, "hdr");
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, {passes::TonemapPass::kOutput}, {hdr.width, hdr.height});
    vk::OneShotCommands commands(*context_);
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    const graph::Readback r = executor.read_image(passes::TonemapPass::kOutput);
    return io::ImageU8{r.extent.width, r.extent.height, r.bytes};
  }
};

int worst_difference(const io::ImageU8& a, const io::ImageU8& b) {
  int worst = 0;
  for (size_t i = 0; i < a.rgba.size(); ++i)
    worst = std::max(worst, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return worst;
}

}  // namespace

TEST_F(TonemapTest, EveryCurveMatchesItsCpuModel) {
  io::ImageF hdr = hdr_image(61, 37, 5);
  // Pixels no light makes: NaN and -inf show black, +inf saturates, as on the CPU.
  hdr.pixels[0] = std::nanf("");
  hdr.pixels[5] = -INFINITY;
  hdr.pixels[10] = INFINITY;
  for (uint32_t i = 0; i < passes::kTonemapperCount; ++i) {
    const auto curve = passes::Tonemapper(i);
    const float exposure = 0.75f;
    const io::ImageU8 gpu = run(hdr, {curve, exposure, false});
    const io::ImageU8 cpu = passes::hdr_to_display(hdr, exposure, curve);
    ASSERT_EQ(gpu.rgba.size(), cpu.rgba.size());
    EXPECT_LE(worst_difference(gpu, cpu), 1) << passes::tonemapper_name(curve);
    // The curves differ: each one is its own (a shader that ignored the choice would fail here).
    if (curve != passes::Tonemapper::Aces) {
      EXPECT_GT(worst_difference(gpu, passes::hdr_to_display(hdr, exposure, passes::Tonemapper::Aces)), 8)
          << passes::tonemapper_name(curve);
    }
  }
}

// Automatic exposure: 0.18 over the geometric mean luminance, measured over every pixel (an odd
// size: partial tiles at the right and bottom edges), times the exposure given as compensation.
TEST_F(TonemapTest, AutomaticExposureMatchesTheCpuModel) {
  for (const float scale : {1.0f, 40.0f}) {  // a dark image and a bright one end up alike
    io::ImageF hdr = hdr_image(67, 45, 9);
    for (float& v : hdr.pixels) v *= scale;
    const double automatic = passes::auto_exposure(hdr);
    for (const float compensation : {1.0f, 2.0f}) {
      const io::ImageU8 gpu = run(hdr, {passes::Tonemapper::Aces, compensation, true});
      const io::ImageU8 cpu =
          passes::hdr_to_display(hdr, float(automatic * compensation), passes::Tonemapper::Aces);
      EXPECT_LE(worst_difference(gpu, cpu), 1) << "scale " << scale << " compensation " << compensation;
    }
  }
}
