#include "io/image_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <random>
#include <string>

namespace fs = std::filesystem;
using namespace filterlab::io;

namespace {

class ImageIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("filterlab_image_io_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
  }
  static std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  // Only the file(s) the test wrote itself may be present: no tmp leftovers.
  size_t entries() const {
    return size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }

  fs::path dir_;
};

ImageF random_image(uint32_t w, uint32_t h, uint32_t c, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-50.0f, 50.0f);
  ImageF img{w, h, c, std::vector<float>(size_t(w) * h * c)};
  for (float& v : img.pixels) v = dist(rng);
  // A few values that must survive bit-exactly.
  img.pixels[0] = 0.0f;
  img.pixels[1 % img.pixels.size()] = -1e30f;
  img.pixels[2 % img.pixels.size()] = 3.4e38f;
  img.pixels[img.pixels.size() - 1] = 1e-30f;
  return img;
}

// Expects `f` to throw IoError whose message names `path`.
template <class F>
void expect_io_error(const fs::path& path, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no IoError for " << path;
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

void append_be(std::string& s, float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) s += char((b >> shift) & 0xff);
}

ImageF gray(std::vector<float> values, uint32_t w, uint32_t h) {
  return ImageF{w, h, 1, std::move(values)};
}

}  // namespace

// ---- PFM --------------------------------------------------------------------

TEST_F(ImageIoTest, PfmRoundTripIsExactForOneAndThreeChannels) {
  for (uint32_t c : {1u, 3u}) {
    const ImageF img = random_image(37, 23, c, 100 + c);
    const fs::path p = dir_ / ("img" + std::to_string(c) + ".pfm");
    write_pfm(p, img);
    const ImageF back = read_pfm(p);
    EXPECT_EQ(back.width, 37u);
    EXPECT_EQ(back.height, 23u);
    EXPECT_EQ(back.channels, c);
    EXPECT_EQ(back.pixels, img.pixels);  // bitwise-equal floats (no NaN in the data)
    EXPECT_EQ(read_bytes(p).substr(0, 2), c == 1 ? "Pf" : "PF");
  }
  EXPECT_EQ(entries(), 2u);
}

TEST_F(ImageIoTest, PfmFourChannelsKeepsFirstThree) {
  const ImageF img = random_image(37, 23, 4, 7);
  const fs::path p = dir_ / "rgba.pfm";
  write_pfm(p, img);
  const ImageF back = read_pfm(p);
  ASSERT_EQ(back.channels, 3u);
  ASSERT_EQ(back.pixels.size(), size_t(37) * 23 * 3);
  for (uint32_t y = 0; y < 23; ++y)
    for (uint32_t x = 0; x < 37; ++x)
      for (uint32_t c = 0; c < 3; ++c) ASSERT_EQ(back.at(x, y, c), img.at(x, y, c));
}

TEST_F(ImageIoTest, PfmTwoChannelsWritesRgbWithZeroBlue) {
  const ImageF img = random_image(5, 3, 2, 9);
  const fs::path p = dir_ / "rg.pfm";
  write_pfm(p, img);
  const ImageF back = read_pfm(p);
  ASSERT_EQ(back.channels, 3u);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 5; ++x) {
      EXPECT_EQ(back.at(x, y, 0), img.at(x, y, 0));
      EXPECT_EQ(back.at(x, y, 1), img.at(x, y, 1));
      EXPECT_EQ(back.at(x, y, 2), 0.0f);
    }
}

TEST_F(ImageIoTest, PfmWrittenLittleEndianBottomUp) {
  const fs::path p = dir_ / "le.pfm";
  write_pfm(p, gray({1.0f, 2.0f}, 1, 2));  // top = 1, bottom = 2
  const std::string bytes = read_bytes(p);
  const std::string header = "Pf\n1 2\n-1.0\n";
  ASSERT_EQ(bytes.size(), header.size() + 8);
  EXPECT_EQ(bytes.substr(0, header.size()), header);
  // First stored row is the bottom one: 2.0f = 0x40000000, little-endian.
  EXPECT_EQ(bytes.substr(header.size(), 4), std::string("\x00\x00\x00\x40", 4));
}

