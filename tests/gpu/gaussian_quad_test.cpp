// GPU tier for the quad-exchange blurs (the window drivers: shaders/filters/common/window_terms.glsl, Zubatov & Shcherbakov
// section 3.1): the exact ones on odd sizes (partial quads at the right and bottom edges); the
// coarse-derivative one measured against the reference; comp.quad_derivative where the device has
// compute derivatives, and its refusal where it does not. Validation on.
#include "gaussian_fixture.h"

#include "graph/executor.h"
#include "runtime/capture.h"
#include "passes/upload_pass.h"
#include "vk/resources.h"

#include <algorithm>
#include <cmath>
#include <memory>

using namespace filterlab;

namespace {

const int kRadii[] = {1, 2, 3, 4, 7, 8, 16, 32};
// Exact methods: fp32 rounding only (the exchanges add one rounding per partial sum).
constexpr double kExactTolerance = 1e-5;
const char* const kExactMethods[] = {"frag.quad_derivative", "comp.quad_subgroup"};

// A second validated context beside the fixture's, with compute-shader derivatives requested.
class GaussianQuad : public test::GaussianFixture {
 protected:
  static void SetUpTestSuite() {
    GaussianFixture::SetUpTestSuite();
    vk::ContextOptions options;
    options.validation = true;
    options.compute_derivatives = true;
    derivatives_context_ = std::make_unique<vk::Context>(options);
  }
  static void TearDownTestSuite() {
    derivatives_context_.reset();
    GaussianFixture::TearDownTestSuite();
  }
  void TearDown() override {
    GaussianFixture::TearDown();
    EXPECT_EQ(derivatives_context_->validation_messages(), 0u);
  }

  static filters::FilterStep step(const std::string& method, int radius, const std::string& extra,
                                  common::KernelType kernel) {
    return blur_step(method, radius, extra, kernel);
  }
  static io::ImageF output(const std::string& method, int radius, const io::ImageF& input,
                           const std::string& extra = ":precision=fp32",
                           common::KernelType kernel = common::KernelType::Gaussian,
                           const vk::Context* context = nullptr) {
    return apply(blur_step(method, radius, extra, kernel), input, context);
  }
  static common::ImageD reference(const io::ImageF& input, int radius,
                                   common::KernelType kernel = common::KernelType::Gaussian) {
    return GaussianFixture::reference(input, blur_step("frag.full2d", radius, "", kernel));
  }

  // The message the family refuses the method with on `context`, or "" when it is built.
  static std::string refusal(const vk::Context& context, const std::string& method) {
    const passes::PassEnv env{context, *shaders_, 1};
    try {
      filters::build_filter(filters::resolve(step(method, 2, "", common::KernelType::Gaussian)), env);
    } catch (const filters::ChainError& e) {
      return e.what();
    }
    return "";
  }

  // Per pixel and channel, dFdxCoarse - dFdxFine and dFdyCoarse - dFdyFine of a random image,
  // from a probe shader: whether this driver's coarse derivatives differ from its fine ones.
  static io::ImageF coarse_minus_fine(const io::ImageF& input) {
    const passes::PassEnv env{*context_, *shaders_, 1};
    vk::GraphicsPipelineDesc desc;
    desc.vertex_shader = "filters/common/fullscreen.vert";
    desc.fragment_shader = "filters/gaussian/frag_quad_coarse_probe.frag";
    desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
    const vk::Pipeline pipeline(*context_, *shaders_, desc);
    graph::RenderGraph graph;
    passes::UploadPass upload(env, input, VK_FORMAT_R32G32B32A32_SFLOAT);
    upload.add_to(graph, "input");
    graph.declare_image("probe", {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::relative_to("input")});
    graph.add_pass("probe", graph::PassKind::Graphics)
        .read("input", graph::Usage::SampledFragment)
        .color_overwrite("probe")
        .execute([&pipeline](graph::PassContext& ctx) {
          ctx.bind(pipeline).sampled(0, "input", graph::Sampling::Nearest).draw(3);
        });
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, {"probe"}, {input.width, input.height});
    vk::OneShotCommands commands(*context_);
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    return graph::to_float_image(executor.read_image("probe"));
  }

