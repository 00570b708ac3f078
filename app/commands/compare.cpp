// `filterlab compare A B`: MSE, PSNR, SSIM, FLIP and the largest difference of two image files, and a
// heat map of the difference. No device.
#include "command.h"

#include "common/flip.h"
#include "common/metrics.h"
#include "io/image_files.h"
#include "passes/flip_pass.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  compare A B         MSE, PSNR, SSIM, FLIP and max |A-B| of two images (.png/.jpg as stored/255, or
                      .pfm/.exr; a .png/.jpg against a .pfm/.exr is decoded from sRGB to linear first,
                      and says so);
                      exit 1 when either holds NaN or infinity (counted, left out of the metrics)
)";

constexpr std::string_view kOptions = R"(compare options:
  over the channels both images have: RGB, or RGBA when both have alpha (PFM: RGB or gray)
  --alpha on|off      whether alpha counts when both images have it (default on)
  --json FILE         {"mse", "psnr" (null when identical), "ssim", "max_abs", "flip", "nonfinite", ...}
  FLIP (NVIDIA's perceptual difference; A is the reference): LDR-FLIP of two .png/.jpg (decoded from
  sRGB), HDR-FLIP otherwise (linear; exposures from A's luminance), over RGB (alpha dropped)
  --flip-map FILE     the FLIP map: .png in the magma colour map (black: none, light yellow: the
                      most), .pfm or .exr its values (one channel)
  --flip              FLIP above 4 megapixels too (it takes about 200 bytes a pixel; without it,
                      larger pairs say n/a)
  --gpu               FLIP on the GPU (fp32 compute passes, any size; within 1e-4 of the double
                      reference in the mean, docs/flip.md), with --device, --validation
  --ppd P             its pixels per degree (default 67.02: a 0.7 m wide 3840-pixel monitor at 0.7 m)
  --monitor W:PIXELS:D  the same from a monitor W metres wide of PIXELS columns seen from D metres
  --flip-exposure START:STOP:COUNT  HDR-FLIP's exposures in stops (default: from A's luminance)
  --fuzz T            also count the pixels whose largest channel difference is over T: levels of 255
                      where T is a whole number and both files have 8-bit samples, else in the values
                      compared (0..1 for pictures); it says which
  --diff FILE.png     heat map of |A-B| (black, red, yellow, white)   --gain G  (default: max -> white)
)";

struct CompareRequest {
  std::filesystem::path a, b;
  std::optional<std::filesystem::path> json, diff, flip_map;
  double gain = 0;    // heat map gain; 0: the largest difference is white
  bool alpha = true;  // when both images have alpha, it counts as a fourth channel
  common::FlipViewing viewing;      // --ppd, --monitor, --flip-exposure
  std::optional<std::string> fuzz;  // as given: a whole number may mean levels (fuzz_threshold)
  bool flip = false;                // FLIP above kFlipPixels too
  std::optional<DeviceOptions> gpu;  // --gpu: FLIP on the device
};

// FLIP's double-precision reference holds about 200 bytes a pixel: above this, only when asked.
constexpr uint64_t kFlipPixels = 4u << 20;

// The map as a picture in magma (.png) or as its values (.pfm, .exr: one channel, float).
void write_flip_map(const std::filesystem::path& path, const std::vector<double>& map, uint32_t width,
                    uint32_t height) {
  if (path.extension() == ".png") {
    io::write_png(path, common::flip_magma(map, width, height));
    return;
  }
  io::ImageF values{width, height, 1, std::vector<float>(map.begin(), map.end())};
  io::write_image_file(path, values, io::Encoding::Raw);
}

