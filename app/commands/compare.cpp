// `filterlab compare A B`: MSE, PSNR, SSIM and the largest difference of two image files, and a heat
// map of the difference. No device.
#include "command.h"

#include "common/metrics.h"
#include "io/image_files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  compare A B         MSE, PSNR, SSIM and max |A-B| of two images (.png/.jpg as stored/255, or .pfm/.exr;
                      a .png/.jpg against a .pfm/.exr is decoded from sRGB to linear first, and says so);
                      exit 1 when either holds NaN or infinity (counted, left out of the metrics)
)";

constexpr std::string_view kOptions = R"(compare options:
  over the channels both images have: RGB, or RGBA when both have alpha (PFM: RGB or gray)
  --alpha on|off      whether alpha counts when both images have it (default on)
  --json FILE         {"mse", "psnr" (null when identical), "ssim", "max_abs", "nonfinite", ...}
  --diff FILE.png     heat map of |A-B| (black, red, yellow, white)   --gain G  (default: max -> white)
)";

struct CompareRequest {
  std::filesystem::path a, b;
  std::optional<std::filesystem::path> json, diff;
  double gain = 0;    // heat map gain; 0: the largest difference is white
  bool alpha = true;  // when both images have alpha, it counts as a fourth channel
};

CompareRequest parse_compare(Args& args) {
  CompareRequest c;
  std::vector<std::filesystem::path> files;
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--json") {
      c.json = args.output_file();
    } else if (flag == "--diff") {
      c.diff = args.value();
      if (!c.diff->string().ends_with(".png"))
        throw UsageError("--diff wants a .png file, got '" + c.diff->string() + "'");
      check_writable(flag, *c.diff);
    } else if (flag == "--gain") {
      c.gain = parse_positive(flag, args.value());
    } else if (flag == "--alpha") {
      c.alpha = parse_on_off(flag, args.value());
    } else if (flag.starts_with("--")) {
      args.unknown();
    } else {
      files.push_back(flag);
    }
  }
  if (files.size() != 2) throw UsageError("compare wants two image files: filterlab compare A B");
  for (const auto& f : files) check_image_extension("", f);
  c.a = files[0];
  c.b = files[1];
  return c;
}

int compare_files(const CompareRequest& c) {
  io::ImageF a, b;
  io::read_image_header(c.a);  // both through the size gate before either is decoded
  io::read_image_header(c.b);
  // Files of one kind compare as stored: 8-bit values / 255 (16-bit ones / 65535), floats as they are.
  // A PNG or JPEG (sRGB-encoded) against a PFM or EXR (linear) would compare two encodings of one
  // picture (11.9 dB for the same image): the encoded one is decoded to linear first, and said so.
  const auto encoded = io::is_srgb_picture;
  const bool mixed = encoded(c.a) != encoded(c.b);
  a = io::read_image_file(c.a, mixed && encoded(c.a) ? io::Encoding::Srgb : io::Encoding::Raw);
  b = io::read_image_file(c.b, mixed && encoded(c.b) ? io::Encoding::Srgb : io::Encoding::Raw);
  if (mixed) {
    const std::filesystem::path& srgb = encoded(c.a) ? c.a : c.b;
    const std::filesystem::path& linear = encoded(c.a) ? c.b : c.a;
    std::fprintf(
        stderr,
        "filterlab: note: %s holds sRGB-encoded values and %s linear ones: %s is decoded from sRGB to "
        "linear before the comparison\n",
        srgb.string().c_str(), linear.string().c_str(), srgb.string().c_str());
  }
  if (a.width != b.width || a.height != b.height)
    throw UsageError("sizes differ: " + c.a.string() + " is " + std::to_string(a.width) + "x" +
                     std::to_string(a.height) + ", " + c.b.string() + " is " + std::to_string(b.width) + "x" +
                     std::to_string(b.height));
  // RGB, or RGBA where both images have alpha and it counts.
  const uint32_t channels = std::min(a.channels, b.channels) == 4 && !c.alpha ? 3 : 4;
  const common::ImageMetrics m = common::image_metrics(a, b, channels);
  const char* names[] = {"", "gray", "RG", "RGB", "RGBA"};
  // Colour with alpha is compared as filterlab filters it: premultiplied (io::Alpha).
  const bool with_alpha = std::min(a.channels, b.channels) == 4;
  const std::string which = std::string(names[m.channels]) +
                            (m.channels == 4 ? " (colour premultiplied by alpha; alpha counted: --alpha off "
                                               "leaves it out)"
                             : with_alpha    ? " (colour premultiplied by alpha; alpha left out: --alpha off)"
                                             : "");
  const bool nonfinite = m.nonfinite_a + m.nonfinite_b > 0;
  const std::string psnr =
      std::isinf(m.psnr) ? (nonfinite ? "inf" : "inf (identical)") : std::to_string(m.psnr);
  const std::string ssim = m.ssim      ? std::to_string(*m.ssim)
                           : nonfinite ? "n/a (non-finite values)"
                                       : "n/a (under 11x11)";
  std::printf("mse      %.9g\npsnr     %s\nssim     %s\nmax_abs  %.9g\nchannels %u %s, %ux%u\n", m.mse,
              psnr.c_str(), ssim.c_str(), m.max_abs, m.channels, which.c_str(), a.width, a.height);
  if (c.json) {
    using nlohmann::json;
    json j = {{"mse", m.mse},
              {"psnr", std::isinf(m.psnr) ? json(nullptr) : json(m.psnr)},
              {"identical", m.max_abs == 0 && !nonfinite},
              {"ssim", m.ssim ? json(*m.ssim) : json(nullptr)},
              {"max_abs", m.max_abs},
              {"channels", m.channels},
              {"alpha_counted", m.channels == 4},
              {"colour", with_alpha ? "premultiplied by alpha" : "as stored"},
              {"nonfinite", {{"a", m.nonfinite_a}, {"b", m.nonfinite_b}}},
              {"width", a.width},
              {"height", a.height},
              {"a", c.a.string()},
              {"b", c.b.string()}};
    write_text(*c.json, j.dump(2) + "\n");
  }
  if (c.diff) io::write_png(*c.diff, common::difference_heatmap(a, b, c.gain));
  if (nonfinite) {
    std::fprintf(stderr,
                 "filterlab: non-finite values (NaN or infinity): %zu in %s, %zu in %s; the metrics leave "
                 "their pixels out\n",
                 m.nonfinite_a, c.a.string().c_str(), m.nonfinite_b, c.b.string().c_str());
    return 1;
  }
  return 0;
}

Work prepare(Args& args) {
  const CompareRequest request = parse_compare(args);
  return [request] { return compare_files(request); };
}

}  // namespace

const Command& compare_command() {
  static const Command command{"compare", kSynopsis, kOptions, 0, prepare};
  return command;
}

}  // namespace filterlab::app
