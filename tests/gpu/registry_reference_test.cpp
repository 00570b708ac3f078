// tier: smoke
// GPU tier, from the registry: every method of every registered family against its family's
// double-precision CPU reference (same definition, clamp-to-edge border), at each of the family's
// test points, on random images of odd sizes (257x131, 13x9 and 1x1), on images with what noise
// lacks (a photograph cropped to 131x97, from scikit-image's data as Debian installs it, and
// common::structured_image's flat regions, steps, ramp and alpha edges at 67x45) and on the HDR scene,
// in fp32 and fp16, and at the method's largest parameter on 13x9. A method is in this test from the moment
// it is registered: nothing here names one. Validation on, with synchronization validation.
//
// Bounds: an exact method is held to its family's tolerance_fp32 / tolerance_fp16 (max |error|
// for inputs in [0, 1); on the scene, relative to its largest value); an approximate one to its own
// bound_fp32 / bound_fp16; one with no bound (wrong by design) is skipped, saying so. A family whose
// definition takes hard decisions (filters::Decisions) has the pixels the reference decided within
// rounding left out of the bound, and at most its stated fraction of them.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/chain.h"
#include "io/image_io.h"
#include "vk/formats.h"
#include "vk/pipeline_library.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

using namespace filterlab;

namespace {

// A photograph with flat regions (68% of its 3x3 windows) beside edges: astronaut.png's lower right,
// cropped to an odd size. RGB as stored, alpha 1.
io::ImageF photograph() {
  const std::filesystem::path file = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
  const io::ImageU8 png = io::read_png(file);  // RGBA8
  constexpr uint32_t kX = 304, kY = 400, kWidth = 131, kHeight = 97;
  io::ImageF crop{kWidth, kHeight, 4, std::vector<float>(size_t(kWidth) * kHeight * 4)};
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x)
      for (uint32_t c = 0; c < 4; ++c)
        crop.pixels[(size_t(y) * kWidth + x) * 4 + c] =
            c == 3 ? 1.0f : float(png.rgba[(size_t(kY + y) * png.width + kX + x) * 4 + c]) / 255.0f;
  return crop;
}

struct Case {
  const filters::Family* family;
  const filters::Method* method;
};

// The test's name in ctest's list: "gaussian.comp.tiled", not the bytes of the pointers.
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.family->name << "." << c.method->name;
}

