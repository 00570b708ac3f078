#include "io/image_io.h"

#include "io/input_file.h"

#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

namespace filterlab::io {
namespace fs = std::filesystem;

namespace {

// A file that cannot be read is bad input (InputError); one that cannot be written is not.
[[noreturn]] void fail(const char* verb, const fs::path& path, const std::string& problem) {
  if (std::string_view(verb) == "read") throw InputError(path, problem);
  throw IoError(std::string("cannot ") + verb + " " + path.string() + ": " + problem);
}

// Write to a temp file next to the target and rename it into place, so readers
// never observe a half-written file and a failed write leaves nothing behind.
fs::path temporary_path(const fs::path& path) {
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  return tmp;
}

void write_atomic(const fs::path& path, const void* data, size_t size) {
  const fs::path tmp = temporary_path(path);
  auto give_up = [&](int err) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    fail("write", path, std::strerror(err));
  };

  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) give_up(errno);
  int err = 0;
  if (std::fwrite(data, 1, size, f) != size) err = errno;
  // fclose flushes buffered data, so it can report e.g. ENOSPC as well.
  if (std::fclose(f) != 0 && err == 0) err = errno;
  if (err != 0) give_up(err);

  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) give_up(ec.value());
}

uint32_t byteswap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

void check_image(const ImageF& image, const char* function) {
  if (image.channels < 1 || image.channels > 4 ||
      image.pixels.size() != size_t(image.width) * image.height * image.channels)
    throw std::invalid_argument(std::string(function) + ": malformed ImageF");
}

uint8_t to_u8(float v) {  // v in [0,1] (NaN -> 0)
  return uint8_t(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, 0.0f, 1.0f) * 255.0f));
}

ImageU8 blank_u8(const ImageF& image) {
  ImageU8 out{image.width, image.height, {}};
  out.rgba.resize(size_t(image.width) * image.height * 4);
  return out;
}

}  // namespace

float ImageF::at(uint32_t x, uint32_t y, uint32_t c) const {
  assert(x < width && y < height && c < channels);
  return pixels[(size_t(y) * width + x) * channels + c];
}

ImageF first_channels(const ImageF& image, uint32_t channels) {
  if (channels >= image.channels) return image;
  ImageF out{image.width, image.height, channels, {}};
  out.pixels.resize(size_t(image.width) * image.height * channels);
  for (size_t p = 0; p < size_t(image.width) * image.height; ++p)
    for (uint32_t c = 0; c < channels; ++c)
      out.pixels[p * channels + c] = image.pixels[p * image.channels + c];
  return out;
}

// ---- PNG ------------------------------------------------------------------

void write_png(const fs::path& path, const ImageU8& image) {
  if (image.width == 0 || image.height == 0 || image.width > (1u << 24) || image.height > (1u << 24) ||
      image.rgba.size() != size_t(image.width) * image.height * 4)
    fail("write", path, "invalid RGBA8 image");
  // Encode to memory so the file itself goes through write_atomic.
  std::vector<unsigned char> png;
  auto append = [](void* ctx, void* data, int size) {
    auto* bytes = static_cast<const unsigned char*>(data);
    static_cast<std::vector<unsigned char>*>(ctx)->insert(
        static_cast<std::vector<unsigned char>*>(ctx)->end(), bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &png, int(image.width), int(image.height), 4, image.rgba.data(),
                              int(image.width * 4)))
    fail("write", path, "PNG encoding failed");
  write_atomic(path, png.data(), png.size());
}

ImageU8 read_png(const fs::path& path) {
  const DecodedImage decoded = decode_png(path);
  ImageU8 out{decoded.header.width, decoded.header.height, {}};
  out.rgba.resize(decoded.samples.size());
  const bool wide = decoded.header.bits == 16;
  for (size_t i = 0; i < out.rgba.size(); ++i)
    out.rgba[i] = uint8_t(wide ? (decoded.samples[i] + 128u) / 257u : decoded.samples[i]);
  return out;
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  write_atomic(path, text.data(), text.size());
}

