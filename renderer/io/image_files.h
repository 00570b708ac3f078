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

// Colour with alpha is filtered premultiplied, as libvips, OpenImageIO and Pillow resample: filtering
// straight colour darkens every edge where alpha falls. PNG stores straight alpha (its
// specification), so a PNG's colour is multiplied by its alpha as it is read (after the sRGB decode)
// and divided by it as a PNG with alpha is written (alpha 0: colour 0). OpenEXR's colour is
// premultiplied already (its convention) and is read and written as it is. AsStored: a PNG's values
// as they are (a convolution kernel's weights).
enum class Alpha { Premultiplied, AsStored };

// The channels the file has: 3 (RGB; gray expanded) or 4 (RGBA) from PNG and JPEG, at 8 or 16 bits
// per sample; 1 or 3 from PFM; 1, 3 or 4 from OpenEXR. Throws IoError for a missing, unreadable,
// corrupt or unsupported file.
ImageF read_image_file(const std::filesystem::path& path, Encoding encoding,
                       Alpha alpha = Alpha::Premultiplied);
// Its header only: size and samples, so that a file too large to decode is refused before it is. The
// one size gate every image passes (filter, run --image, quality --image, a preset's image, the
// window): InputError for more than kMaxImageSide a side, or for more memory to decode than half the
// machine's. read_image_file applies it too. The device's own limit is checked once there is one.
inline constexpr uint32_t kMaxImageSide = 16384;
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
// luminance of RGB, alpha 1 where the image has none, colour straight where the PNG has alpha (the
// image's is premultiplied: see Alpha) and as it is (over black) where it has none; .pfm: RGB
// floats (alpha dropped); .exr: every channel, as `samples`. Atomic: a failed write leaves no file
// behind. Throws IoError, also for an unsupported extension.
void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding,
                      ExrSamples samples = ExrSamples::Float, std::optional<PngLayout> png = {});

bool is_image_extension(const std::filesystem::path& path);   // .png .jpg .jpeg .pfm .exr
bool is_output_extension(const std::filesystem::path& path);  // .png .pfm .exr
bool is_srgb_picture(const std::filesystem::path& path);      // .png .jpg .jpeg: sRGB-encoded pictures

// The sRGB transfer functions (IEC 61966-2-1), on [0,1].
double srgb_to_linear(double encoded);
double linear_to_srgb(double linear);

}  // namespace filterlab::io
