// PNG through libspng and JPEG through TurboJPEG (Debian's libspng-dev and libturbojpeg0-dev):
// both check what stb_image did not. libspng verifies every chunk's CRC and the zlib stream's
// Adler-32, so a damaged PNG is refused instead of decoded into garbage; TurboJPEG with
// TJFLAG_STOPONWARNING turns libjpeg's "premature end of data" warning into an error, so a
// truncated JPEG is refused instead of filled with grey. 16-bit PNGs are read at 16 bits.
#include "io/image_io.h"
#include "io/input_file.h"

#include <spng.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace filterlab::io {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& problem) {
  throw InputError(path, problem);
}

File open(const fs::path& path) {
  return open_input_file(path, kMaxImageFileBytes);
}

// ---- PNG ----------------------------------------------------------------------------------------

struct SpngFree {
  void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
using Spng = std::unique_ptr<spng_ctx, SpngFree>;

void check(int status, const fs::path& path) {
  if (status != 0) fail(path, std::string("invalid PNG (") + spng_strerror(status) + ")");
}

// A decoder over an open file with every checksum checked; the header is read.
Spng open_png(const fs::path& path, std::FILE* file, spng_ihdr& ihdr) {
  Spng ctx(spng_ctx_new(0));
  if (!ctx) fail(path, "out of memory");
  check(spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_ERROR), path);
  check(spng_set_png_file(ctx.get(), file), path);
  check(spng_get_ihdr(ctx.get(), &ihdr), path);
  return ctx;
}

bool has_alpha(spng_ctx* ctx, const spng_ihdr& ihdr) {
  spng_trns trns;
  return ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA ||
         ihdr.color_type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA || spng_get_trns(ctx, &trns) == 0;
}

ImageHeader png_header(spng_ctx* ctx, const spng_ihdr& ihdr) {
  const bool gray =
      ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE || ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA;
  return {"png", ihdr.width, ihdr.height, has_alpha(ctx, ihdr) ? 4u : 3u, ihdr.bit_depth == 16 ? 16u : 8u,
          gray};
}

// The image of an opened decoder, every checksum checked, refused above `max_pixels` (0: no cap)
// before a sample is decoded.
DecodedImage decode_png(const fs::path& path, spng_ctx* ctx, const spng_ihdr& ihdr, uint64_t max_pixels) {
  DecodedImage out{png_header(ctx, ihdr), {}};
  if (max_pixels && uint64_t(ihdr.width) * ihdr.height > max_pixels)
    fail(path, std::to_string(ihdr.width) + "x" + std::to_string(ihdr.height) + " pixels, more than " +
                   std::to_string(max_pixels));
  const int format = out.header.bits == 16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
  size_t bytes = 0;
  check(spng_decoded_image_size(ctx, format, &bytes), path);
  std::vector<uint8_t> raw(bytes);
  check(spng_decode_image(ctx, raw.data(), raw.size(), format, SPNG_DECODE_TRNS), path);
  // The chunks after the image data, to IEND: the last IDAT's CRC is only checked on the way there.
  check(spng_decode_chunks(ctx), path);
  out.samples.resize(size_t(out.header.width) * out.header.height * 4);
  if (out.header.bits == 16) {
    std::memcpy(out.samples.data(), raw.data(), raw.size());  // host byte order, as libspng gives it
  } else {
    for (size_t i = 0; i < out.samples.size(); ++i) out.samples[i] = raw[i];
  }
  return out;
}

// ---- JPEG ---------------------------------------------------------------------------------------

struct TjFree {
  void operator()(void* handle) const { tjDestroy(handle); }
};
using Tj = std::unique_ptr<void, TjFree>;

// A JPEG's bytes, from the gate; TurboJPEG reads them in place.
struct JpegBytes {
  std::string bytes;
  const unsigned char* data() const { return reinterpret_cast<const unsigned char*>(bytes.data()); }
  unsigned long size() const { return static_cast<unsigned long>(bytes.size()); }
};

struct JpegHeader {
  Tj handle;
  ImageHeader header;
};

JpegHeader jpeg_header(const fs::path& path, const JpegBytes& bytes) {
  Tj handle(tjInitDecompress());
  if (!handle) fail(path, "cannot start the JPEG decoder");
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(handle.get(), bytes.data(), bytes.size(), &width, &height, &subsampling,
                          &colorspace) != 0)
    fail(path, std::string("invalid JPEG (") + tjGetErrorStr2(handle.get()) + ")");
  if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) fail(path, "CMYK JPEGs are not supported");
  return {std::move(handle), {"jpeg", uint32_t(width), uint32_t(height), 3, 8, colorspace == TJCS_GRAY}};
}

