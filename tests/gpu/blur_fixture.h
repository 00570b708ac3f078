#pragma once
// The fixture every blur test suite derives from: a validated context per suite (ValidatedSuite)
// and the step -> GPU -> compare-with-the-CPU-reference loop each method is judged by.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/blur_filter.h"
#include "common/reference.h"

#include <memory>

namespace filterlab::test {

class BlurFixture : public ValidatedSuite {
 protected:
  // "gaussian.<method>:radius=R:kernel=K<extra>" as one chain step.
  static filters::FilterStep blur_step(const std::string& method, int radius,
                                       const std::string& extra = ":precision=fp32",
                                       common::KernelType kernel = common::KernelType::Gaussian) {
    return filters::parse_chain("gaussian." + method + ":radius=" + std::to_string(radius) +
                                ":kernel=" + common::kernel_type_name(kernel) + extra)
        .at(0);
  }

  // Runs one step on the GPU (on `context`, or the suite's); the output keeps the input's size.
  static io::ImageF apply(const filters::FilterStep& step, const io::ImageF& input,
                          const vk::Context* context = nullptr) {
    const io::ImageF output = filters::apply_filter(context ? *context : *context_, *shaders_, input, step);
    EXPECT_EQ(output.width, input.width);
    EXPECT_EQ(output.height, input.height);
    return output;
  }

  static common::ImageD reference(const io::ImageF& input, const filters::FilterStep& step) {
    return common::reference_blur(input, common::kernel_weights(filters::parse_blur_settings(step).kernel));
  }

  // The method's output against the reference of the same kernel.
  static common::ErrorStats run(const std::string& method, int radius, const io::ImageF& input,
                                 const std::string& extra = ":precision=fp32",
                                 common::KernelType kernel = common::KernelType::Gaussian,
                                 const vk::Context* context = nullptr) {
    const filters::FilterStep step = blur_step(method, radius, extra, kernel);
    return common::compare(apply(step, input, context), reference(input, step));
  }

  // The radius up to which this device serves `method`, or 0 when it is unavailable here.
  static int max_radius(const char* method) {
    const filters::BlurMethod* m = filters::find_blur_method(method);
    EXPECT_NE(m, nullptr) << method;
    if (!m) return 0;
    filters::BlurSettings settings;
    settings.method = m;
    const filters::MethodSupport support = m->support(*context_, settings);
    return support.available() ? support.max_radius : 0;
  }
};

}  // namespace filterlab::test
