#include "runtime/capture.h"

#include "vk/formats.h"

namespace filterlab::runtime {

bool capture_extension_supported(const std::filesystem::path& path) {
  return path.extension() == ".png" || path.extension() == ".pfm" || path.extension() == ".exr";
}

void write_capture(const graph::Readback& r, const std::filesystem::path& path,
                   const passes::Display& display) {
  if (path.extension() == ".pfm") {
    io::write_pfm(path, graph::to_float_image(r));
    return;
  }
  if (path.extension() == ".exr") {  // every channel as stored: half from 16-bit floats, else float
    const bool half = vk::format_is_half(r.format);
    io::write_exr(path, graph::to_float_image(r), half ? io::ExrSamples::Half : io::ExrSamples::Float);
    return;
  }
  if (r.format == VK_FORMAT_R8G8B8A8_UNORM) {  // already display-encoded (the tonemap output)
    io::write_png(path, io::ImageU8{r.extent.width, r.extent.height, r.bytes});
    return;
  }
  io::ImageF image = graph::to_float_image(r);
  if (r.format == VK_FORMAT_D32_SFLOAT) io::write_png(path, io::depth_to_display(image));
  else if (image.channels == 2) io::write_png(path, io::motion_to_display(image));
  else {
    const double automatic = display.automatic ? passes::auto_exposure(image) : 1.0;
    io::write_png(path,
                  passes::hdr_to_display(image, float(display.exposure * automatic), display.tonemapper));
  }
}

}  // namespace filterlab::runtime
