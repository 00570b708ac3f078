// GPU tier: FLIP's passes (renderer/passes/flip_pass.h) against the double-precision definition
// (common/flip.h), on lavapipe with synchronization validation: LDR-FLIP of linear and of
// sRGB-encoded inputs, HDR-FLIP at the exposures the reference's luminance gives, on random,
// perturbed, 8-bit and photographic pairs at odd sizes, the inputs uploaded as RGBA32F and as
// RGBA16F (the reference then takes the half-rounded values), at three pixels per degree.
//
// Bound (docs/flip.md): the mean within 1e-4 of the reference's, and each pixel within 1e-3 on at
// least 99.9% of the pixels.
#include "gpu_test_util.h"

#include "common/flip.h"
#include "graph/executor.h"
#include "io/image_files.h"
#include "passes/flip_pass.h"
#include "passes/passes_config.h"
#include "passes/upload_pass.h"
#include "vk/formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

using namespace filterlab;

namespace {

constexpr double kMeanBound = 1e-4, kPixelBound = 1e-3, kPixelShare = 0.999;

io::ImageF random_image(uint32_t width, uint32_t height, uint32_t seed, float low, float high) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(low, high);
  io::ImageF image{width, height, 3, std::vector<float>(size_t(width) * height * 3)};
  for (float& v : image.pixels) v = dist(rng);
  return image;
}

io::ImageF perturbed(io::ImageF image, uint32_t seed, float amplitude) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-amplitude, amplitude);
  for (float& v : image.pixels) v = std::max(0.0f, v + v * dist(rng) + amplitude * dist(rng));
  return image;
}

io::ImageF quantized(io::ImageF image) {
  for (float& v : image.pixels) v = std::round(std::clamp(v, 0.0f, 1.0f) * 255.0f) / 255.0f;
  return image;
}

io::ImageF as_half(io::ImageF image) {
  for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
  return image;
}

// A colour photograph (scikit-image's data as Debian installs it), its top left crop, RGB.
io::ImageF photograph(uint32_t width, uint32_t height) {
  const io::ImageF full =
      io::read_image_file("/usr/lib/python3/dist-packages/skimage/data/chelsea.png", io::Encoding::Raw);
  io::ImageF out{width, height, 3, {}};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      for (uint32_t c = 0; c < 3; ++c)
        out.pixels.push_back(full.pixels[(size_t(y) * full.width + x) * full.channels + c]);
  return out;
}

// The photograph blurred by a 3x3 box: a test image of the kind filterlab makes.
io::ImageF box_blurred(const io::ImageF& in) {
  io::ImageF out = in;
  const int w = int(in.width), h = int(in.height);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        float sum = 0;
        for (int j = -1; j <= 1; ++j)
          for (int i = -1; i <= 1; ++i)
            sum += in.pixels[(size_t(std::clamp(y + j, 0, h - 1)) * w + size_t(std::clamp(x + i, 0, w - 1))) *
                                 3 +
                             c];
        out.pixels[(size_t(y) * w + x) * 3 + c] = sum / 9;
      }
  return out;
}

enum class Kind { Linear, Srgb, Hdr };

class FlipPassTest : public test::ValidatedSuite {
 protected:
  struct Gpu {
    std::vector<float> map;
    passes::FlipResult result;
  };

  static Gpu run(const io::ImageF& reference, const io::ImageF& test, Kind kind, double ppd, VkFormat format,
                 const common::FlipExposures& exposures = {}) {
    passes::PassEnv env{*context_, *shaders_, 1};
    const passes::FlipOfImages f =
        passes::flip_images(env, reference, test, ppd, kind == Kind::Hdr,
                            kind == Kind::Srgb ? common::FlipInput::Srgb : common::FlipInput::Linear,
                            kind == Kind::Hdr ? std::optional(exposures) : std::nullopt, format);
    EXPECT_EQ(f.result.frame, 0u);
    return {f.map, f.result};
  }

