#pragma once
// Image files as filter inputs and outputs, chosen by extension: .png and .jpg/.jpeg (8-bit, sRGB
// encoded), .pfm (linear float, exact) and .exr (linear half or float, exact). Used by `filterlab
// filter`, `filterlab compare` and `run --image`.
#include "io/image_io.h"

#include <optional>

namespace filterlab::io {

enum class Encoding {
  Srgb,  // 8-bit values are sRGB: decoded to linear on read, encoded on write (alpha stays linear)
  Raw,   // 8-bit values are used as stored / 255, and written back as value * 255
};

// The channels the file has: 3 (RGB; gray expanded) or 4 (RGBA) from PNG and JPEG, at 8 or 16 bits
// per sample; 1 or 3 from PFM; 1, 3 or 4 from OpenEXR. Throws IoError for a missing, unreadable,
// corrupt or unsupported file.
ImageF read_image_file(const std::filesystem::path& path, Encoding encoding);
// Its header only: size and samples, so that a file too large to decode is refused before it is.
ImageHeader read_image_header(const std::filesystem::path& path);
// A PNG's samples: 1 (gray), 2 (gray, alpha), 3 (RGB) or 4 (RGBA) channels of 8 or 16 bits.
struct PngLayout {
  uint32_t channels = 4;
  uint32_t bits = 8;
  std::string name() const;  // "gray8", "graya16", "rgb8", "rgba16", ...
};
// "gray8|gray16|graya8|graya16|rgb8|rgb16|rgba8|rgba16"; nothing for any other text.
std::optional<PngLayout> parse_png_layout(const std::string& text);
// The layout an image file keeps when written back as PNG: its channels (gray, with alpha or not)
// and its bits (8 or 16; PFM and OpenEXR: 8).
PngLayout png_layout_of(const ImageHeader& header);
// An image's own channels (1: gray, 3: RGB, 4: RGBA), 8 bits.
PngLayout png_layout_of(const ImageF& image);

// .png: `png` (default: the image's own channels, 8 bits), clamped to [0,1], gray the Rec. 709
// luminance of RGB, alpha 1 where the image has none; .pfm: RGB floats (alpha dropped); .exr: every
// channel, as `samples`. Atomic: a failed write leaves no file behind. Throws IoError, also for an
// unsupported extension.
void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding,
                      ExrSamples samples = ExrSamples::Float, std::optional<PngLayout> png = {});

bool is_image_extension(const std::filesystem::path& path);   // .png .jpg .jpeg .pfm .exr
bool is_output_extension(const std::filesystem::path& path);  // .png .pfm .exr

// The sRGB transfer functions (IEC 61966-2-1), on [0,1].
double srgb_to_linear(double encoded);
double linear_to_srgb(double linear);

}  // namespace filterlab::io