  // Asks for compute-shader derivatives, which the suite's context leaves off (as the application
  // does unless told), so both refusals of comp.quad_derivative show.
  static inline std::unique_ptr<vk::Context> derivatives_context_;
};

bool compute_derivatives_on(const vk::Context& context) {
  return context.report().compute_derivatives_enabled;
}

}  // namespace

TEST_F(GaussianQuad, ExactWithPartialQuadsAtOddEdges) {
  // 1 wide or high: the quad is one live pixel and helpers (fragment) or idle lanes (compute)
  // that only stand in for clamped texels.
  for (auto [w, h] : {std::pair{1u, 1u}, {5u, 3u}, {3u, 5u}, {17u, 1u}, {1u, 9u}, {33u, 35u}}) {
    const io::ImageF image = common::random_image(w, h, 4, w * 100 + h);
    for (const char* method : kExactMethods) {
      double worst = 0;
      for (int r : {1, 2, 5, 32}) {
        const common::ErrorStats e = run(method, r, image);
        EXPECT_LE(e.max_abs, kExactTolerance)
            << method << " " << w << "x" << h << " r=" << r << " at " << e.worst_x << "," << e.worst_y;
        worst = std::max(worst, e.max_abs);
      }
      std::printf("%s %ux%u: worst max abs error %.2g over r in {1,2,5,32}\n", method, w, h, worst);
    }
  }
}

TEST_F(GaussianQuad, CoarseDerivativesAreWrongWhereTheDriverMakesThemCoarse) {
  // dFdxCoarse may legally return the fine derivative (GLSL 4.50, 8.14.1); llvmpipe does, so there
  // the method is the fine one. Which case holds is read from a probe shader, not from the
  // method's own output, and each case has its own check: wrong by far where derivatives are
  // coarse, exact where they are not.
  const io::ImageF image = common::random_image(64, 48, 4, 12);
  const io::ImageF probe = coarse_minus_fine(image);
  double probe_max = 0;
  for (float v : probe.pixels) probe_max = std::max(probe_max, std::abs(double(v)));
  const bool coarse_differs = probe_max > 1e-3;  // texels are random in [0,1): differences ~0.3
  std::printf("driver %s: max |coarse - fine derivative| %.3g: coarse derivatives are %s\n",
              context_->report().name.c_str(), probe_max, coarse_differs ? "coarse" : "computed as fine");

  std::printf(
      "frag.quad_derivative_coarse vs reference (the paper's tables 3 and 4):\n"
      "   r    max abs        MSE   out mean   ref mean\n");
  for (int r : kRadii) {
    const io::ImageF out = output("frag.quad_derivative_coarse", r, image);
    const common::ImageD expected = reference(image, r);
    const common::ErrorStats e = common::compare(out, expected);
    // Finite and of the right magnitude: a wrong exchange hands over another pair's partial
    // sums, each a blur of values in [0, 1) with weights that sum to at most 1, so errors stay
    // within a few units (measured on an H200: 1.78 at r = 1, falling with r) and the mean
    // stays the reference's (which drifts with r, as clamp-to-edge weighs the border more).
    double mean_out = 0, mean_ref = 0;
    bool finite = true;
    for (float v : out.pixels) {
      finite = finite && std::isfinite(v);
      mean_out += v;
    }
    for (double v : expected.pixels) mean_ref += v;
    mean_out /= out.pixels.size();
    mean_ref /= expected.pixels.size();
    std::printf("  %2d  %9.3g  %9.3g  %9.4f  %9.4f\n", r, e.max_abs, e.mse, mean_out, mean_ref);
    EXPECT_TRUE(finite) << "r=" << r;
    EXPECT_LE(e.max_abs, 4.0) << "r=" << r;
    EXPECT_NEAR(mean_out, mean_ref, 0.02) << "r=" << r;
    if (coarse_differs)
      EXPECT_GT(e.max_abs, 1e-3) << "r=" << r << ": coarse derivatives should corrupt the exchange";
    else EXPECT_LE(e.max_abs, kExactTolerance) << "r=" << r << ": coarse derivatives computed as fine";
  }
}

