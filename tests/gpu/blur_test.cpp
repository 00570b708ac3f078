// GPU tier: every blur method against the double-precision CPU reference of the same kernel and
// clamp-to-edge border, on random images of odd sizes and on a scene capture. Validation on.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/blur_filter.h"
#include "filters/reference.h"

#include <memory>

using namespace filterlab;

namespace {

// One validated context for the whole suite: creating one per case would dominate the run time.
class BlurGpu : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    vk::ContextOptions options;
    options.validation = true;
    context_ = std::make_unique<vk::Context>(options);
    shaders_ = std::make_unique<vk::ShaderSource>(vk::ShaderSource{FILTERLAB_SHADER_DIR, std::nullopt});
  }
  static void TearDownTestSuite() {
    shaders_.reset();
    context_.reset();
  }
  void TearDown() override { EXPECT_EQ(context_->validation_messages(), 0u); }

  static filters::ErrorStats run(const std::string& method, int radius, const io::ImageF& input,
                                 const std::string& extra = ":precision=fp32", filters::KernelType kernel = filters::KernelType::Gaussian) {
    const std::string spec = "gaussian." + method + ":radius=" + std::to_string(radius) + ":kernel=" +
                             filters::kernel_type_name(kernel) + extra;
    const filters::FilterStep step = filters::parse_chain(spec).at(0);
    const filters::BlurSettings settings = filters::parse_blur_settings(step);
    const io::ImageF output = filters::apply_filter(*context_, *shaders_, input, step);
    EXPECT_EQ(output.width, input.width);
    EXPECT_EQ(output.height, input.height);
    return filters::compare(output, filters::reference_blur(input, filters::kernel_weights(settings.kernel)));
  }

  static inline std::unique_ptr<vk::Context> context_;
  static inline std::unique_ptr<vk::ShaderSource> shaders_;
};

const int kRadii[] = {1, 2, 3, 4, 7, 8, 16, 32};

// Exact methods: fp32 rounding only. The bound is 1e-5 absolute for values in [0, 1).
constexpr double kExactTolerance = 1e-5;
// Bilinear methods: not exact by design, because GPUs quantize the sampler's sub-texel weights
// (commonly 8 bits: up to ~1/512 of the value range). lavapipe filters in float: measured
// 7.8e-6 worst over r = 1..32 on 257x131, so the bound here is 1e-4 (it still catches a wrong
// tap offset or weight, which costs > 1e-2). GPU figures come from the benchmark.
constexpr double kBilinearTolerance = 1e-4;

}  // namespace

TEST_F(BlurGpu, ExactMethodsMatchTheReferenceAtEveryRadius) {
  const io::ImageF image = filters::random_image(257, 131, 4, 7);
  const io::ImageF tiny = filters::random_image(13, 9, 4, 8);
  for (const char* method : {"frag.full2d", "frag.separable"})
    for (int r : kRadii) {
      for (const io::ImageF* input : {&image, &tiny}) {
        filters::ErrorStats e = run(method, r, *input);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " r=" << r << " " << input->width << "x"
                                              << input->height << " worst at " << e.worst_x << "," << e.worst_y;
      }
    }
}

TEST_F(BlurGpu, BoxAndBinomialKernelsAreExactToo) {
  const io::ImageF image = filters::random_image(31, 17, 4, 9);
  for (auto kernel : {filters::KernelType::Box, filters::KernelType::Binomial})
    for (const char* method : {"frag.full2d", "frag.separable"})
      for (int r : {1, 3, 8}) {
        filters::ErrorStats e = run(method, r, image, ":precision=fp32", kernel);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " " << filters::kernel_type_name(kernel) << " r=" << r;
      }
}

TEST_F(BlurGpu, BilinearMethodsStayWithinTheStatedBound) {
  const io::ImageF image = filters::random_image(257, 131, 4, 11);
  for (const char* method : {"frag.separable_linear", "frag.full2d_linear"}) {
    double worst = 0;
    for (int r : kRadii) {
      filters::ErrorStats e = run(method, r, image);
      EXPECT_LE(e.max_abs, kBilinearTolerance) << method << " r=" << r;
      worst = std::max(worst, e.max_abs);
    }
    std::printf("%s: worst max abs error %.3g over r in {1..32}\n", method, worst);
  }
}

TEST_F(BlurGpu, Fp16PathIsWithinHalfFloatRounding) {
  const io::ImageF image = filters::random_image(67, 45, 4, 13);
  for (const char* method : {"frag.full2d", "frag.separable"}) {
    filters::ErrorStats e = run(method, 3, image, "");  // default precision: fp16 images
    // Output rounding to half (2^-11 relative, values < 1) plus the fp16 intermediate of the
    // separable method: 2 half-ulps at 1.0.
    EXPECT_LE(e.max_abs, 2 * std::ldexp(1.0, -11)) << method;
    EXPECT_GT(e.max_abs, 0.0) << method << ": fp16 output cannot be exact";
  }
}

TEST_F(BlurGpu, ExactOnTheHdrScene) {
  auto o = test::validated_run(96, 64);
  o.read_images = {"scene"};
  const io::ImageF scene = headless::run_headless(o).images.at("scene");
  ASSERT_GT(io::channel_max(scene, 0), 4.0f);
  for (const char* method : {"frag.full2d", "frag.separable"}) {
    filters::ErrorStats e = run(method, 3, scene);
    // Values reach ~50 here: fp32 rounding scales with them.
    EXPECT_LE(e.max_abs, 50 * kExactTolerance) << method;
  }
}
