// What a user's own picture becomes (issue #54): colour with alpha is filtered premultiplied, so an
// edge where alpha falls keeps its colour; a PNG or JPEG given to `run --image` is shown as stored
// (the identity curve, `--tonemap none`), and --tonemap still picks another.
#include "gpu_test_util.h"

#include "common/reference.h"
#include "io/image_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace filterlab {
namespace {

// A white opaque square on transparent black, blurred: straight colour filtering gave an edge pixel of
// RGB 101 at alpha 33 (black bleeding in from the transparent pixels); premultiplied, every pixel
// with any alpha is still white, and the transparent ones stay colour 0.
TEST(Alpha, AWhiteSquareOnTransparentBlackStaysWhiteAtItsEdges) {
  const std::string dir = test::temp_dir("alpha-square");
  constexpr uint32_t kSide = 33;
  std::vector<uint16_t> samples(kSide * kSide * 4, 0);
  for (uint32_t y = 10; y < 23; ++y)
    for (uint32_t x = 10; x < 23; ++x)
      for (uint32_t c = 0; c < 4; ++c) samples[(y * kSide + x) * 4 + c] = 255;
  io::write_png_samples(dir + "/square.png", kSide, kSide, 4, 8, samples);
  const auto r = test::run_binary("filter --validation --input " + dir + "/square.png --output " + dir +
                                  "/blurred.png --radius 4");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const io::ImageU8 out = io::read_png(dir + "/blurred.png");
  size_t edge = 0, transparent = 0;
  for (size_t p = 0; p < size_t(kSide) * kSide; ++p) {
    const uint8_t* px = &out.rgba[p * 4];
    if (px[3] == 0) {
      EXPECT_EQ(px[0] + px[1] + px[2], 0) << "pixel " << p << ": colour where alpha is 0";
      ++transparent;
      continue;
    }
    edge += px[3] < 255;
    for (int c = 0; c < 3; ++c)
      EXPECT_GE(px[c], 254) << "pixel " << p % kSide << "," << p / kSide << " channel " << c << " at alpha "
                            << int(px[3]);
  }
  EXPECT_GT(edge, 100u) << "the blur makes a soft edge";
  EXPECT_GT(transparent, 0u);
  std::filesystem::remove_all(dir);
}

// Read and written back, a PNG's straight colour survives the premultiplication wherever alpha is
// not 0 (within a level: the division rounds), at 8 and 16 bits.
TEST(Alpha, APngRoundTripsThroughPremultipliedColour) {
  const std::string dir = test::temp_dir("alpha-roundtrip");
  for (const uint32_t bits : {8u, 16u}) {
    const uint32_t max = (1u << bits) - 1;
    std::vector<uint16_t> samples(17 * 11 * 4);
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = uint16_t((i * 2654435761u >> 7) % (max + 1));
    io::write_png_samples(dir + "/in.png", 17, 11, 4, bits, samples);
    const io::ImageF image = io::read_image_file(dir + "/in.png", io::Encoding::Srgb);
    io::write_image_file(dir + "/out.png", image, io::Encoding::Srgb, io::ExrSamples::Float,
                         io::PngLayout{4, bits});
    const io::ImageF back = io::read_image_file(dir + "/out.png", io::Encoding::Raw, io::Alpha::AsStored);
    for (size_t p = 0; p < samples.size() / 4; ++p) {
      if (samples[p * 4 + 3] == 0) continue;  // colour 0 there, by design
      // 8-bit alpha near 0 magnifies the rounding of premultiplied fp32 colour: still within a level.
      for (uint32_t c = 0; c < 4; ++c)
        EXPECT_NEAR(back.pixels[p * 4 + c] * double(max), samples[p * 4 + c], 1.0)
            << bits << " bits, pixel " << p << " channel " << c;
    }
  }
  std::filesystem::remove_all(dir);
}

// `run --image photo.png` showed the photo through ACES (a mean change of 12 levels, up to 28);
// it now shows it as stored, headless as in the window, unless --tonemap says otherwise.
TEST(Display, APhotoIsShownAsStoredUnlessACurveIsAskedFor) {
  const std::string dir = test::temp_dir("photo-display");
  const io::ImageF image = common::random_image(31, 23, 3, 4);
  io::write_image_file(dir + "/photo.png", image, io::Encoding::Raw);
  const io::ImageU8 stored = io::read_png(dir + "/photo.png");
  auto shown = [&](const std::string& flags) {
    const auto r =
        test::run_binary("run --headless --validation --frames 1 --warmup 0 --quiet --image " + dir +
                         "/photo.png --chain copy --capture final=" + dir + "/final.png" + flags);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const io::ImageU8 out = io::read_png(dir + "/final.png");
    int worst = 0;
    for (size_t i = 0; i < out.rgba.size(); ++i)
      if (i % 4 != 3) worst = std::max(worst, std::abs(int(out.rgba[i]) - int(stored.rgba[i])));
    return worst;
  };
  EXPECT_LE(shown(""), 1) << "the picture as stored";
  EXPECT_LE(shown(" --tonemap none"), 1);
  EXPECT_GT(shown(" --tonemap aces"), 10) << "--tonemap still picks a curve";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
