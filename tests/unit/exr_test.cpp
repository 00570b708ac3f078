// OpenEXR read and write (renderer/io/exr.cpp): half and float samples bit for bit, the channel
// layouts, tiled and compressed files written by the library itself, and files that must be
// refused (io::InputError, exit 2) before or while decoding, never a crash.
#include "io/image_io.h"
#include "io/input_file.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <ImfTiledOutputFile.h>
#include <gtest/gtest.h>
#include <half.h>
#include <unistd.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <random>

namespace fs = std::filesystem;
using namespace filterlab::io;

namespace {

class Exr : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("filterlab_exr_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Random values over a wide range, signed, with zeros and a subnormal; rounded to half for a half file.
  static ImageF random_image(uint32_t w, uint32_t h, uint32_t channels, bool halves, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-14, 15);
    ImageF image{w, h, channels, std::vector<float>(size_t(w) * h * channels)};
    for (float& v : image.pixels) v = std::ldexp(mantissa(rng), exponent(rng));
    image.pixels[0] = 0.0f;
    if (image.pixels.size() > 1) image.pixels[1] = halves ? float(half(std::ldexp(1.0f, -20))) : 1e-40f;
    if (halves)
      for (float& v : image.pixels) v = float(half(v));
    return image;
  }
  static void expect_same_bits(const ImageF& a, const ImageF& b) {
    ASSERT_EQ(a.width, b.width);
    ASSERT_EQ(a.height, b.height);
    ASSERT_EQ(a.channels, b.channels);
    for (size_t i = 0; i < a.pixels.size(); ++i)
      ASSERT_EQ(std::bit_cast<uint32_t>(a.pixels[i]), std::bit_cast<uint32_t>(b.pixels[i])) << "sample " << i;
  }
  static std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  static void write(const fs::path& p, const std::string& data) {
    std::ofstream(p, std::ios::binary) << data;
  }

  fs::path dir_;
};

TEST_F(Exr, HalfAndFloatFilesReadAndWrittenAgainAreBitExact) {
  for (const bool halves : {true, false})
    for (const uint32_t channels : {1u, 3u, 4u})
      for (const auto& [w, h] : {std::pair{1u, 1u}, std::pair{37u, 23u}}) {
        SCOPED_TRACE((halves ? "half " : "float ") + std::to_string(channels) + " channels " +
                     std::to_string(w) + "x" + std::to_string(h));
        const ImageF image = random_image(w, h, channels, halves, w * 31 + channels);
        const fs::path a = dir_ / "a.exr", b = dir_ / "b.exr";
        write_exr(a, image, halves ? ExrSamples::Half : ExrSamples::Float);
        const ImageHeader header = read_exr_header(a);
        EXPECT_EQ(header.format, "exr");
        EXPECT_EQ(header.width, w);
        EXPECT_EQ(header.height, h);
        EXPECT_EQ(header.channels, channels);
        EXPECT_EQ(header.bits, halves ? 16u : 32u);
        const ImageF read = read_exr(a);
        expect_same_bits(image, read);
        write_exr(b, read, halves ? ExrSamples::Half : ExrSamples::Float);  // and written again
        EXPECT_EQ(bytes(a), bytes(b));
      }
}

// Files the library writes in the other ways filterlab does not: tiled, a data window away from the
// origin, each lossless compression; read exactly, the data window as the image.
TEST_F(Exr, TiledAndCompressedFilesWithAnOffsetDataWindowReadExactly) {
  const ImageF image = random_image(45, 19, 4, true, 7);
  std::vector<half> samples(image.pixels.begin(), image.pixels.end());
  const Imath::Box2i window({-3, 5}, {-3 + 45 - 1, 5 + 19 - 1});
  for (const Imf::Compression compression : {Imf::NO_COMPRESSION, Imf::RLE_COMPRESSION, Imf::ZIPS_COMPRESSION,
                                             Imf::ZIP_COMPRESSION, Imf::PIZ_COMPRESSION})
    for (const bool tiled : {false, true}) {
      SCOPED_TRACE(std::to_string(int(compression)) + (tiled ? " tiled" : " scanlines"));
      Imf::Header header(window, window);
      header.compression() = compression;
      Imf::FrameBuffer buffer;
      for (int c = 0; c < 4; ++c) {
        const char* name = "RGBA" + c;
        const std::string channel(name, 1);
        header.channels().insert(channel, Imf::Channel(Imf::HALF));
        buffer.insert(channel, Imf::Slice::Make(Imf::HALF, samples.data() + c, window, 4 * sizeof(half),
                                                4 * sizeof(half) * 45));
      }
      const fs::path path = dir_ / "t.exr";
      if (tiled) {
        header.setTileDescription(Imf::TileDescription(16, 8));
        Imf::TiledOutputFile file(path.c_str(), header);
        file.setFrameBuffer(buffer);
        file.writeTiles(0, file.numXTiles() - 1, 0, file.numYTiles() - 1);
      } else {
        Imf::OutputFile file(path.c_str(), header);
        file.setFrameBuffer(buffer);
        file.writePixels(19);
      }
      expect_same_bits(image, read_exr(path));
    }
}

