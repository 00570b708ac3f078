// The convolve family beyond the registry's reference test (which runs every method at the family's
// test points, fft.vkfft with its default transform; here both): the kernel's picture from one bright pixel (an even-sized RGB kernel file), the
// largest kernel (255 x 255) through every method that serves it, the generated Gaussian against the
// Gaussian family, and bad kernels refused before any GPU work. Lavapipe, validation on
// (synchronization validation included).
#include "gpu_test_util.h"

#include "common/reference.h"
#include "filters/apply.h"
#include "filters/chain.h"
#include "filters/convolve/convolve.h"
#include "filters/convolve/kernel.h"
#include "io/image_files.h"
#include "runtime/headless_runner.h"
#include "runtime/sequence.h"
#include "vkfft/fft_plan.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>

using namespace filterlab;
namespace cv = filterlab::filters::convolve;

namespace {

class Convolve : public test::ValidatedSuite {
 protected:
  passes::PassEnv env_{*context_, *shaders_, runtime::kFramesInFlight};

  io::ImageF apply(const io::ImageF& input, const std::string& step) {
    return filters::apply_to_each(env_, {input}, filters::parse_chain(step).at(0)).at(0);
  }

  static std::string temp(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("filterlab_convolve_" + name)).string();
  }
};

double max_abs(const io::ImageF& a, const io::ImageF& b) {
  double worst = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) worst = std::max(worst, double(std::abs(a.pixels[i] - b.pixels[i])));
  return worst;
}

}  // namespace

TEST_F(Convolve, OneBrightPixelBecomesTheKernelsPictureUpright) {
  // A 4 x 6 RGB kernel, every texel and channel its own value: even sizes put the centre at (2, 3).
  io::ImageF k;
  k.width = 4;
  k.height = 6;
  k.channels = 3;
  for (uint32_t i = 0; i < k.width * k.height * 3; ++i) k.pixels.push_back(0.01f * float(i + 1));
  const std::string file = temp("impulse.pfm");
  io::write_image_file(file, k, io::Encoding::Raw);
  io::ImageF input;
  input.width = 15;
  input.height = 11;
  input.channels = 4;
  input.pixels.assign(15 * 11 * 4, 0.0f);
  const int px = 7, py = 5;
  for (int c = 0; c < 4; ++c) input.pixels[(py * 15 + px) * 4 + c] = 1.0f;
  for (const char* method : {"direct.full2d", "direct.separable", "fft.vkfft:transform=fused",
                             "fft.vkfft:transform=separate"}) {
    SCOPED_TRACE(method);
    const io::ImageF out =
        apply(input, std::string("convolve.") + method + ":kernel=" + file + ":normalize=false:precision=fp32");
    for (int b = 0; b < 6; ++b)
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) {
          const float want = k.pixels[(b * 4 + a) * 3 + c];
          EXPECT_NEAR(out.at(uint32_t(px - 2 + a), uint32_t(py - 3 + b), uint32_t(c)), want, 1e-5)
              << "texel " << a << "," << b << " channel " << c;
        }
    // Alpha: the mean of the three planes.
    const float mean = (k.pixels[0] + k.pixels[1] + k.pixels[2]) / 3;
    EXPECT_NEAR(out.at(uint32_t(px - 2), uint32_t(py - 3), 3), mean, 1e-5);
    double elsewhere = 0;
    for (uint32_t y = 0; y < 11; ++y)
      for (uint32_t x = 0; x < 15; ++x)
        if (int(x) < px - 2 || int(x) > px + 1 || int(y) < py - 3 || int(y) > py + 2)
          for (uint32_t c = 0; c < 4; ++c) elsewhere = std::max(elsewhere, double(std::abs(out.at(x, y, c))));
    EXPECT_LE(elsewhere, 1e-5);
  }
  std::filesystem::remove(file);
}

TEST_F(Convolve, TheLargestKernelMatchesTheReference) {
  // 255 x 255, on an image smaller than the kernel: every tap but the middle ones reads a border.
  const io::ImageF input = common::random_image(41, 29, 4, 3);
  const std::string point = "kernel=disk:radius=127:precision=fp32";
  const filters::ResolvedStep step = filters::resolve(filters::parse_chain("convolve.fft.vkfft:" + point).at(0));
  const common::ImageD expected = cv::family().reference(input, step.params);
  for (const char* transform : {"fused", "separate"})
    EXPECT_LE(common::compare(apply(input, "convolve.fft.vkfft:transform=" + std::string(transform) + ":" + point),
                              expected)
                  .max_abs,
              1e-4)
        << transform;
  EXPECT_LE(common::compare(apply(input, "convolve.direct.full2d:" + point), expected).max_abs, 1e-5);
  // direct.separable would need more terms than it runs: refused, with the count.
  try {
    filters::check_support(filters::resolve(filters::parse_chain("convolve.direct.separable:" + point).at(0)),
                           *context_);
    ADD_FAILURE() << "direct.separable accepted a disk of radius 127";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("separable terms"), std::string::npos) << e.what();
  }
}

TEST_F(Convolve, TheGeneratedGaussianIsTheGaussianFamilys) {
  const io::ImageF input = common::random_image(67, 45, 4, 5);
  const io::ImageF gaussian = apply(input, "gaussian.comp.tiled:radius=6:precision=fp32");
  for (const char* method : {"direct.full2d", "direct.separable", "fft.vkfft:transform=fused",
                             "fft.vkfft:transform=separate"}) {
    SCOPED_TRACE(method);
    const double bound = std::string(method).starts_with("fft") ? 1e-4 : 1e-5;
    EXPECT_LE(max_abs(apply(input, std::string("convolve.") + method + ":kernel=gaussian:radius=6:precision=fp32"),
                      gaussian),
              bound);
  }
}

