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
  return is_8bit_extension(ext) || ext == ".pfm" || ext == ".exr";
}

bool is_output_extension(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".png" || ext == ".pfm" || ext == ".exr";
}

ImageHeader read_image_header(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return read_pfm_header(path);
  if (ext == ".exr") return read_exr_header(path);
  if (ext == ".png") return read_png_header(path);
  if (ext == ".jpg" || ext == ".jpeg") return read_jpeg_header(path);
  throw IoError("cannot read " + path.string() +
                ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
}

ImageF read_image_file(const std::filesystem::path& path, Encoding encoding) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return read_pfm(path);
  if (ext == ".exr") return read_exr(path);
  if (!is_8bit_extension(ext))
    throw IoError("cannot read " + path.string() +
                  ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
  const DecodedImage stored = ext == ".png" ? decode_png(path) : decode_jpeg(path);
  const ImageHeader& h = stored.header;
  ImageF image{h.width, h.height, h.channels, {}};
  // A table: at most 65536 possible values, and the pow() would dominate reading a large image.
  const uint32_t max = (1u << h.bits) - 1;
  std::vector<float> decode(max + 1), linear(max + 1);
  for (uint32_t i = 0; i <= max; ++i) {
    linear[i] = float(double(i) / max);
    decode[i] = float(encoding == Encoding::Srgb ? srgb_to_linear(double(i) / max) : double(i) / max);
  }
  const size_t pixels = size_t(h.width) * h.height;
  image.pixels.resize(pixels * h.channels);
  for (size_t p = 0; p < pixels; ++p)
    for (uint32_t c = 0; c < h.channels; ++c) {
      const uint16_t v = stored.samples[p * 4 + c];
      image.pixels[p * h.channels + c] = c == 3 ? linear[v] : decode[v];  // alpha is linear
    }
  return image;
}

void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding,
                      ExrSamples samples) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return write_pfm(path, image);
  if (ext == ".exr") return write_exr(path, image, samples);
  if (ext != ".png")
    throw IoError("cannot write " + path.string() + ": unsupported file type (use .png, .pfm or .exr)");
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