std::vector<Case> every_method() {
  std::vector<Case> cases;
  for (const filters::Family* f : filters::registry().families())
    for (const filters::Method& m : f->methods) cases.push_back({f, &m});
  return cases;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.family->name + "_" + info.param.method->name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// The raw `key=value` pairs of a test point ("radius=3:kernel=box"), plus the precision.
std::vector<filters::RawParam> point_params(const filters::Family& family, const std::string& point,
                                            const std::string& precision) {
  std::vector<filters::RawParam> params;
  std::istringstream items(point);
  for (std::string item; std::getline(items, item, ':');)
    if (!item.empty()) params.emplace_back(item.substr(0, item.find('=')), item.substr(item.find('=') + 1));
  if (family.param("precision")) params.emplace_back("precision", precision);
  return params;
}

class RegistryReference : public test::ValidatedSuite, public testing::WithParamInterface<Case> {
 protected:
  // As the application asks for it: compute-shader derivatives where the device has them.
  static void SetUpTestSuite() { set_up(true); }

  // fp16 inputs hold half values already, so that the reference sees what the GPU reads.
  static io::ImageF rounded(io::ImageF image, const std::string& precision) {
    if (precision == "fp16")
      for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
    return image;
  }

  static std::optional<double> bound(const Case& c, const std::string& precision) {
    if (c.method->exact) return precision == "fp16" ? c.family->tolerance_fp16 : c.family->tolerance_fp32;
    return precision == "fp16" ? c.method->bound_fp16 : c.method->bound_fp32;
  }

  // An exact method's bound for this step: the family's own for its parameters, where it has one.
  static double step_bound(const Case& c, const filters::ResolvedStep& step, double bound) {
    if (!c.method->exact || !c.family->tolerance_for) return bound;
    const bool fp16 = c.family->param("precision") && step.params.choice("precision") == "fp16";
    return c.family->tolerance_for(step.params, fp16);
  }

  // Runs the step on every input and holds each output to `bound` times the input's scale.
  // Returns false (and says why) when the device does not run the step.
  bool check(const Case& c, const filters::FilterStep& step, const std::vector<io::ImageF>& inputs,
             const std::vector<double>& scales, double limit, const std::string& what) {
    const filters::ResolvedStep resolved = filters::resolve(step);
    try {
      filters::check_support(resolved, *context_);
    } catch (const filters::ChainError& e) {
      std::printf("  not here: %s (%s)\n", step.text.c_str(), e.what());
      return false;
    }
    vk::PipelineLibrary library(*context_, *shaders_, {1, std::chrono::milliseconds(0), false});
    const passes::PassEnv env{*context_, *shaders_, 1, &library};
    const std::vector<io::ImageF> outputs = filters::apply_to_each(env, inputs, step);
    // A step asked for fp16 stores halves: a method that ignored the precision would pass the
    // bounds below, not this.
    const bool half = resolved.family->param("precision") && resolved.params.choice("precision") == "fp16";
    for (size_t i = 0; half && i < outputs.size(); ++i) {
      size_t not_half = 0;
      for (float v : outputs[i].pixels) not_half += vk::half_to_float(vk::float_to_half(v)) != v;
      EXPECT_EQ(not_half, 0u) << step.text << " on " << inputs[i].width << "x" << inputs[i].height << " "
                              << what << ": values that are not halves";
    }
    limit = step_bound(c, resolved, limit);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const common::ImageD expected = c.family->reference(inputs[i], resolved.params);
      const std::vector<bool> undecided = undecided_pixels(c, inputs[i], resolved, what);
      const common::ErrorStats e = undecided.empty() ? common::compare(outputs[i], expected)
                                                     : compare_decided(outputs[i], expected, undecided);
      // A bound met exactly (a half output 2 half-ulps off on a flat region at 0.99) can read 1e-16
      // over it: the double reference's own rounding (its weights sum to 1 within 1e-16), not the
      // method's. That much, relative, is allowed: nothing a method could hide in.
      EXPECT_LE(e.max_abs, limit * scales[i] * (1 + 1e-12))
          << step.text << " on " << inputs[i].width << "x" << inputs[i].height << " " << what << ": worst at "
          << e.worst_x << "," << e.worst_y << " channel " << e.worst_c;
    }
    return true;
  }

  // A family with hard decisions (filters::Decisions): the pixels whose reference took one within
  // its epsilon, where the GPU may decide otherwise; none for other families. Fails if they are
  // more than the family's fraction of the image, so that leaving them out cannot hide a method
  // that decides wrongly everywhere.
  static std::vector<bool> undecided_pixels(const Case& c, const io::ImageF& input,
                                            const filters::ResolvedStep& step, const std::string& what) {
    if (!c.family->decisions) return {};
    const filters::Decisions& d = *c.family->decisions;
    const std::vector<double> margins = d.margins(input, step.params);
    EXPECT_EQ(margins.size(), size_t(input.width) * input.height);
    std::vector<bool> undecided(margins.size());
    size_t count = 0;
    for (size_t p = 0; p < margins.size(); ++p) count += undecided[p] = margins[p] < d.epsilon;
    EXPECT_LE(double(count), d.max_fraction * double(margins.size()))
        << step.params.spec() << " on " << input.width << "x" << input.height << " " << what << ": " << count
        << " pixels within " << d.epsilon << " of a decision";
    std::printf("  %s %ux%u %s: %zu of %zu pixels within %g of a decision, left out\n",
                step.params.spec().c_str(), input.width, input.height, what.c_str(), count, margins.size(),
                d.epsilon);
    return undecided;
  }

  // common::compare over the pixels not left out.
  static common::ErrorStats compare_decided(const io::ImageF& actual, const common::ImageD& expected,
                                            const std::vector<bool>& undecided) {
    common::ErrorStats e;
    const uint32_t channels = std::min(actual.channels, expected.channels);
    for (uint32_t y = 0; y < actual.height; ++y)
      for (uint32_t x = 0; x < actual.width; ++x) {
        if (undecided[size_t(y) * actual.width + x]) continue;
        for (uint32_t ch = 0; ch < channels; ++ch) {
          const double d = std::abs(double(actual.at(x, y, ch)) - expected.at(x, y, ch));
          if (!(d <= e.max_abs)) e = {std::isnan(d) ? INFINITY : d, 0, x, y, ch};
        }
      }
    return e;
  }

  static std::string spec(const filters::FilterStep& step) { return filters::step_spec(step); }

  static filters::FilterStep make_step(const Case& c, std::vector<filters::RawParam> params) {
    filters::FilterStep step{c.family->name, c.method->name, std::move(params), ""};
    step.text = filters::step_spec(step);
    return step;
  }
};

