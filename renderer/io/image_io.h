// Image file I/O (PNG, JPEG, PFM, OpenEXR) and display conversions for 8-bit captures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::io {

// Thrown by every read/write function; the message names the file and the problem.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Float image: rows top-down, channels interleaved, 1..4 channels.
struct ImageF {
  uint32_t width = 0, height = 0, channels = 0;
  std::vector<float> pixels;  // width * height * channels
  float at(uint32_t x, uint32_t y, uint32_t c) const;
};

// RGBA8 image, rows top-down.
struct ImageU8 {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4
};

// Writes are atomic: data goes to "<path>.tmp-<pid>" and is renamed over <path>; a failed write
// leaves nothing behind. Also for text files (JSON, CSV, Markdown).
void write_file_atomically(const std::filesystem::path& path, const std::string& text);
// Creates and removes the temporary file a write to `path` would create: throws IoError when that
// fails (no such folder, no permission, a read-only or pseudo file system), before any work is done.
void check_can_write(const std::filesystem::path& path);

// What a file holds, read from its header alone (nothing decoded): the size and the samples, so
// that an image too large for the host or the device is refused before it is decoded.
struct ImageHeader {
  std::string format;  // "png", "jpeg", "pfm", "exr"
  uint32_t width = 0, height = 0;
  // 3 (RGB, gray expanded) or 4 (with alpha) for PNG and JPEG; 1 or 3 for PFM; 1 (Y), 3 (RGB) or 4
  // (RGBA) for OpenEXR
  uint32_t channels = 0;
  uint32_t bits = 0;  // per sample: 8 or 16 (PNG, JPEG), 32 (PFM), 16 (half) or 32 (float) for OpenEXR
  bool gray = false;  // PNG and JPEG: the file stores gray samples (expanded to RGB when read)
};

// A PNG or JPEG decoded at its own depth: RGBA samples of `header.bits` bits, gray expanded to RGB,
// alpha the maximum where the file has none.
struct DecodedImage {
  ImageHeader header;
  std::vector<uint16_t> samples;  // width * height * 4
};

// PNG through libspng: every chunk CRC and the zlib checksum are verified; 16-bit files keep 16
// bits. JPEG through TurboJPEG: a truncated or damaged file is an error, not a grey fill.
// All throw IoError naming the file and the problem.
ImageHeader read_png_header(const std::filesystem::path& path);
DecodedImage decode_png(const std::filesystem::path& path);
ImageHeader read_jpeg_header(const std::filesystem::path& path);
DecodedImage decode_jpeg(const std::filesystem::path& path);
// A PNG or JPEG held in memory (a glTF's embedded or referenced image), told apart by its signature,
// with the same checks; `name` names it in errors. More than `max_pixels` is refused before decoding.
DecodedImage decode_image_bytes(const std::string& bytes, const std::filesystem::path& name,
                                uint64_t max_pixels);
ImageHeader read_pfm_header(const std::filesystem::path& path);

void write_png(const std::filesystem::path& path, const ImageU8& image);
// A PNG of 1 (gray), 2 (gray, alpha), 3 (RGB) or 4 (RGBA) channels of 8 or 16 bits: `samples` holds
// width * height * channels values below 2^bits, rows top-down. Through libspng; atomic.
void write_png_samples(const std::filesystem::path& path, uint32_t width, uint32_t height, uint32_t channels,
                       uint32_t bits, const std::vector<uint16_t>& samples);
// Any PNG (gray, palette, 16-bit, ...) as RGBA8 (16-bit samples rounded): for viewing and tests.
ImageU8 read_png(const std::filesystem::path& path);

// 1 channel -> "Pf"; 2 channels -> "PF" with B = 0; 3-4 channels -> "PF" from the
// first three. Little-endian, bottom-up rows, bit-exact floats.
void write_pfm(const std::filesystem::path& path, const ImageF& image);
// Reads "PF" (3 channels) and "Pf" (1 channel) of either endianness.
ImageF read_pfm(const std::filesystem::path& path);

// The first `channels` channels of `image` (all where it has no more).
ImageF first_channels(const ImageF& image, uint32_t channels);

// OpenEXR (renderer/io/exr.cpp): half or float samples (other types converted), R, G, B and A or
// Y, scanline or tiled, any compression libopenexr reads; the data window is the image (the display
// window is ignored), at most kMaxExrSide a side, checked before any pixel is decoded. Written:
// ZIP-compressed (lossless) Y, RG, RGB or RGBA by the image's channels, half or float.
inline constexpr uint32_t kMaxExrSide = 16384;
enum class ExrSamples { Half, Float };
ImageHeader read_exr_header(const std::filesystem::path& path);
ImageF read_exr(const std::filesystem::path& path);
void write_exr(const std::filesystem::path& path, const ImageF& image, ExrSamples samples);

// Channel 0 is depth in [0,1], 1 = far/clear. Geometry (depth < 1) is mapped from
// white (nearest) to dark gray (farthest) so it stays distinct from clear pixels,
// which are black. A single depth value is shown as mid-ramp gray.
ImageU8 depth_to_display(const ImageF& image);
// Channels 0,1 = motion in pixels; +-pixels_for_full_scale spans the 0..255 range
// of R and G around 128. B is 128.
ImageU8 motion_to_display(const ImageF& image, float pixels_for_full_scale = 8.0f);

// Population variance of one channel (0 for an empty image).
double channel_variance(const ImageF& image, uint32_t channel);
// Largest value of one channel, ignoring NaN (-infinity for an empty image).
float channel_max(const ImageF& image, uint32_t channel);

}  // namespace filterlab::io