TEST_F(ImageIoTest, ReadsHandCraftedBigEndianPfm) {
  // 2x2 RGB, positive scale = big-endian; file rows are bottom-up.
  std::string s = "PF\n2 2\n1.0\n";
  const float bottom[] = {1, 2, 3, 4, 5, 6}, top[] = {-7, 8.5f, 9, 10, 11, 1e20f};
  for (float v : bottom) append_be(s, v);
  for (float v : top) append_be(s, v);
  const fs::path p = dir_ / "be.pfm";
  write_bytes(p, s);

  const ImageF img = read_pfm(p);
  ASSERT_EQ(img.width, 2u);
  ASSERT_EQ(img.height, 2u);
  ASSERT_EQ(img.channels, 3u);
  EXPECT_EQ(img.pixels, (std::vector<float>{-7, 8.5f, 9, 10, 11, 1e20f, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(img.at(1, 0, 2), 1e20f);
}

TEST_F(ImageIoTest, CorruptOrTruncatedPfmThrows) {
  std::string valid = "PF\n2 1\n-1.0\n";
  valid.append(2 * 3 * 4, '\0');
  const std::string cases[] = {
      valid.substr(0, valid.size() - 1),                            // truncated raster
      valid + "x",                                                  // trailing garbage
      "P6\n2 1\n255\n" + std::string(6, '\0'),                      // wrong magic
      "PF\n2\n",                                                    // header cut short
      "PF\n0 1\n-1.0\n",                                            // zero width
      "PF\n2 x\n-1.0\n" + std::string(24, '\0'),                    // non-numeric height
      "PF\n2 1\n0.0\n" + std::string(24, '\0'),                     // zero scale
      "PF\n4294967295 4294967295\n-1.0\n" + std::string(24, '\0'),  // absurd size
      "",                                                           // empty file
  };
  int i = 0;
  for (const std::string& bytes : cases) {
    const fs::path p = dir_ / ("bad" + std::to_string(i++) + ".pfm");
    write_bytes(p, bytes);
    SCOPED_TRACE(p.string());
    expect_io_error(p, [&] { read_pfm(p); });
  }
  expect_io_error(dir_ / "missing.pfm", [&] { read_pfm(dir_ / "missing.pfm"); });
}

// ---- PNG --------------------------------------------------------------------

TEST_F(ImageIoTest, PngRoundTripIsExact) {
  std::mt19937 rng(42);
  ImageU8 img{37, 23, std::vector<uint8_t>(size_t(37) * 23 * 4)};
  for (uint8_t& v : img.rgba) v = uint8_t(rng());
  const fs::path p = dir_ / "img.png";
  write_png(p, img);
  const ImageU8 back = read_png(p);
  EXPECT_EQ(back.width, 37u);
  EXPECT_EQ(back.height, 23u);
  EXPECT_EQ(back.rgba, img.rgba);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(ImageIoTest, CorruptTruncatedOrMissingPngThrows) {
  ImageU8 img{16, 16, std::vector<uint8_t>(16 * 16 * 4)};
  for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = uint8_t(i * 7);
  const fs::path good = dir_ / "good.png";
  write_png(good, img);
  const std::string bytes = read_bytes(good);

  const fs::path truncated = dir_ / "truncated.png", garbage = dir_ / "garbage.png";
  write_bytes(truncated, bytes.substr(0, bytes.size() / 2));
  write_bytes(garbage, std::string("\x89PNG\r\n\x1a\n", 8) + "definitely not chunks");
  expect_io_error(truncated, [&] { read_png(truncated); });
  expect_io_error(garbage, [&] { read_png(garbage); });
  expect_io_error(dir_ / "missing.png", [&] { read_png(dir_ / "missing.png"); });
}

// ---- atomic writes ----------------------------------------------------------

TEST_F(ImageIoTest, WriteToMissingDirectoryThrowsAndLeavesNothing) {
  const fs::path p = dir_ / "no_such_dir" / "out.pfm";
  expect_io_error(p, [&] { write_pfm(p, gray({1.0f}, 1, 1)); });
  const fs::path q = dir_ / "no_such_dir" / "out.png";
  expect_io_error(q, [&] { write_png(q, ImageU8{1, 1, {1, 2, 3, 4}}); });
  EXPECT_FALSE(fs::exists(dir_ / "no_such_dir"));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(ImageIoTest, FailedRenameRemovesTmpFile) {
  // The tmp file can be written, but renaming a file over a non-empty
  // directory fails, which exercises the cleanup path.
  const fs::path p = dir_ / "out.png";
  fs::create_directories(p / "occupied");
  expect_io_error(p, [&] { write_png(p, ImageU8{1, 1, {1, 2, 3, 4}}); });
  EXPECT_EQ(entries(), 1u);  // only the directory itself
  EXPECT_TRUE(fs::is_directory(p));
}

TEST_F(ImageIoTest, OverwriteReplacesExistingFile) {
  const fs::path p = dir_ / "over.pfm";
  write_pfm(p, gray({1.0f}, 1, 1));
  write_pfm(p, gray({2.0f, 3.0f}, 2, 1));
  EXPECT_EQ(read_pfm(p).pixels, (std::vector<float>{2.0f, 3.0f}));
  EXPECT_EQ(entries(), 1u);
}

// ---- display conversions ----------------------------------------------------

TEST(DisplayTest, MotionToDisplayZeroIsMidGray) {
  const ImageU8 out = motion_to_display(ImageF{2, 1, 2, {0, 0, 0, 0}});
  EXPECT_EQ(out.rgba, (std::vector<uint8_t>{128, 128, 128, 255, 128, 128, 128, 255}));
  // Full scale and beyond saturate; sign picks the direction.
  const ImageU8 sat = motion_to_display(ImageF{1, 1, 2, {8.0f, -100.0f}}, 8.0f);
  EXPECT_EQ(sat.rgba[0], 255);
  EXPECT_EQ(sat.rgba[1], 0);
}

TEST(DisplayTest, DepthToDisplayNearerIsBrighter) {
  const ImageU8 out = depth_to_display(gray({0.9f, 0.2f, 1.0f, 0.5f}, 4, 1));
  const uint8_t far = out.rgba[0], nearest = out.rgba[4], clear = out.rgba[8], mid = out.rgba[12];
  EXPECT_EQ(nearest, 255);
  EXPECT_GT(nearest, mid);
  EXPECT_GT(mid, far);
  EXPECT_GT(far, clear);  // farthest geometry stays distinguishable from clear
  EXPECT_EQ(clear, 0);

  const ImageU8 flat = depth_to_display(gray({0.3f, 0.3f, 1.0f}, 3, 1));
  EXPECT_EQ(flat.rgba[0], flat.rgba[4]);
  EXPECT_GT(flat.rgba[0], 0);
  EXPECT_EQ(flat.rgba[8], 0);
}

TEST(StatsTest, ChannelVarianceAndMax) {
  EXPECT_EQ(channel_variance(gray(std::vector<float>(35, 3.7f), 7, 5), 0), 0.0);
  // Half 1s, half 5s: mean 3, every deviation is 2 -> variance 4.
  const ImageF two{2, 2, 2, {1, -1, 5, -2, 1, -3, 5, -4}};
  EXPECT_DOUBLE_EQ(channel_variance(two, 0), 4.0);
  // Channel 1 = {-1,-2,-3,-4}: mean -2.5, variance (2.25+0.25+0.25+2.25)/4 = 1.25.
  EXPECT_DOUBLE_EQ(channel_variance(two, 1), 1.25);
  EXPECT_EQ(channel_max(two, 0), 5.0f);
  EXPECT_EQ(channel_max(two, 1), -1.0f);
  EXPECT_THROW(channel_max(two, 2), std::out_of_range);
}
