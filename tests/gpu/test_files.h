#pragma once
// Files for the tests that feed filterlab bad input: PNG chunks with their CRCs, a valid JPEG.
#include <gtest/gtest.h>
#include <turbojpeg.h>

#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::test {

inline uint32_t crc32(const std::string& bytes) {  // PNG's CRC (ISO 3309), bit by bit
  uint32_t crc = 0xffffffffu;
  for (unsigned char byte : bytes) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline std::string big_endian(uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

inline std::string png_chunk(const std::string& type, const std::string& data) {
  return big_endian(uint32_t(data.size())) + type + data + big_endian(crc32(type + data));
}

// A valid JPEG of random noise, encoded by TurboJPEG.
inline std::string noise_jpeg(int width, int height) {
  std::vector<unsigned char> rgb(size_t(width) * height * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint8_t(i * 2654435761u >> 24);
  tjhandle tj = tjInitCompress();
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  EXPECT_EQ(tjCompress2(tj, rgb.data(), width, 0, height, TJPF_RGB, &jpeg, &size, TJSAMP_444, 90, 0), 0);
  std::string bytes(reinterpret_cast<char*>(jpeg), size);
  tjFree(jpeg);
  tjDestroy(tj);
  return bytes;
}

}  // namespace filterlab::test
