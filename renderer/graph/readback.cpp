#include "graph/readback.h"

#include "vk/formats.h"

#include <cstring>
#include <optional>
#include <stdexcept>

namespace filterlab::graph {

namespace {

enum class Texel { Half, Float, Unorm8 };
struct FloatLayout {
  Texel texel;
  uint32_t channels;
};

// The formats to_float_image reads, and how; none for the others.
std::optional<FloatLayout> float_layout(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT: return FloatLayout{Texel::Half, 4};
    case VK_FORMAT_R16G16_SFLOAT: return FloatLayout{Texel::Half, 2};
    case VK_FORMAT_R16_SFLOAT: return FloatLayout{Texel::Half, 1};
    case VK_FORMAT_R32G32B32A32_SFLOAT: return FloatLayout{Texel::Float, 4};
    case VK_FORMAT_R32G32_SFLOAT: return FloatLayout{Texel::Float, 2};
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT: return FloatLayout{Texel::Float, 1};
    case VK_FORMAT_R8G8B8A8_UNORM: return FloatLayout{Texel::Unorm8, 4};
    default: return std::nullopt;
  }
}

}  // namespace

io::ImageF to_float_image(const graph::Readback& r) {
  const std::optional<FloatLayout> layout = float_layout(r.format);
  if (!layout) throw std::runtime_error("cannot convert this image format for capture");
  io::ImageF image;
  image.width = r.extent.width;
  image.height = r.extent.height;
  image.channels = layout->channels;
  image.pixels.resize(size_t(image.width) * image.height * image.channels);
  switch (layout->texel) {
    case Texel::Half:
      for (size_t i = 0; i < image.pixels.size(); ++i) {
        uint16_t h;
        std::memcpy(&h, r.bytes.data() + 2 * i, 2);
        image.pixels[i] = vk::half_to_float(h);
      }
      break;
    case Texel::Float: std::memcpy(image.pixels.data(), r.bytes.data(), image.pixels.size() * 4); break;
    case Texel::Unorm8:
      for (size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = r.bytes[i] / 255.0f;
      break;
  }
  return image;
}

bool converts_to_float(VkFormat format) {
  return float_layout(format).has_value();
}

}  // namespace filterlab::graph