DecodedImage decode_jpeg(const fs::path& path, const JpegBytes& bytes, uint64_t max_pixels) {
  JpegHeader jpeg = jpeg_header(path, bytes);
  const ImageHeader& h = jpeg.header;
  if (max_pixels && uint64_t(h.width) * h.height > max_pixels)
    fail(path, std::to_string(h.width) + "x" + std::to_string(h.height) + " pixels, more than " +
                   std::to_string(max_pixels));
  std::vector<unsigned char> rgb(size_t(h.width) * h.height * 3);
  if (tjDecompress2(jpeg.handle.get(), bytes.data(), bytes.size(), rgb.data(), int(h.width), 0, int(h.height),
                    TJPF_RGB, TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT) != 0)
    fail(path, std::string("invalid JPEG (") + tjGetErrorStr2(jpeg.handle.get()) + ")");
  DecodedImage out{h, {}};
  out.samples.resize(size_t(h.width) * h.height * 4);
  for (size_t p = 0; p < size_t(h.width) * h.height; ++p) {
    for (size_t c = 0; c < 3; ++c) out.samples[p * 4 + c] = rgb[p * 3 + c];
    out.samples[p * 4 + 3] = 255;
  }
  return out;
}

}  // namespace

ImageHeader read_png_header(const fs::path& path) {
  File file = open(path);
  spng_ihdr ihdr{};
  Spng ctx = open_png(path, file.get(), ihdr);
  return png_header(ctx.get(), ihdr);
}

DecodedImage decode_png(const fs::path& path) {
  File file = open(path);
  spng_ihdr ihdr{};
  Spng ctx = open_png(path, file.get(), ihdr);
  return decode_png(path, ctx.get(), ihdr, 0);
}

ImageHeader read_jpeg_header(const fs::path& path) {
  // The frame header follows the APP segments (EXIF, ICC: at most 64 KiB each), so it lies near the
  // start: a huge file need not be read to learn its size, and one with no header there is refused.
  constexpr uint64_t kHeaderBytes = 64 * kMiB;
  uint64_t size = 0;
  File file = open_input_file(path, kMaxImageFileBytes, &size);
  JpegBytes prefix{std::string(std::min(size, kHeaderBytes), '\0')};
  prefix.bytes.resize(std::fread(prefix.bytes.data(), 1, prefix.bytes.size(), file.get()));
  if (std::ferror(file.get())) fail(path, std::strerror(errno));
  return jpeg_header(path, prefix).header;
}

DecodedImage decode_jpeg(const fs::path& path) {
  return decode_jpeg(path, JpegBytes{read_input_file(path, kMaxImageFileBytes)}, 0);
}

DecodedImage decode_image_bytes(const std::string& bytes, const fs::path& name, uint64_t max_pixels) {
  static const std::string kPng("\x89PNG\r\n\x1a\n", 8), kJpeg("\xff\xd8\xff", 3);
  if (bytes.compare(0, kPng.size(), kPng) == 0) {
    Spng ctx(spng_ctx_new(0));
    if (!ctx) fail(name, "out of memory");
    check(spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_ERROR), name);
    check(spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size()), name);
    spng_ihdr ihdr{};
    check(spng_get_ihdr(ctx.get(), &ihdr), name);
    return decode_png(name, ctx.get(), ihdr, max_pixels);
  }
  if (bytes.compare(0, kJpeg.size(), kJpeg) == 0) return decode_jpeg(name, JpegBytes{bytes}, max_pixels);
  fail(name, "neither a PNG nor a JPEG");
}

void write_png_samples(const fs::path& path, uint32_t width, uint32_t height, uint32_t channels,
                       uint32_t bits, const std::vector<uint16_t>& samples) {
  static constexpr uint8_t kColourType[] = {SPNG_COLOR_TYPE_GRAYSCALE, SPNG_COLOR_TYPE_GRAYSCALE_ALPHA,
                                            SPNG_COLOR_TYPE_TRUECOLOR, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA};
  const size_t count = size_t(width) * height * channels;
  if (width == 0 || height == 0 || channels < 1 || channels > 4 || (bits != 8 && bits != 16) ||
      samples.size() != count)
    throw IoError("cannot write " + path.string() + ": invalid PNG layout");
  // libspng takes 16-bit samples in host byte order (SPNG_FMT_PNG) and writes them big-endian.
  std::vector<uint8_t> bytes(count * (bits / 8));
  if (bits == 8)
    std::transform(samples.begin(), samples.end(), bytes.begin(), [](uint16_t v) { return uint8_t(v); });
  else
    std::memcpy(bytes.data(), samples.data(), bytes.size());
  Spng ctx(spng_ctx_new(SPNG_CTX_ENCODER));
  if (!ctx) throw IoError("cannot write " + path.string() + ": out of memory");
  auto check_write = [&](int status) {
    if (status != 0)
      throw IoError("cannot write " + path.string() + ": PNG encoding failed (" + spng_strerror(status) +
                    ")");
  };
  check_write(spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1));
  spng_ihdr ihdr{};
  ihdr.width = width;
  ihdr.height = height;
  ihdr.bit_depth = uint8_t(bits);
  ihdr.color_type = kColourType[channels - 1];
  check_write(spng_set_ihdr(ctx.get(), &ihdr));
  check_write(spng_encode_image(ctx.get(), bytes.data(), bytes.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE));
  int error = 0;
  size_t size = 0;
  std::unique_ptr<void, decltype(&std::free)> png(spng_get_png_buffer(ctx.get(), &size, &error), &std::free);
  check_write(error);
  write_file_atomically(path, std::string(static_cast<const char*>(png.get()), size));
}

}  // namespace filterlab::io