TEST_F(Convolve, BadKernelsAreRefusedBeforeAnyGpuWork) {
  auto refused = [&](const std::string& kernel, const std::string& why) {
    try {
      filters::resolve(filters::parse_chain("convolve.fft.vkfft:kernel=" + kernel).at(0));
      ADD_FAILURE() << kernel << " was accepted";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << kernel << ": " << e.what();
    }
  };
  refused(temp("missing.pfm"), "kernel");
  {
    std::ofstream(temp("corrupt.pfm")) << "PF\n3 three\n-1\n";
    refused(temp("corrupt.pfm"), "kernel");
  }
  auto write = [&](const std::string& name, uint32_t w, uint32_t h, float value) {
    io::ImageF k;
    k.width = w;
    k.height = h;
    k.channels = 3;
    k.pixels.assign(size_t(w) * h * 3, value);
    io::write_image_file(temp(name), k, io::Encoding::Raw);
    return temp(name);
  };
  refused(write("zeros.pfm", 5, 5, 0.0f), "cannot be normalized");
  refused(write("nan.pfm", 3, 3, std::numeric_limits<float>::quiet_NaN()), "NaN or Inf");
  refused(write("inf.pfm", 3, 3, std::numeric_limits<float>::infinity()), "NaN or Inf");
  refused(write("large.pfm", 256, 3, 1.0f), "larger than 255");
  refused("kernel.jpg", "wants gaussian|disk|hexagon|star|FILE.pfm|FILE.png");
  // A transform larger than one buffer holds, refused for the size before any GPU work; the direct
  // methods have no such limit.
  try {
    filters::check_chain(filters::parse_chain("convolve.fft.vkfft:kernel=disk:radius=4"), 16384, 16384);
    ADD_FAILURE() << "a 16K transform was accepted";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 4096 MiB"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(filters::check_chain(filters::parse_chain("convolve.fft.vkfft:kernel=disk:radius=127"), 7680, 4320));
  EXPECT_NO_THROW(filters::check_chain(filters::parse_chain("convolve.direct.full2d:kernel=disk:radius=4"), 16384, 16384));
  for (const char* name : {"corrupt.pfm", "zeros.pfm", "nan.pfm", "inf.pfm", "large.pfm"})
    std::filesystem::remove(temp(name));
}

TEST_F(Convolve, TheSpectrumViewShowsTheKernelsSpectrum) {
  // `convolve.spectrum`, as the viewport shows it: log10 |K(u, v)| / 4 + 1 per channel, the zero
  // frequency in the middle, against the kernel's DFT in double, with both transforms (the fused
  // one keeps its spectrum in the layout VkFFT's convolution mode reads).
  // A random 7 x 6 kernel: no symmetry to hide a frequency mapped to its mirror image.
  const io::ImageF random = common::random_image(7, 6, 1, 11);
  io::ImageF grey{7, 6, 3, {}};
  for (float v : random.pixels) grey.pixels.insert(grey.pixels.end(), {v, v, v});
  const std::string file = temp("spectrum.pfm");
  io::write_image_file(file, grey, io::Encoding::Raw);
  // At this size VkFFT's convolution mode keeps the kernel in a layout of its own, not the one the
  // view reads (a view of that buffer fails here).
  const VkExtent2D size{1280, 720};
  for (const char* transform : {"fused", "separate"}) {
    SCOPED_TRACE(transform);
    const std::string step = "convolve.fft.vkfft:kernel=" + file + ":transform=" + transform;
    auto run = test::validated_run(size.width, size.height);
    run.frames = 1;
    run.chain = step;
    run.read_images = {"convolve.spectrum"};
    const io::ImageF view = runtime::run_headless(run).images.at("convolve.spectrum");
    const cv::Kernel k = cv::make_kernel(filters::resolve(filters::parse_chain(step).at(0)).params);
    const int nx = int(vkfft::good_size(size.width + k.width - 1));
    const int ny = int(vkfft::good_size(size.height + k.height - 1));
    int compared = 0;
    for (uint32_t y = 0; y < size.height; y += 61)
      for (uint32_t x = 0; x < size.width; x += 47) {
        const int u = int(std::floor((x + 0.5) / size.width * nx)) - nx / 2;
        const int v = int(std::floor((y + 0.5) / size.height * ny)) - ny / 2;
        double re = 0, im = 0;
        for (int b = 0; b < k.height; ++b)
          for (int a = 0; a < k.width; ++a) {
            const double phase = -2 * std::numbers::pi * (double(u) * a / nx + double(v) * b / ny);
            re += k.at(0, a, b) * std::cos(phase);
            im += k.at(0, a, b) * std::sin(phase);
          }
        const double magnitude = std::hypot(re, im);
        if (magnitude < 1e-3) continue;  // the log magnifies fp32's rounding there
        const double want = std::clamp(std::log10(magnitude) / 4 + 1, 0.0, 1.0);
        EXPECT_NEAR(view.at(x, y, 0), want, 2e-3) << "pixel " << x << "," << y << " frequency " << u << "," << v;
        ++compared;
      }
    EXPECT_GT(compared, 100);
  }
  std::filesystem::remove(file);
}
