#include "runtime/capture.h"

#include <cstring>

namespace filterlab::runtime {

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

bool capture_extension_supported(const std::filesystem::path& path) {
  return path.extension() == ".png" || path.extension() == ".pfm";
}

void write_capture(const graph::Readback& r, const std::filesystem::path& path, float exposure) {
  if (path.extension() == ".pfm") {
    io::write_pfm(path, to_float_image(r));
    return;
  }
  if (r.format == VK_FORMAT_R8G8B8A8_UNORM) {  // already display-encoded (the tonemap output)
    io::write_png(path, io::ImageU8{r.extent.width, r.extent.height, r.bytes});
    return;
  }
  io::ImageF image = to_float_image(r);
  if (r.format == VK_FORMAT_D32_SFLOAT) io::write_png(path, io::depth_to_display(image));
  else if (image.channels == 2) io::write_png(path, io::motion_to_display(image));
  else io::write_png(path, io::hdr_to_display(image, exposure));
}

}  // namespace filterlab::runtime