  // The GPU's map and mean against the reference's, within the bound; returns the largest error.
  static double expect_within_bound(const io::ImageF& reference, const io::ImageF& test, Kind kind,
                                    double ppd, VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT) {
    const bool half = format == VK_FORMAT_R16G16B16A16_SFLOAT;
    const io::ImageF r = half ? as_half(reference) : reference, t = half ? as_half(test) : test;
    common::FlipExposures exposures;
    std::vector<double> cpu;
    if (kind == Kind::Hdr) {
      exposures = common::flip_exposures(r);
      cpu = common::hdr_flip(r, t, ppd, exposures);
    } else {
      cpu = common::ldr_flip(r, t, ppd,
                             kind == Kind::Srgb ? common::FlipInput::Srgb : common::FlipInput::Linear);
    }
    const Gpu gpu = run(reference, test, kind, ppd, format, exposures);
    EXPECT_EQ(gpu.map.size(), cpu.size());
    if (gpu.map.size() != cpu.size()) return 1;
    size_t outside = 0;
    double largest = 0;
    for (size_t p = 0; p < cpu.size(); ++p) {
      const double error = std::abs(gpu.map[p] - cpu[p]);
      largest = std::max(largest, error);
      if (!(error <= kPixelBound)) ++outside;
    }
    const common::FlipPooled pooled = common::pool_flip(cpu);
    EXPECT_NEAR(gpu.result.mean, pooled.mean, kMeanBound);
    EXPECT_LE(double(outside), (1 - kPixelShare) * double(cpu.size()))
        << outside << " of " << cpu.size() << " pixels over " << kPixelBound << " (largest " << largest
        << ")";
    EXPECT_NEAR(gpu.result.max, *std::max_element(gpu.map.begin(), gpu.map.end()), 0.0)
        << "the reduction's max";
    return largest;
  }
};

std::string trace(uint32_t w, uint32_t h, double ppd, VkFormat format) {
  return std::to_string(w) + "x" + std::to_string(h) + " at " + std::to_string(ppd) + " ppd, " +
         vk::format_name(format);
}

}  // namespace

TEST_F(FlipPassTest, AnImageAgainstItselfIsZero) {
  const io::ImageF a = random_image(37, 21, 1, 0.0f, 1.0f);
  for (Kind kind : {Kind::Linear, Kind::Srgb}) {
    const Gpu gpu = run(a, a, kind, common::default_pixels_per_degree(), VK_FORMAT_R32G32B32A32_SFLOAT);
    EXPECT_EQ(gpu.result.mean, 0.0);
    EXPECT_EQ(gpu.result.max, 0.0);
  }
  const io::ImageF hdr = random_image(37, 21, 2, 0.0f, 20.0f);
  const Gpu gpu = run(hdr, hdr, Kind::Hdr, 67, VK_FORMAT_R32G32B32A32_SFLOAT, common::flip_exposures(hdr));
  EXPECT_EQ(gpu.result.max, 0.0);
}

TEST_F(FlipPassTest, LdrMatchesTheReferenceAtOddSizes) {
  const std::pair<uint32_t, uint32_t> sizes[] = {{257, 131}, {31, 17}, {5, 3}, {1, 1}};
  uint32_t seed = 10;
  double largest = 0;
  for (const double ppd : {common::default_pixels_per_degree(), 20.0, 150.0})
    for (auto [w, h] : sizes)
      for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}) {
        SCOPED_TRACE(trace(w, h, ppd, format));
        const io::ImageF a = random_image(w, h, ++seed, 0.0f, 1.0f);
        largest = std::max(largest, expect_within_bound(a, random_image(w, h, ++seed, 0.0f, 1.0f),
                                                        Kind::Linear, ppd, format));
        largest =
            std::max(largest, expect_within_bound(a, perturbed(a, ++seed, 0.02f), Kind::Srgb, ppd, format));
        largest = std::max(largest, expect_within_bound(quantized(a), quantized(perturbed(a, ++seed, 0.05f)),
                                                        Kind::Srgb, ppd, format));
      }
  std::printf("LDR-FLIP: largest per-pixel error %.3g\n", largest);
}

