#pragma once
// The fixture the gaussian family's own tests derive from: a validated context per suite
// (ValidatedSuite) and the step -> GPU -> compare-with-the-family's-reference loop. Every method's
// exactness at the family's test points is checked for all families in registry_reference_test.cpp;
// these suites test what is particular to one method (tiles, ROIs, quads, half arithmetic).
#include "gpu_test_util.h"

#include "common/kernel.h"
#include "common/reference.h"
#include "filters/apply.h"
#include "filters/chain.h"

#include <memory>

namespace filterlab::test {

class GaussianFixture : public ValidatedSuite {
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

  // The family's reference for the step's parameters.
  static common::ImageD reference(const io::ImageF& input, const filters::FilterStep& step) {
    const filters::ResolvedStep resolved = filters::resolve(step);
    return resolved.family->reference(input, resolved.params);
  }

  // The method's output against the reference of the same parameters.
  static common::ErrorStats run(const std::string& method, int radius, const io::ImageF& input,
                                const std::string& extra = ":precision=fp32",
                                common::KernelType kernel = common::KernelType::Gaussian,
                                const vk::Context* context = nullptr) {
    const filters::FilterStep step = blur_step(method, radius, extra, kernel);
    return common::compare(apply(step, input, context), reference(input, step));
  }

  // The radius up to which this device serves `method` (in `precision`), or 0 when it is unavailable.
  static int max_radius(const char* method, const char* precision = "fp16",
                        const vk::Context* context = nullptr) {
    const filters::ResolvedStep step =
        filters::resolve(blur_step(method, 1, std::string(":precision=") + precision));
    const filters::Support support = filters::device_support(step, context ? *context : *context_);
    return support.available() ? support.max_size.value() : 0;
  }
};

}  // namespace filterlab::test