// The refusals name the file and the problem; each is io::InputError (exit 2).
TEST_F(Exr, BadFilesAreRefusedWithTheProblem) {
  const fs::path good = dir_ / "good.exr";
  write_exr(good, random_image(20, 3, 3, true, 1), ExrSamples::Half);
  const std::string data = bytes(good);
  auto refused = [&](const std::string& name, const std::string& content, const std::string& why) {
    const fs::path p = dir_ / name;
    write(p, content);
    try {
      (void)read_exr(p);
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
  };
  refused("empty.exr", "", "no OpenEXR magic number");
  refused("text.exr", "not an image at all", "no OpenEXR magic number");
  refused("header-only.exr", data.substr(0, 40), "invalid OpenEXR");
  refused("truncated.exr", data.substr(0, data.size() - 20), "invalid OpenEXR");
  // The data window widened to 20000 pixels in the header: refused before anything is sized by it.
  std::string wide = data;
  const size_t at = wide.find(std::string("dataWindow\0box2i\0", 17));
  ASSERT_NE(at, std::string::npos);
  const int32_t x_max = 19999;
  std::memcpy(&wide[at + 17 + 4 + 8], &x_max, 4);  // after the name, the type, the size, xMin, yMin
  refused("wide.exr", wide, "invalid OpenEXR");
  // An attribute of an unknown type claiming 1.6 GB in a small file (found by the fuzzer: libopenexr
  // allocates what such an attribute claims before reading it): refused before the library reads.
  {
    std::string huge = data;
    const std::string attribute = std::string("junk\0opaque\0", 12) + std::string("\x00\x00\x68\x61", 4);
    huge.insert(8, attribute);
    refused("huge-attribute.exr", huge, "attribute junk of 1634205696 bytes in a file of");
    // A channel list longer than its size says (the library reads it by its entries, so the next
    // attribute's size would be read out of the middle of it): found by the fuzzer too.
    std::string lying = data;
    const size_t list = lying.find(std::string("channels\0chlist\0", 16));
    ASSERT_NE(list, std::string::npos);
    int32_t size = 0;
    std::memcpy(&size, &lying[list + 16], 4);
    size -= 18;  // one entry of a 1-character name shorter
    std::memcpy(&lying[list + 16], &size, 4);
    refused("lying-chlist.exr", lying, "attribute channels of type chlist says");
  }
  // Channels that are not colour, and a subsampled one.
  {
    Imf::Header header(4, 4);
    header.channels().insert("Z", Imf::Channel(Imf::FLOAT));
    std::vector<float> z(16, 0.5f);
    Imf::FrameBuffer buffer;
    buffer.insert("Z", Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(z.data()), 4, 16));
    const fs::path p = dir_ / "depth-only.exr";
    {
      Imf::OutputFile file(p.c_str(), header);
      file.setFrameBuffer(buffer);
      file.writePixels(4);
    }
    refused("depth-only.exr", bytes(p), "without R, G and B or Y channels");
  }
  {
    Imf::Header header(4, 4);
    header.channels().insert("Y", Imf::Channel(Imf::HALF, 2, 2));
    std::vector<half> y(4, half(0.5f));
    Imf::FrameBuffer buffer;
    buffer.insert(
        "Y", Imf::Slice(Imf::HALF, reinterpret_cast<char*>(y.data()), sizeof(half), 2 * sizeof(half), 2, 2));
    const fs::path p = dir_ / "subsampled.exr";
    {
      Imf::OutputFile file(p.c_str(), header);
      file.setFrameBuffer(buffer);
      file.writePixels(4);
    }
    refused("subsampled.exr", bytes(p), "subsampled");
  }
}

TEST_F(Exr, AFailedWriteLeavesNothing) {
  EXPECT_THROW(
      write_exr(dir_ / "no-such-folder" / "x.exr", random_image(2, 2, 3, false, 3), ExrSamples::Float),
      IoError);
  EXPECT_TRUE(fs::is_empty(dir_));
}

}  // namespace