TEST_F(FlipPassTest, LdrMatchesTheReferenceOnAPhotograph) {
  const io::ImageF photo = photograph(203, 117);
  double largest = 0;
  for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}) {
    SCOPED_TRACE(vk::format_name(format));
    largest = std::max(largest, expect_within_bound(photo, box_blurred(photo), Kind::Srgb,
                                                    common::default_pixels_per_degree(), format));
    largest = std::max(largest, expect_within_bound(photo, quantized(perturbed(photo, 5, 0.03f)), Kind::Srgb,
                                                    common::default_pixels_per_degree(), format));
  }
  std::printf("LDR-FLIP on the photograph: largest per-pixel error %.3g\n", largest);
}

TEST_F(FlipPassTest, HdrMatchesTheReference) {
  // HDR: the photograph decoded and scaled to 0..16 with highlights, against its blur and noise;
  // random HDR pairs at odd sizes.
  io::ImageF photo = photograph(131, 97);
  for (float& v : photo.pixels) v = 16.0f * float(std::pow(io::srgb_to_linear(v), 2.0));
  double largest = 0;
  for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}) {
    SCOPED_TRACE(vk::format_name(format));
    largest = std::max(largest, expect_within_bound(photo, box_blurred(photo), Kind::Hdr, 67.0206, format));
    largest =
        std::max(largest, expect_within_bound(photo, perturbed(photo, 7, 0.1f), Kind::Hdr, 40.0, format));
    const io::ImageF a = random_image(57, 33, 8, 0.0f, 30.0f);
    largest = std::max(largest, expect_within_bound(a, perturbed(a, 9, 0.1f), Kind::Hdr, 67.0206, format));
  }
  std::printf("HDR-FLIP: largest per-pixel error %.3g\n", largest);
}

TEST_F(FlipPassTest, BadInputIsReportedClearly) {
  passes::PassEnv env{*context_, *shaders_, 1};
  EXPECT_THROW(passes::FlipPass(env, 0.0), std::invalid_argument);
  EXPECT_THROW(passes::FlipPass(env, 1001.0), std::invalid_argument);
  EXPECT_THROW(passes::FlipPass(env, std::nan("")), std::invalid_argument);
  // Images of two sizes: GraphError when the frame is recorded.
  graph::RenderGraph graph;
  passes::UploadPass a(env, random_image(8, 8, 1, 0, 1), VK_FORMAT_R32G32B32A32_SFLOAT);
  passes::UploadPass b(env, random_image(9, 8, 2, 0, 1), VK_FORMAT_R32G32B32A32_SFLOAT);
  a.add_to(graph, "a");
  b.add_to(graph, "b");
  passes::FlipPass flip(env, 67);
  EXPECT_FALSE(flip.result(0).has_value()) << "no frame recorded yet";
  EXPECT_THROW(flip.result(1), std::out_of_range);
  flip.add_ldr(graph, "a", "b", "flip", common::FlipInput::Linear);
  EXPECT_THROW(flip.add_hdr(graph, "a", "b", "flip2", common::FlipExposures{0, 1, 0}), std::invalid_argument);
  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"flip"}, {8, 8});
  vk::OneShotCommands commands(*context_);
  EXPECT_THROW(commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); }), graph::GraphError);
}

