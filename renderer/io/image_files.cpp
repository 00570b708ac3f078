#include "io/image_files.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace filterlab::io {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

bool is_8bit_extension(const std::string& ext) {
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

}  // namespace

double srgb_to_linear(double v) {
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}
double linear_to_srgb(double v) {
  return v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
}

bool is_image_extension(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return is_8bit_extension(ext) || ext == ".pfm";
}

bool is_output_extension(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".png" || ext == ".pfm";
}

ImageF read_image_file(const std::filesystem::path& path, Encoding encoding) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return read_pfm(path);
  if (!is_8bit_extension(ext))
    throw IoError("cannot read " + path.string() + ": unsupported file type (use .png, .jpg, .jpeg or .pfm)");
  const ImageU8 stored = read_png(path);  // stb decodes PNG and JPEG alike
  ImageF image{stored.width, stored.height, 4, {}};
  image.pixels.resize(stored.rgba.size());
  // A table: 256 possible values, and the pow() would dominate reading a large image.
  float decode[256];
  for (int i = 0; i < 256; ++i)
    decode[i] = float(encoding == Encoding::Srgb ? srgb_to_linear(i / 255.0) : i / 255.0);
  for (size_t i = 0; i < stored.rgba.size(); ++i)
    image.pixels[i] = i % 4 == 3 ? float(stored.rgba[i] / 255.0) : decode[stored.rgba[i]];
  return image;
}

void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return write_pfm(path, image);
  if (ext != ".png")
    throw IoError("cannot write " + path.string() + ": unsupported file type (use .png or .pfm)");
  ImageU8 out{image.width, image.height, {}};
  out.rgba.resize(size_t(image.width) * image.height * 4);
  for (size_t p = 0; p < size_t(image.width) * image.height; ++p)
    for (uint32_t c = 0; c < 4; ++c) {
      double v = c < image.channels ? image.pixels[p * image.channels + c] : (c == 3 ? 1.0 : 0.0);
      if (image.channels == 1 && c < 3) v = image.pixels[p];  // gray
      if (std::isnan(v)) v = 0;
      v = std::clamp(v, 0.0, 1.0);
      if (encoding == Encoding::Srgb && c < 3) v = linear_to_srgb(v);
      out.rgba[p * 4 + c] = uint8_t(std::lround(v * 255.0));
    }
  write_png(path, out);
}

}  // namespace filterlab::io
