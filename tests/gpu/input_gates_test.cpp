// Bad input found by issue #54's probe, on the paths an image enters by other than `filter`: a PNG
// whose header says 100000 pixels wide threw std::bad_alloc (exit 1) through `run --image` and
// `quality --image`, and a 16385x1 PNG was accepted by `run --image`. One size gate
// (io::read_image_header) now refuses both with exit 2 before any device is made, and writes nothing.
#include "gpu_test_util.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace filterlab {
namespace {

// A PNG's signature, IHDR (8-bit RGBA) and IEND: enough for a header, with no pixels behind it.
std::string png_header_only(uint32_t width, uint32_t height) {
  const std::string ihdr =
      test::big_endian(width) + test::big_endian(height) + std::string("\x08\x06\x00\x00\x00", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + test::png_chunk("IHDR", ihdr) + test::png_chunk("IEND", "");
}

TEST(InputGates, AnOversizedImageIsRefusedOnEveryPathBeforeTheDevice) {
  const std::string dir = test::temp_dir("input-gates");
  for (const auto& [width, height] : {std::pair{100000u, 1u}, std::pair{16385u, 1u}, std::pair{1u, 65000u}}) {
    const std::string png = dir + "/big.png";
    std::ofstream(png, std::ios::binary) << png_header_only(width, height);
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    for (const std::string& args :
         {"run --headless --frames 1 --image " + png + " --capture final=" + dir + "/out.png",
          "run --headless --frames 1 --size 64x64 --image " + png + " --capture final=" + dir + "/out.png",
          "quality --image " + png + " --json " + dir + "/out.json",
          "filter --input " + png + " --output " + dir + "/out.png"}) {
      const auto r = test::run_binary(args);
      EXPECT_EQ(r.exit_code, 2) << size << ": " << args << "\n" << r.output;
      EXPECT_NE(r.output.find("reads images up to 16384 pixels a side"), std::string::npos) << r.output;
      EXPECT_FALSE(std::filesystem::exists(dir + "/out.png") || std::filesystem::exists(dir + "/out.json"))
          << args;
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