// HDR-FLIP with the exposures found on the GPU: the range equals common::flip_exposures' (the
// luminance in fp32: start and stop within 1e-5 stops, the same count), the map the reference's at
// those exposures; over several frames the passes past the count record nothing.
TEST_F(FlipPassTest, HdrFindsTheExposuresOnTheGpu) {
  io::ImageF photo = photograph(131, 97);
  for (float& v : photo.pixels) v = 24.0f * float(std::pow(io::srgb_to_linear(v), 2.2));
  const io::ImageF blurred = box_blurred(photo);
  // An odd pixel count, and an even one, whose median is the upper middle.
  {
    for (uint32_t width : {131u, 130u}) {
      io::ImageF r = photo, t = blurred;
      if (width != r.width) {
        auto crop = [width](const io::ImageF& in) {
          io::ImageF out{width, in.height, 3, {}};
          for (uint32_t y = 0; y < in.height; ++y)
            for (uint32_t x = 0; x < width; ++x)
              for (uint32_t c = 0; c < 3; ++c)
                out.pixels.push_back(in.pixels[(size_t(y) * in.width + x) * 3 + c]);
          return out;
        };
        r = crop(r), t = crop(t);
      }
      SCOPED_TRACE(std::to_string(r.width) + "x" + std::to_string(r.height));
      const common::FlipExposures cpu_range = common::flip_exposures(r);
      const std::vector<double> cpu = common::hdr_flip(r, t, 67.0206, cpu_range);
      passes::PassEnv env{*context_, *shaders_, 2};
      graph::RenderGraph graph;
      passes::UploadPass upload_r(env, r, VK_FORMAT_R32G32B32A32_SFLOAT),
          upload_t(env, t, VK_FORMAT_R32G32B32A32_SFLOAT);
      upload_r.add_to(graph, "reference");
      upload_t.add_to(graph, "test");
      passes::FlipPass flip(env, 67.0206);
      flip.add_hdr(graph, "reference", "test", "flip", std::nullopt);
      graph::Executor executor(*context_, 2, true);
      executor.prepare(graph, {"flip"}, {r.width, r.height});
      vk::OneShotCommands commands(*context_);
      for (uint64_t frame = 0; frame < 4; ++frame) {
        commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, uint32_t(frame % 2), frame); });
        const std::optional<passes::FlipResult> result = flip.result(uint32_t(frame % 2));
        ASSERT_TRUE(result.has_value());
        EXPECT_TRUE(result->hdr);
        EXPECT_TRUE(result->complete) << "frame " << frame;
        EXPECT_NEAR(result->exposures.start, cpu_range.start, 1e-5);
        EXPECT_NEAR(result->exposures.stop, cpu_range.stop, 1e-5);
        EXPECT_EQ(result->exposures.count, cpu_range.count);
        EXPECT_NEAR(result->mean, common::pool_flip(cpu).mean, kMeanBound);
        const std::optional<std::vector<graph::PassTiming>> timings = executor.timings(uint32_t(frame % 2));
        ASSERT_TRUE(timings.has_value());
        size_t recorded_rows = 0;
        for (const graph::PassTiming& t : *timings)
          if (t.name.starts_with("flip rows ") && !t.idle) ++recorded_rows;
        // The first frame in each slot records every exposure; later ones the count found before.
        EXPECT_EQ(recorded_rows, frame < 2 ? size_t(FLIP_MAX_EXPOSURES) : size_t(cpu_range.count))
            << "frame " << frame;
      }
      const graph::Readback map = executor.read_image("flip");
      size_t outside = 0;
      for (size_t p = 0; p < cpu.size(); ++p) {
        float v;
        std::memcpy(&v, map.bytes.data() + p * 4, 4);
        if (!(std::abs(v - cpu[p]) <= kPixelBound)) ++outside;
      }
      EXPECT_LE(double(outside), (1 - kPixelShare) * double(cpu.size()));
    }
  }
}

// A black reference has no exposure range: the count is 0, the map 0, as `compare` says n/a.
TEST_F(FlipPassTest, ABlackReferenceHasNoRange) {
  const io::ImageF black{17, 9, 3, std::vector<float>(17 * 9 * 3, 0.0f)};
  const io::ImageF grey{17, 9, 3, std::vector<float>(17 * 9 * 3, 0.5f)};
  const passes::FlipOfImages f = passes::flip_images({*context_, *shaders_, 1}, black, grey, 67.0206, true,
                                                     common::FlipInput::Linear, std::nullopt);
  EXPECT_EQ(f.result.exposures.count, 0u);
  EXPECT_EQ(f.result.max, 0.0);
  EXPECT_EQ(*std::max_element(f.map.begin(), f.map.end()), 0.0f);
  EXPECT_THROW(common::flip_exposures(black), std::invalid_argument) << "the reference agrees";
}
