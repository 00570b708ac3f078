// The file gate every reader goes through (io/input_file.h), the heat map's non-finite pixels, and
// the one validation message filterlab does not count.
#include "common/metrics.h"
#include "io/input_file.h"
#include "vk/context.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>

namespace fs = std::filesystem;
using namespace filterlab;

namespace {

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("filterlab-input-file-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string refusal(const fs::path& path, uint64_t limit) {
    try {
      io::read_input_file(path, limit);
    } catch (const io::InputError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(InputFile, ReadsARegularFileWithinItsLimit) {
  std::ofstream(dir_ / "a.txt") << "twelve bytes";
  EXPECT_EQ(io::read_input_file(dir_ / "a.txt", 12), "twelve bytes");
  EXPECT_EQ(io::check_input_file(dir_ / "a.txt", 12), 12u);
  fs::create_symlink(dir_ / "a.txt", dir_ / "link.txt");  // a link to a regular file is followed
  EXPECT_EQ(io::read_input_file(dir_ / "link.txt", 12), "twelve bytes");
}

TEST_F(InputFile, RefusesWhatIsNotARegularFileOfSaneSizeWithoutBlocking) {
  std::ofstream(dir_ / "a.txt") << "twelve bytes";
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  fs::create_symlink(dir_ / "fifo", dir_ / "fifo-link");
  fs::create_directory(dir_ / "folder");
  EXPECT_NE(refusal(dir_ / "a.txt", 11).find("it is 12 bytes, more than the 11 bytes"), std::string::npos);
  EXPECT_NE(refusal(dir_ / "fifo", 100).find("it is a FIFO"), std::string::npos);  // would block forever
  EXPECT_NE(refusal(dir_ / "fifo-link", 100).find("it is a FIFO"), std::string::npos);
  EXPECT_NE(refusal(dir_ / "folder", 100).find("it is a folder"), std::string::npos);
  EXPECT_NE(refusal("/dev/zero", 100).find("character device"), std::string::npos);  // never ends
  EXPECT_NE(refusal(dir_ / "missing", 100).find("No such file"), std::string::npos);
  EXPECT_NE(refusal(dir_ / "fifo", 100).find((dir_ / "fifo").string()), std::string::npos) << "names the file";
}

TEST_F(InputFile, ASparseHugeFileIsRefusedByItsSizeBeforeItIsRead) {
  std::ofstream(dir_ / "huge.jpg");
  ASSERT_EQ(::truncate((dir_ / "huge.jpg").c_str(), 20ll << 30), 0);
  EXPECT_NE(refusal(dir_ / "huge.jpg", io::kMaxImageFileBytes).find("20480 MiB"), std::string::npos);
}

TEST(DifferenceHeatmap, ANonFiniteDifferenceIsMarkedAndTheRestKeepTheirScale) {
  io::ImageF a{3, 1, 1, {0.0f, 0.0f, 0.0f}}, b{3, 1, 1, {0.5f, 1.0f, 0.0f}};
  b.pixels[2] = std::numeric_limits<float>::infinity();
  io::ImageU8 map = common::difference_heatmap(a, b);
  // Before, the infinite difference set the gain to 1/inf = 0: every pixel black.
  EXPECT_EQ(std::vector<uint8_t>(map.rgba.begin() + 8, map.rgba.begin() + 12),
            std::vector<uint8_t>(std::begin(common::kNonfiniteColour), std::end(common::kNonfiniteColour)));
  EXPECT_EQ(map.rgba[4 + 0], 255);  // the largest finite difference is white
  EXPECT_EQ(map.rgba[4 + 2], 255);
  EXPECT_GT(map.rgba[0], 0);  // half of it is on the ramp, not black
  b.pixels[2] = std::nanf("");
  map = common::difference_heatmap(a, b);
  EXPECT_EQ(map.rgba[8 + 1], common::kNonfiniteColour[1]) << "NaN too";
}

TEST(ValidationMessages, OnlyTheOlderLayersQuestionAboutAPhysicalDeviceFunctionIsNotCounted) {
  const char* id = "WARNING-vkGetDeviceProcAddr-device";
  const char* seen_on_the_h100 =
      "vkGetDeviceProcAddr(): pName is trying to grab vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR "
      "which is an instance level function";
  EXPECT_TRUE(vk::is_layer_older_than_driver_message(id, seen_on_the_h100));
  // The same ID for a function that is not a physical-device query: a real misuse, counted.
  EXPECT_FALSE(vk::is_layer_older_than_driver_message(
      id, "vkGetDeviceProcAddr(): pName is trying to grab vkCreateDevice which is an instance level function"));
  // Any other message, whatever its text, counts.
  EXPECT_FALSE(vk::is_layer_older_than_driver_message("SYNC-HAZARD-WRITE-AFTER-READ", seen_on_the_h100));
  EXPECT_FALSE(vk::is_layer_older_than_driver_message("VUID-vkCmdDraw-None-02699", "anything"));
  EXPECT_FALSE(vk::is_layer_older_than_driver_message(nullptr, seen_on_the_h100));
  EXPECT_FALSE(vk::is_layer_older_than_driver_message(id, nullptr));
}

}  // namespace
