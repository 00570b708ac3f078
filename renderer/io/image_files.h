#pragma once
// Image files as filter inputs and outputs, chosen by extension: .png and .jpg/.jpeg (8-bit, sRGB
// encoded), .pfm (linear float, exact) and .exr (linear half or float, exact). Used by `filterlab
// filter`, `filterlab compare` and `run --image`.
#include "io/image_io.h"

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
// .png: 8-bit RGBA, clamped to [0,1]; .pfm: RGB floats (alpha dropped); .exr: every channel, as
// `samples`. Atomic: a failed write leaves no file behind. Throws IoError, also for an unsupported
// extension.
void write_image_file(const std::filesystem::path& path, const ImageF& image, Encoding encoding,
                      ExrSamples samples = ExrSamples::Float);

bool is_image_extension(const std::filesystem::path& path);   // .png .jpg .jpeg .pfm .exr
bool is_output_extension(const std::filesystem::path& path);  // .png .pfm .exr

// The sRGB transfer functions (IEC 61966-2-1), on [0,1].
double srgb_to_linear(double encoded);
double linear_to_srgb(double linear);

}  // namespace filterlab::io
