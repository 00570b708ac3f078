#include "graph/readback.h"

#include "vk/formats.h"

#include <cstring>
#include <stdexcept>

namespace filterlab::graph {

io::ImageF to_float_image(const graph::Readback& r) {
  io::ImageF image;
  image.width = r.extent.width;
  image.height = r.extent.height;
  const size_t pixels = size_t(image.width) * image.height;
  auto halves = [&](uint32_t channels) {
    image.channels = channels;
    image.pixels.resize(pixels * channels);
    for (size_t i = 0; i < image.pixels.size(); ++i) {
      uint16_t h;
      std::memcpy(&h, r.bytes.data() + 2 * i, 2);
      image.pixels[i] = vk::half_to_float(h);
    }
  };
  auto floats = [&](uint32_t channels) {
    image.channels = channels;
    image.pixels.resize(pixels * channels);
    std::memcpy(image.pixels.data(), r.bytes.data(), image.pixels.size() * 4);
  };
  switch (r.format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT: halves(4); break;
    case VK_FORMAT_R16G16_SFLOAT: halves(2); break;
    case VK_FORMAT_R16_SFLOAT: halves(1); break;
    case VK_FORMAT_R32G32B32A32_SFLOAT: floats(4); break;
    case VK_FORMAT_R32G32_SFLOAT: floats(2); break;
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT: floats(1); break;
    case VK_FORMAT_R8G8B8A8_UNORM:
      image.channels = 4;
      image.pixels.resize(pixels * 4);
      for (size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = r.bytes[i] / 255.0f;
      break;
    default: throw std::runtime_error("cannot convert this image format for capture");
  }
  return image;
}

bool converts_to_float(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_R8G8B8A8_UNORM: return true;
    default: return false;
  }
}

}  // namespace filterlab::graph