TEST_P(RegistryReference, MatchesTheFamilyReference) {
  const Case c = GetParam();
  // A still image has no depth or motion: a family that reads the scene's is tested on the scene,
  // by its own test (tests/gpu/taa_test.cpp).
  if (c.family->needs(filters::Input::Depth) || c.family->needs(filters::Input::Motion) ||
      c.method->needs(filters::Input::Depth) || c.method->needs(filters::Input::Motion))
    GTEST_SKIP() << c.family->name << "." << c.method->name
                 << " reads the scene's depth and motion: tested on the scene by its own test";
  const io::ImageF random = common::random_image(257, 131, 4, 7), small = common::random_image(13, 9, 4, 8),
                   one = common::random_image(1, 1, 4, 9);
  const io::ImageF photo = photograph(), structured = common::structured_image(67, 45);
  auto scene_run = test::validated_run(160, 90);
  scene_run.read_images = {"scene"};
  const io::ImageF scene = runtime::run_headless(scene_run).images.at("scene");
  const double scene_max =
      std::max({io::channel_max(scene, 0), io::channel_max(scene, 1), io::channel_max(scene, 2)});
  ASSERT_GT(scene_max, 4.0) << "the scene is HDR";
  // Rounding scales with the values: the bounds for [0, 1) hold times the binade of the largest.
  const double scene_scale = std::exp2(std::ceil(std::log2(scene_max)));

  int checked = 0;
  for (const char* precision : {"fp32", "fp16"}) {
    if (!c.family->param("precision") && std::string(precision) == "fp16") continue;
    const std::optional<double> limit = bound(c, precision);
    if (!limit) {
      std::printf("  %s.%s states no bound in %s (wrong by design, or not served): tested apart\n",
                  c.family->name.c_str(), c.method->name.c_str(), precision);
      continue;
    }
    const std::vector<io::ImageF> inputs = {rounded(random, precision),     rounded(small, precision),
                                            rounded(one, precision),        rounded(photo, precision),
                                            rounded(structured, precision), rounded(scene, precision)};
    for (const std::string& point : c.family->test_points)
      checked += check(c, make_step(c, point_params(*c.family, point, precision)), inputs,
                       {1.0, 1.0, 1.0, 1.0, 1.0, scene_scale}, *limit, precision);

    // The method's largest size (its radius) where the device limits it, on the small image only.
    const filters::ResolvedStep defaults =
        filters::resolve(make_step(c, point_params(*c.family, "", precision)));
    const filters::Support support = filters::device_support(defaults, *context_);
    if (support.max_size) {
      const std::string& name = c.family->size_param()->name;
      std::vector<filters::RawParam> params = point_params(*c.family, "", precision);
      params.emplace_back(name, std::to_string(*support.max_size));
      checked += check(c, make_step(c, params), {rounded(small, precision)}, {1.0}, *limit,
                       std::string(precision) + ", largest " + name);
    }
  }
  if (checked == 0) GTEST_SKIP() << "the device runs no point of " << c.method->name;
}

INSTANTIATE_TEST_SUITE_P(Registry, RegistryReference, testing::ValuesIn(every_method()), case_name);

}  // namespace