TEST_F(GaussianQuad, SubgroupMethodNeedsQuadOperationsInCompute) {
  const vk::DeviceReport& r = context_->report();
  auto has = [](const std::vector<std::string>& list, const char* item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  const bool usable = has(r.subgroup_operations, "quad") && has(r.subgroup_stages, "compute");
  const std::string why = refusal(*context_, "comp.quad_subgroup");
  std::printf("comp.quad_subgroup on %s (subgroup size %u): %s\n", r.name.c_str(), r.subgroup_size,
              why.empty() ? "available" : why.c_str());
  EXPECT_EQ(why.empty(), usable) << why;
}

TEST_F(GaussianQuad, ComputeDerivativesRunWhereEnabledAndAreRefusedWithTheReasonElsewhere) {
  // The default context never enables them: refused, saying why.
  const std::string plain = refusal(*context_, "comp.quad_derivative");
  std::printf("comp.quad_derivative, default context: %s\n", plain.c_str());
  ASSERT_FALSE(compute_derivatives_on(*context_));
  if (context_->report().compute_shader_derivatives)
    EXPECT_NE(plain.find("not enabled: " + context_->report().compute_derivatives_extension),
              std::string::npos)
        << plain;
  else EXPECT_NE(plain.find("device lacks VK_KHR_compute_shader_derivatives"), std::string::npos) << plain;

  const vk::Context& asked = *derivatives_context_;
  const std::string why = refusal(asked, "comp.quad_derivative");
  std::printf("comp.quad_derivative, context asking for compute derivatives: %s\n",
              why.empty() ? ("available through " + asked.report().compute_derivatives_extension).c_str()
                          : why.c_str());
  if (!asked.report().compute_shader_derivatives) {  // lavapipe
    EXPECT_FALSE(compute_derivatives_on(asked));
    EXPECT_NE(why.find("gaussian.comp.quad_derivative is not available: device lacks "
                       "VK_KHR_compute_shader_derivatives"),
              std::string::npos)
        << why;
    return;
  }
  ASSERT_TRUE(compute_derivatives_on(asked));
  ASSERT_EQ(why, "");
  const io::ImageF image = common::random_image(257, 131, 4, 7);
  const io::ImageF tiny = common::random_image(13, 9, 4, 8);
  const io::ImageF line = common::random_image(17, 1, 4, 9);
  std::printf("comp.quad_derivative max abs error, 257x131 / 13x9 / 17x1:");
  for (int r : kRadii) {
    std::printf(" r=%d", r);
    for (const io::ImageF* input : {&image, &tiny, &line}) {
      const common::ErrorStats e =
          run("comp.quad_derivative", r, *input, ":precision=fp32", common::KernelType::Gaussian, &asked);
      EXPECT_LE(e.max_abs, kExactTolerance) << "r=" << r << " " << input->width << "x" << input->height;
      std::printf(" %.2g", e.max_abs);
    }
  }
  std::printf("\n");
  const common::ErrorStats box =
      run("comp.quad_derivative", 8, tiny, ":precision=fp32", common::KernelType::Box, &asked);
  EXPECT_LE(box.max_abs, kExactTolerance) << "box";
  const common::ErrorStats half =
      run("comp.quad_derivative", 3, image, "", common::KernelType::Gaussian, &asked);
  EXPECT_LE(half.max_abs, 2 * std::ldexp(1.0, -11)) << "fp16";
  EXPECT_GT(half.max_abs, 0.0) << "fp16 output cannot be exact";
}
