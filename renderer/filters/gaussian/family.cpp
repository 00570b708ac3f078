#include "filters/gaussian/gaussian_config.h"
#include "filters/gaussian/methods.h"
#include "filters/precision.h"
#include "filters/window_methods.h"
#include "vk/formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>

namespace filterlab::filters::gaussian {

namespace {

// The definition's largest radius: the ideal sigma (boundary weight 1/255) exists while a box of
// 2r+1 taps weighs more than 1/255 a tap, so up to r = 126. Each method serves what it can.
constexpr int kSchemaMaxRadius = 126;

Param radius_param() {
  Param p = integer_param("radius", 1, kSchemaMaxRadius, "2",
                          "the kernel spans 2r+1 pixels each way; each method says how far it serves "
                          "(filterlab methods: 32 for most); wider: bigblur (sigma to 256) or convolve");
  p.unit = "px";
  p.is_size = true;
  return p;
}

Param sigma_param() {
  Param p;
  p.name = "sigma";
  p.type = ParamType::Number;
  p.min = 0.05;
  p.max = 10000;
  p.derived = [](const ParamValues& v) { return common::ideal_sigma(v.integer("radius")); };
  p.derived_text =
      "the ideal sigma for the radius: the sigma at which the normalized kernel's outermost tap weighs "
      "1/255 (of a kernel summing to 1), found by bisection; 1.36 at r = 4";
  p.unit = "px";
  p.help = "the Gaussian's standard deviation (kernel=gaussian only)";
  p.log_scale = true;
  return p;
}

Param kernel_param() {
  Param p;
  p.name = "kernel";
  p.type = ParamType::Choice;
  p.choices = {"gaussian", "box", "binomial"};
  p.fallback = "gaussian";
  p.help = "the 1D kernel whose outer product the filter applies";
  return p;
}

Param roi_param(const char* name, const char* help) {
  Param p;
  p.name = name;
  p.type = ParamType::Region;
  p.help = help;
  p.methods = {"comp.tiled"};
  return p;
}

Param outside_param() {
  Param p;
  p.name = "outside";
  p.type = ParamType::Choice;
  p.choices = {"copy", "poison"};
  p.fallback = "copy";
  p.help = "the pixels outside dst_roi: the input's, or -1024 (to show that nothing is written there)";
  p.methods = {"comp.tiled"};
  return p;
}

// The weights must be finite and non-negative, and the bilinear taps defined: a tiny sigma whose
// weights underflow, say, is bad input, named here rather than failing later in a method.
void check(const ParamValues& v) {
  // A sigma the kernel has no use for was accepted and ignored (issue #54).
  if (v.given("sigma") && v.choice("kernel") != "gaussian")
    throw ChainError("gaussian: sigma is the Gaussian kernel's; kernel=" + v.choice("kernel") + " takes none");
  const common::KernelSpec spec = kernel_spec(v);
  try {
    const std::vector<double> weights = common::kernel_weights(spec);
    for (double w : weights)
      if (!std::isfinite(w)) throw std::invalid_argument("a weight is not finite");
    linear_taps(weights);
  } catch (const std::invalid_argument& e) {
    std::ostringstream text;
    text << "gaussian: sigma " << spec.resolved_sigma() << " at radius " << spec.radius
         << " gives no usable kernel (" << e.what() << ")";
    throw ChainError(text.str());
  }
  const std::optional<common::Roi> src = v.region("src_roi"), dst = v.region("dst_roi");
  if (src.has_value() != dst.has_value())
    throw ChainError(
        "gaussian: src_roi and dst_roi go together (AMD's tiled convolution maps one onto the other)");
  if (src && (src->width != dst->width || src->height != dst->height))
    throw ChainError("gaussian: src_roi and dst_roi must have the same size");
}

}  // namespace

void check_rois_fit(const ParamValues& v, uint32_t width, uint32_t height) {
  for (const char* key : {"src_roi", "dst_roi"}) {
    const std::optional<common::Roi> roi = v.region(key);
    if (roi && !roi->fits_in(width, height))
      throw ChainError(std::string("gaussian: ") + key + " " + common::roi_text(*roi) +
                       " does not fit in the " + std::to_string(width) + "x" + std::to_string(height) +
                       " image");
  }
}

namespace {

io::ImageF crop(const io::ImageF& in, const common::Roi& r) {
  io::ImageF out{r.width, r.height, in.channels, {}};
  out.pixels.reserve(size_t(r.width) * r.height * in.channels);
  for (uint32_t y = r.y; y < r.y + r.height; ++y)
    for (uint32_t x = r.x; x < r.x + r.width; ++x)
      for (uint32_t c = 0; c < in.channels; ++c) out.pixels.push_back(in.at(x, y, c));
  return out;
}

// The separable sum in double, clamp to edge. With ROIs (AMD's semantics): inside dst_roi the
// blur of the source cropped to src_roi (clamped to its edges), outside it the input
// (outside=copy) or TILED_POISON (outside=poison).
common::ImageD reference(const io::ImageF& input, const ParamValues& v) {
  const std::vector<double> weights = common::kernel_weights(kernel_spec(v));
  const std::optional<common::Roi> src = v.region("src_roi"), dst = v.region("dst_roi");
  if (!src) return common::reference_blur(input, weights);
  if (!src->fits_in(input.width, input.height) || !dst->fits_in(input.width, input.height))
    throw std::invalid_argument("gaussian reference: a ROI leaves the image");
  const common::ImageD blurred = common::reference_blur(crop(input, *src), weights);
  const bool poison = v.choice("outside") == "poison";
  common::ImageD out{input.width, input.height, input.channels, {}};
  out.pixels.reserve(input.pixels.size());
  for (uint32_t y = 0; y < input.height; ++y)
    for (uint32_t x = 0; x < input.width; ++x)
      for (uint32_t c = 0; c < input.channels; ++c) {
        const bool inside = x >= dst->x && x < dst->x + dst->width && y >= dst->y && y < dst->y + dst->height;
        out.pixels.push_back(inside   ? blurred.at(x - dst->x, y - dst->y, c)
                             : poison ? TILED_POISON
                                      : double(input.at(x, y, c)));
      }
  return out;
}

// The methods every window family has, from the shared drivers (filters/window_methods.h): the
// kernel as one separable term, w(x) w(y), its weights as specialization constants 1 + k = w(k)
// (shaders/filters/gaussian/gaussian_window.glsl), the same floats as the weights buffer.
std::vector<Method> window_family_methods() {
  WindowFamily w;
  w.shaders = "filters/gaussian/window";
  w.terms = 1;
  w.rows_in_output_format = true;  // weighted means of the input: as exact as the output
  w.max_radius = kDesignMaxRadius;
  w.constants = [](const ParamValues& v, vk::Specialization& constants) {
    const common::KernelSpec spec = kernel_spec(v);
    const std::vector<double> weights = common::kernel_weights(spec);
    for (int k = 0; k <= kDesignMaxRadius; ++k)
      constants.set(GAUSSIAN_WEIGHT_ID(k), k <= spec.radius ? float(weights[spec.radius + k]) : 0.0f);
  };
  // frag.full2d loads them from a buffer instead (gaussian_window.glsl says why).
  w.full2d_data = [](const vk::Context& ctx, const ParamValues& v) {
    return std::move(KernelBuffers(ctx, kernel_spec(v)).weights);
  };
  return window_methods(w);
}

Family make_family() {
  Family f;
  f.name = "gaussian";
  f.description =
      "a linear blur: the outer product of a 1D Gaussian, box or binomial kernel of radius r, clamp-to-edge "
      "border; every method computes the same sum";
  f.params = {radius_param(),
              sigma_param(),
              kernel_param(),
              precision_param(),
              roi_param("src_roi", "the source region read (comp.tiled; with dst_roi, the same size)"),
              roi_param("dst_roi", "the target region written (comp.tiled; with src_roi)"),
              outside_param()};
  for (auto list : {window_family_methods, fragment_methods, compute_methods, tiled_methods})
    for (Method& m : list()) f.methods.push_back(std::move(m));
  // Listed as before the window drivers made some of them: the fragment methods, then compute.
  std::stable_partition(f.methods.begin(), f.methods.end(),
                        [](const Method& m) { return m.stage == Stage::Fragment; });
  f.check = check;
  f.check_extent = check_rois_fit;
  f.reference = reference;
  f.test_points = {"radius=1",
                   "radius=2",
                   "radius=3",
                   "radius=5",
                   "radius=8",
                   "radius=3:kernel=box",
                   "radius=4:kernel=binomial"};
  f.tolerance_fp32 = 1e-5;  // fp32 rounding of a weighted sum of values in [0, 1)
  // The output rounded to half, and for two-pass methods an fp16 intermediate too: 2 half-ulps at 1.
  f.tolerance_fp16 = 2 * std::ldexp(1.0, -11);
  f.tools.quality.baseline = "frag.full2d";
  f.tools.quality.columns = {{"Gaussian", ""}};
  return f;
}

}  // namespace

common::KernelSpec kernel_spec(const ParamValues& params) {
  common::KernelSpec spec;
  spec.type = *common::parse_kernel_type(params.choice("kernel"));
  spec.radius = params.integer("radius");
  if (spec.type == common::KernelType::Gaussian) spec.sigma = params.number("sigma");
  return spec;
}

std::vector<LinearTap> linear_taps(const std::vector<double>& weights) {
  if (weights.size() % 2 == 0 ||
      !std::all_of(weights.begin(), weights.end(), [](double x) { return x >= 0; }))
    throw std::invalid_argument("bilinear taps need 2r+1 weights, all >= 0");
  // (a+b) lerp(t[i], t[i+1], b/(a+b)) = a t[i] + b t[i+1].
  const int r = int(weights.size() / 2);
  std::vector<LinearTap> taps;
  for (int i = -r; i < r; i += 2) {
    const double a = weights[size_t(i + r)], b = weights[size_t(i + r + 1)], sum = a + b;
    taps.push_back({i + (sum > 0 ? b / sum : 0.0), sum});  // both zero (underflow): position irrelevant
  }
  taps.push_back({double(r), weights.back()});
  return taps;
}

KernelBuffers::KernelBuffers(const vk::Context& ctx, const common::KernelSpec& spec) {
  const std::vector<double> w = common::kernel_weights(spec);
  const std::vector<LinearTap> linear = linear_taps(w);
  // The fp32 weights, padded so that the buffer also binds as the std140 uniform block of
  // GAUSSIAN_WEIGHT_VEC4S vec4s (the padding is never read as a weight), then the weights rounded to
  // half, twice in each word (comp.separable_stream_half's packed FMA operands).
  constexpr size_t kBlockFloats = GAUSSIAN_WEIGHT_VEC4S * 4;
  const bool block = spec.radius <= GAUSSIAN_UNIFORM_MAX_RADIUS;
  std::vector<uint32_t> words(block ? 2 * kBlockFloats : w.size(), 0u);
  for (size_t i = 0; i < w.size(); ++i) {
    const float weight = static_cast<float>(w[i]);
    words[i] = std::bit_cast<uint32_t>(weight);
    if (block) {
      const uint32_t half = vk::float_to_half(weight);
      words[kBlockFloats + i] = half | half << 16;
    }
  }
  std::vector<float> t;
  for (const LinearTap& tap : linear) {
    t.push_back(static_cast<float>(tap.offset));
    t.push_back(static_cast<float>(tap.weight));
  }
  weights =
      vk::Buffer::holding(ctx, words, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                          "gaussian weights");
  taps = vk::Buffer::holding(ctx, t, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "gaussian taps");
}

Support up_to_design_radius() {
  return {{}, kDesignMaxRadius};
}

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::gaussian