void check_can_write(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail("write", path, "it is a folder");
  // Permission bits say nothing to root (access() passes), and a path under /proc or a full or
  // read-only file system only fails when written: create the file the write will create.
  const fs::path tmp = temporary_path(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (!f) fail("write", path, std::strerror(errno));
  std::fclose(f);
  fs::remove(tmp, ec);
}

// ---- PFM ------------------------------------------------------------------

void write_pfm(const fs::path& path, const ImageF& image) {
  if (image.width == 0 || image.height == 0 || image.channels < 1 || image.channels > 4 ||
      image.pixels.size() != size_t(image.width) * image.height * image.channels)
    fail("write", path, "invalid float image");
  const uint32_t out_c = image.channels == 1 ? 1 : 3;
  const std::string header = std::string(out_c == 1 ? "Pf" : "PF") + "\n" + std::to_string(image.width) +
                             " " + std::to_string(image.height) +
                             "\n-1.0\n";  // negative scale = little-endian

  std::vector<char> buf(header.begin(), header.end());
  buf.reserve(header.size() + size_t(image.width) * image.height * out_c * 4);
  for (uint32_t row = 0; row < image.height; ++row) {
    const uint32_t y = image.height - 1 - row;  // PFM stores rows bottom-up
    for (uint32_t x = 0; x < image.width; ++x)
      for (uint32_t c = 0; c < out_c; ++c) {
        uint32_t bits = std::bit_cast<uint32_t>(c < image.channels ? image.at(x, y, c) : 0.0f);
        if constexpr (std::endian::native == std::endian::big) bits = byteswap32(bits);
        char bytes[4];
        std::memcpy(bytes, &bits, 4);
        buf.insert(buf.end(), bytes, bytes + 4);
      }
  }
  write_atomic(path, buf.data(), buf.size());
}

namespace {

struct PfmLayout {
  ImageHeader header;
  float scale = 0;           // < 0: little-endian
  size_t raster_offset = 0;  // where the floats start
};

// Header: magic, width, height, scale, separated by whitespace; exactly one whitespace byte follows
// the scale, then the raster, which must fill the rest of the file (`file_size` bytes in all).
PfmLayout parse_pfm_header(const fs::path& path, std::string_view text, uint64_t file_size) {
  auto bad = [&](const std::string& problem) { fail("read", path, "invalid PFM: " + problem); };
  size_t pos = 0;
  auto is_space = [](char ch) { return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t'; };
  auto token = [&](const char* what) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    const size_t start = pos;
    while (pos < text.size() && !is_space(text[pos]) && pos - start < 32) ++pos;
    if (pos == start || pos == text.size() || !is_space(text[pos]))
      bad(std::string("bad or missing ") + what);
    return text.substr(start, pos - start);
  };
  auto parse = [&](std::string_view tok, auto& value, const char* what) {
    const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
    if (ec != std::errc() || end != tok.data() + tok.size()) bad(std::string("bad ") + what);
  };

  const std::string_view magic = token("magic");
  if (magic != "PF" && magic != "Pf") bad("magic must be PF or Pf");
  PfmLayout layout;
  ImageHeader& h = layout.header;
  h.format = "pfm";
  h.bits = 32;
  h.channels = magic == "PF" ? 3u : 1u;
  parse(token("width"), h.width, "width");
  parse(token("height"), h.height, "height");
  parse(token("scale"), layout.scale, "scale");
  layout.raster_offset = pos + 1;  // the single whitespace byte after the scale
  if (h.width == 0 || h.height == 0) bad("zero width or height");
  if (layout.scale == 0 || !std::isfinite(layout.scale)) bad("scale must be finite and non-zero");
  const uint64_t floats_per_row = uint64_t(h.width) * h.channels;
  const uint64_t available = file_size - layout.raster_offset;
  if (available / 4 / floats_per_row < h.height || available != floats_per_row * h.height * 4)
    bad("expected " + std::to_string(h.width) + "x" + std::to_string(h.height) + "x" +
        std::to_string(h.channels) + " floats, file has " + std::to_string(available) +
        " bytes of pixel data");
  return layout;
}

}  // namespace

ImageHeader read_pfm_header(const fs::path& path) {
  uint64_t size = 0;
  File f = open_input_file(path, kMaxImageFileBytes, &size);
  char prefix[256];  // four tokens of at most 32 characters and the whitespace around them
  const size_t n = std::fread(prefix, 1, sizeof prefix, f.get());
  return parse_pfm_header(path, std::string_view(prefix, n), size).header;
}

ImageF read_pfm(const fs::path& path) {
  const std::string file = read_input_file(path, kMaxImageFileBytes);
  const std::string_view text(file);
  const PfmLayout layout = parse_pfm_header(path, text, file.size());
  const uint32_t width = layout.header.width, height = layout.header.height;
  const float scale = layout.scale;
  ImageF image{width, height, layout.header.channels, {}};
  const uint64_t floats_per_row = uint64_t(width) * image.channels;
  const size_t pos = layout.raster_offset;

  const bool swap = (scale < 0) != (std::endian::native == std::endian::little);  // scale < 0: little-endian
  image.pixels.resize(floats_per_row * height);
  const char* src = file.data() + pos;
  for (uint32_t row = 0; row < height; ++row) {
    float* dst = image.pixels.data() + (height - 1 - row) * floats_per_row;  // bottom-up -> top-down
    for (uint64_t i = 0; i < floats_per_row; ++i, src += 4) {
      uint32_t bits;
      std::memcpy(&bits, src, 4);
      dst[i] = std::bit_cast<float>(swap ? byteswap32(bits) : bits);
    }
  }
  return image;
}

// ---- display conversions ----------------------------------------------------

ImageU8 depth_to_display(const ImageF& image) {
  check_image(image, "depth_to_display");
  // Farthest geometry stops at dark gray rather than black, so it is not
  // mistaken for clear (depth 1) pixels.
  constexpr float kNearGray = 255.0f, kFarGray = 48.0f;
  const size_t n = size_t(image.width) * image.height;
  auto depth = [&](size_t i) { return image.pixels[i * image.channels]; };

  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (size_t i = 0; i < n; ++i)
    if (const float d = depth(i); d < 1.0f) lo = std::min(lo, d), hi = std::max(hi, d);

  ImageU8 out = blank_u8(image);
  for (size_t i = 0; i < n; ++i) {
    const float d = depth(i);
    float gray = 0.0f;  // clear, beyond far, or NaN
    if (d < 1.0f)
      gray =
          hi > lo ? kNearGray + (d - lo) / (hi - lo) * (kFarGray - kNearGray) : 0.5f * (kNearGray + kFarGray);
    uint8_t* o = &out.rgba[i * 4];
    o[0] = o[1] = o[2] = uint8_t(std::lround(gray));
    o[3] = 255;
  }
  return out;
}

ImageU8 motion_to_display(const ImageF& image, float pixels_for_full_scale) {
  check_image(image, "motion_to_display");
  if (image.channels < 2) throw std::invalid_argument("motion_to_display: needs 2 channels");
  if (!(pixels_for_full_scale > 0)) throw std::invalid_argument("motion_to_display: scale must be > 0");
  ImageU8 out = blank_u8(image);
  for (size_t i = 0, n = size_t(image.width) * image.height; i < n; ++i) {
    const float* px = &image.pixels[i * image.channels];
    uint8_t* o = &out.rgba[i * 4];
    o[0] = to_u8(0.5f + px[0] / (2.0f * pixels_for_full_scale));
    o[1] = to_u8(0.5f + px[1] / (2.0f * pixels_for_full_scale));
    o[2] = 128;
    o[3] = 255;
  }
  return out;
}

// ---- statistics -------------------------------------------------------------

double channel_variance(const ImageF& image, uint32_t channel) {
  check_image(image, "channel_variance");
  if (channel >= image.channels) throw std::out_of_range("channel_variance: channel out of range");
  const size_t n = size_t(image.width) * image.height;
  if (n == 0) return 0.0;
  // Two passes: subtracting the mean first avoids the cancellation of E[x^2] - E[x]^2.
  double mean = 0.0;
  for (size_t i = 0; i < n; ++i) mean += image.pixels[i * image.channels + channel];
  mean /= double(n);
  double sum_sq = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double d = image.pixels[i * image.channels + channel] - mean;
    sum_sq += d * d;
  }
  return sum_sq / double(n);
}

float channel_max(const ImageF& image, uint32_t channel) {
  check_image(image, "channel_max");
  if (channel >= image.channels) throw std::out_of_range("channel_max: channel out of range");
  float m = -std::numeric_limits<float>::infinity();
  for (size_t i = channel; i < image.pixels.size(); i += image.channels)
    if (image.pixels[i] > m) m = image.pixels[i];  // NaN compares false, so it is skipped
  return m;
}

}  // namespace filterlab::io
