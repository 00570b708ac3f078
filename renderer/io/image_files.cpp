#include "io/image_files.h"

#include "io/input_file.h"

#include <unistd.h>

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

bool is_srgb_picture(const std::filesystem::path& path) {
  return is_8bit_extension(lower_extension(path));
}

bool is_output_extension(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".png" || ext == ".pfm" || ext == ".exr";
}

namespace {

ImageHeader header_of(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return read_pfm_header(path);
  if (ext == ".exr") return read_exr_header(path);
  if (ext == ".png") return read_png_header(path);
  if (ext == ".jpg" || ext == ".jpeg") return read_jpeg_header(path);
  throw IoError("cannot read " + path.string() +
                ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
  return text;
}

}  // namespace

ImageHeader read_image_header(const std::filesystem::path& path) {
  const ImageHeader h = header_of(path);
  const std::string size = std::to_string(h.width) + "x" + std::to_string(h.height);
  if (h.width > kMaxImageSide || h.height > kMaxImageSide)
    throw InputError(path, "it is " + size + ": filterlab reads images up to " +
                               std::to_string(kMaxImageSide) + " pixels a side");
  // Decoding holds the file's samples, an RGBA buffer of them and the float image at once.
  const double need = double(h.width) * h.height * (4.0 * 2 * 2 + 4.0 * h.channels);
  const double have = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
  if (need > have / 2)
    throw InputError(path, "it is " + size + ": decoding it needs " + gib(need) +
                               ", more than half of this machine's " + gib(have));
  return h;
}

ImageF read_image_file(const std::filesystem::path& path, Encoding encoding, Alpha alpha) {
  read_image_header(path);  // the size gate, before anything is decoded
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
  if (h.channels == 4 && alpha == Alpha::Premultiplied)
    for (size_t p = 0; p < pixels; ++p)
      for (uint32_t c = 0; c < 3; ++c) image.pixels[p * 4 + c] *= image.pixels[p * 4 + 3];
  return image;
}

std::string PngLayout::name() const {
  static const char* kNames[] = {"gray", "graya", "rgb", "rgba"};
  return kNames[channels - 1] + std::to_string(bits);
}

std::optional<PngLayout> parse_png_layout(const std::string& text) {
  for (uint32_t channels = 1; channels <= 4; ++channels)
    for (uint32_t bits : {8u, 16u})
      if (PngLayout{channels, bits}.name() == text) return PngLayout{channels, bits};
  return std::nullopt;
}

PngLayout png_layout_of(const ImageHeader& header) {
  const bool alpha = header.channels == 4;
  const bool gray = header.gray || header.channels == 1;
  return {(gray ? 1u : 3u) + (alpha ? 1u : 0u), header.bits == 16 && header.format != "exr" ? 16u : 8u};
}

PngLayout png_layout_of(const ImageF& image) {
  return {image.channels == 2 ? 3 : image.channels, 8};
}

void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding,
                      ExrSamples samples, std::optional<PngLayout> png) {
  const std::string ext = lower_extension(path);
  if (ext == ".pfm") return write_pfm(path, image);
  if (ext == ".exr") return write_exr(path, image, samples);
  if (ext != ".png")
    throw IoError("cannot write " + path.string() + ": unsupported file type (use .png, .pfm or .exr)");
  const PngLayout layout = png.value_or(png_layout_of(image));
  const double max = double((1u << layout.bits) - 1);
  auto quantize = [&](double v, bool colour) {
    if (std::isnan(v)) v = 0;
    v = std::clamp(v, 0.0, 1.0);
    if (encoding == Encoding::Srgb && colour) v = linear_to_srgb(v);
    return uint16_t(std::lround(v * max));
  };
  const bool alpha = layout.channels == 2 || layout.channels == 4;
  const uint32_t colours = layout.channels - (alpha ? 1 : 0);
  const size_t pixels = size_t(image.width) * image.height;
  std::vector<uint16_t> out(pixels * layout.channels);
  for (size_t p = 0; p < pixels; ++p) {
    float straight[4];
    const float* in = &image.pixels[p * image.channels];
    if (alpha && image.channels == 4) {  // premultiplied colour, written straight (see Alpha)
      const float a = in[3];
      const bool clear = quantize(a, false) == 0;  // alpha 0 as written: colour 0
      for (uint32_t c = 0; c < 3; ++c) straight[c] = clear ? 0.0f : in[c] / a;
      straight[3] = a;
      in = straight;
    }
    uint16_t* texel = &out[p * layout.channels];
    if (colours == 1) {  // gray: the luminance of linear RGB (a gray image's R = G = B gives R back)
      const bool rgb = image.channels >= 3;
      const double y = rgb ? 0.2126 * in[0] + 0.7152 * in[1] + 0.0722 * in[2] : in[0];
      texel[0] = quantize(rgb && in[0] == in[1] && in[1] == in[2] ? double(in[0]) : y, true);
    } else {  // gray repeated; two channels (motion) as red and green
      for (uint32_t c = 0; c < 3; ++c)
        texel[c] = quantize(image.channels == 1 ? in[0] : c < image.channels ? in[c] : 0.0, true);
    }
    if (alpha) texel[colours] = quantize(image.channels == 4 ? in[3] : 1.0, false);
  }
  write_png_samples(path, image.width, image.height, layout.channels, layout.bits, out);
}

}  // namespace filterlab::io