CompareRequest parse_compare(Args& args) {
  CompareRequest c;
  DeviceOptions device = default_device_options(args);
  std::optional<std::string> device_flag;  // the first device flag: they need --gpu
  bool gpu = false;
  std::vector<std::filesystem::path> files;
  while (args.next()) {
    const std::string& flag = args.flag();
    if (parse_flip_flag(args, c.viewing)) continue;
    if (parse_device_flag(args, device)) {
      device_flag = device_flag.value_or(flag);
      continue;
    }
    if (flag == "--gpu") {
      gpu = true;
      continue;
    }
    if (flag == "--json") {
      c.json = args.output_file();
    } else if (flag == "--diff") {
      c.diff = args.value();
      if (!c.diff->string().ends_with(".png"))
        throw UsageError("--diff wants a .png file, got '" + c.diff->string() + "'");
      check_writable(flag, *c.diff);
    } else if (flag == "--flip-map") {
      c.flip_map = args.value();
      if (!io::is_output_extension(*c.flip_map))
        throw UsageError("--flip-map wants a .png, .pfm or .exr file, got '" + c.flip_map->string() + "'");
      check_writable(flag, *c.flip_map);
    } else if (flag == "--gain") {
      c.gain = parse_positive(flag, args.value());
    } else if (flag == "--alpha") {
      c.alpha = parse_on_off(flag, args.value());
    } else if (flag == "--flip") {
      c.flip = true;
    } else if (flag == "--fuzz") {
      const std::string text = args.value();
      const std::optional<double> t = strict_number(text);
      if (!t || *t < 0 || *t > 1e6) throw UsageError(flag + " wants a number from 0, got '" + text + "'");
      c.fuzz = text;
    } else if (flag.starts_with("--")) {
      args.unknown();
    } else {
      files.push_back(flag);
    }
  }
  if (gpu) c.gpu = device;
  else if (device_flag) throw UsageError(*device_flag + " is for --gpu (FLIP on the GPU)");
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
  // --fuzz: the pixels over the threshold, in levels of 255 where both files hold 8-bit samples and
  // it is a whole number (as ImageMagick's -fuzz counts levels), else in the values compared.
  nlohmann::json fuzz = nullptr;
  if (c.fuzz) {
    const bool levels = io::read_image_header(c.a).bits == 8 && io::read_image_header(c.b).bits == 8 &&
                        c.fuzz->find_first_not_of("0123456789") == std::string::npos && !mixed;
    const double threshold = *strict_number(*c.fuzz);
    size_t over = 0;
    const size_t pixels = size_t(a.width) * a.height;
    for (size_t p = 0; p < pixels; ++p) {
      double worst = 0;
      bool finite = true;
      for (uint32_t ch = 0; ch < m.channels; ++ch) {
        const double va = a.pixels[p * a.channels + std::min(ch, a.channels - 1)];
        const double vb = b.pixels[p * b.channels + std::min(ch, b.channels - 1)];
        finite = finite && std::isfinite(va) && std::isfinite(vb);
        worst = std::max(worst,
                         levels ? std::abs(std::round(va * 255) - std::round(vb * 255)) : std::abs(va - vb));
      }
      over += finite && worst > threshold;
    }
    const double share = pixels ? double(over) / double(pixels) : 0.0;
    std::printf("fuzz     %zu of %zu pixels (%.4f%%) differ by more than %s%s\n", over, pixels, 100 * share,
                c.fuzz->c_str(), levels ? " levels of 255" : " (in the values compared)");
    fuzz = {{"threshold", threshold},
            {"unit", levels ? "levels of 255" : "values compared"},
            {"count", over},
            {"share", share}};
  }
  // FLIP (common/flip.h), A the reference: LDR-FLIP of two sRGB pictures, decoded; HDR-FLIP of linear
  // values (a mixed pair's picture is decoded above), over RGB. Not with non-finite values.
  nlohmann::json flip = nullptr;
  uint32_t validation_messages = 0;  // --gpu --validation
  const bool ldr = encoded(c.a) && encoded(c.b);
  std::optional<common::FlipExposures> exposures = c.viewing.exposures;
  std::string flip_skipped;  // why there is none
  if (nonfinite) flip_skipped = "non-finite values";
  else if (a.channels < 3 || b.channels < 3) flip_skipped = "it compares colour images";
  else if (uint64_t(a.width) * a.height > kFlipPixels && !c.flip && !c.flip_map && !c.gpu)
    flip_skipped = "over 4 megapixels: --flip computes it, about 200 bytes a pixel, or --gpu";
  else if (!ldr && !exposures) try {
      exposures = common::flip_exposures(a);
    } catch (const std::invalid_argument&) {
      flip_skipped =
          "A's median luminance is 0, so HDR-FLIP has no exposure range: --flip-exposure gives one";
    }
  if (ldr && c.viewing.exposures)
    std::fprintf(stderr, "filterlab: note: --flip-exposure is for HDR-FLIP; two pictures get LDR-FLIP\n");
  if (!flip_skipped.empty()) {
    std::printf("flip     n/a (%s)\n", flip_skipped.c_str());
    if (c.flip_map) throw UsageError("--flip-map: no FLIP map: " + flip_skipped);
  } else {
    std::vector<double> map;
    std::string where;  // the GPU's name, where it computed the map
    if (c.gpu) {
      vk::Context ctx = make_context(*c.gpu);
      if (const std::optional<std::string> why = passes::flip_does_not_fit(ctx, {a.width, a.height}))
        throw UsageError(*why + ": compare without --gpu computes it on the CPU");
      vk::ShaderSource shaders{c.gpu->shader_dir, c.gpu->glsl_dir};
      const passes::FlipOfImages f = passes::flip_images({ctx, shaders, 1}, a, b, c.viewing.ppd, !ldr,
                                                         common::FlipInput::Srgb, exposures);
      map.assign(f.map.begin(), f.map.end());
      where = "; on " + ctx.report().name + ", fp32";
      validation_messages = ctx.validation_messages();
    } else {
      map = ldr ? common::ldr_flip(a, b, c.viewing.ppd, common::FlipInput::Srgb)
                : common::hdr_flip(a, b, c.viewing.ppd, *exposures);
    }
    const common::FlipPooled f = common::pool_flip(map);
    if (c.flip_map) write_flip_map(*c.flip_map, map, a.width, a.height);
    std::printf("flip     %.6f (%s-FLIP, %.2f pixels per degree; weighted median %.6f, max %.6f", f.mean,
                ldr ? "LDR" : "HDR", c.viewing.ppd, f.weighted_median, f.max);
    if (!ldr)
      std::printf("; %u exposures, %.3f to %.3f stops", exposures->count, exposures->start, exposures->stop);
    std::printf("%s%s)\n", ldr || !mixed ? "" : "; a mixed pair, compared linear", where.c_str());
    flip = {{"mean", f.mean},
            {"weighted_median", f.weighted_median},
            {"max", f.max},
            {"kind", ldr ? "LDR" : "HDR"},
            {"ppd", c.viewing.ppd},
            {"computed_on", c.gpu ? "gpu" : "cpu"},
            {"exposures",
             ldr ? nlohmann::json(nullptr)
                 : nlohmann::json{
                       {"start", exposures->start}, {"stop", exposures->stop}, {"count", exposures->count}}}};
  }
  if (c.json) {
    using nlohmann::json;
    json j = {{"mse", m.mse},
              {"psnr", std::isinf(m.psnr) ? json(nullptr) : json(m.psnr)},
              {"identical", m.max_abs == 0 && !nonfinite},
              {"ssim", m.ssim ? json(*m.ssim) : json(nullptr)},
              {"max_abs", m.max_abs},
              {"flip", flip},
              {"fuzz", fuzz},
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
  return validation_exit_code(validation_messages);
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
