#include "filters/blur_filter.h"

#include "filters/blur_methods.h"
#include "vk/formats.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

namespace filterlab::filters {

const std::vector<BlurMethod>& blur_methods() {
  static const std::vector<BlurMethod> methods = [] {
    std::vector<BlurMethod> all;
    for (auto family : {fragment_blur_methods, quad_blur_methods, compute_blur_methods, tiled_blur_methods})
      for (const BlurMethod& m : family()) all.push_back(m);
    return all;
  }();
  return methods;
}

const BlurMethod* find_blur_method(const std::string& name) {
  for (const BlurMethod& m : blur_methods())
    if (name == m.name) return &m;
  return nullptr;
}

MethodSupport always_supported(const vk::Context&, const BlurSettings&) {
  return {};
}

namespace {

bool parse_int(std::string_view text, int& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

BlurSettings parse_blur_settings(const FilterStep& step) {
  BlurSettings s;
  std::string names;
  for (const BlurMethod& m : blur_methods()) names += " " + std::string(m.name);
  if (step.method.empty())
    throw ChainError("filter 'gaussian' needs a method: gaussian.<method> (methods:" + names + ")");
  s.method = find_blur_method(step.method);
  if (!s.method)
    throw ChainError("unknown method '" + step.method + "' for gaussian (methods:" + names + ")");
  for (const auto& [key, value] : step.params) {
    if (key == "radius") {
      int r = 0;
      if (!parse_int(value, r) || r < 1 || r > common::kMaxRadius)
        throw ChainError("radius wants a whole number in 1.." + std::to_string(common::kMaxRadius) + ", got '" +
                         value + "'");
      s.kernel.radius = r;
    } else if (key == "sigma") {
      try {
        size_t used = 0;
        double sigma = std::stod(value, &used);
        if (used != value.size() || !(sigma > 0) || sigma > 1e4) throw std::invalid_argument(value);
        s.kernel.sigma = sigma;
      } catch (const std::exception&) {
        throw ChainError("sigma wants a positive number, got '" + value + "'");
      }
    } else if (key == "kernel") {
      auto type = common::parse_kernel_type(value);
      if (!type) throw ChainError("kernel wants gaussian, box or binomial, got '" + value + "'");
      s.kernel.type = *type;
    } else if (key == "precision") {
      if (value != "fp16" && value != "fp32")
        throw ChainError("precision wants fp16 or fp32, got '" + value + "'");
      s.precision = value == "fp32" ? Precision::Fp32 : Precision::Fp16;
    } else if (key == "src_roi" || key == "dst_roi") {
      std::optional<common::Roi> roi = common::parse_roi(value);
      if (!roi)
        throw ChainError(key + " wants x,y,w,h or WxH+X+Y with w, h >= 1 and x, y >= 0, got '" + value + "'");
      (key == "src_roi" ? s.src_roi : s.dst_roi) = roi;
    } else if (key == "outside") {
      if (value != "copy" && value != "poison")
        throw ChainError("outside wants copy or poison, got '" + value + "'");
      s.poison_outside = value == "poison";
    } else {
      throw ChainError(
          "unknown parameter '" + key +
          "' for gaussian (radius, sigma, kernel, precision; comp.tiled also src_roi, dst_roi, outside)");
    }
  }
  const bool any_roi_param = s.src_roi || s.dst_roi || step.params.count("outside");
  if (any_roi_param && !s.method->takes_roi)
    throw ChainError(std::string("src_roi, dst_roi and outside are for comp.tiled, not ") + s.method->name);
  if (s.src_roi.has_value() != s.dst_roi.has_value())
    throw ChainError("src_roi and dst_roi go together (AMD's tiled convolution maps one onto the other)");
  if (s.src_roi && (s.src_roi->width != s.dst_roi->width || s.src_roi->height != s.dst_roi->height))
    throw ChainError("src_roi and dst_roi must have the same size");
  return s;
}

BlurFilter::BlurFilter(const passes::PassEnv& env, const BlurSettings& settings)
    : env_(env), settings_(settings) {
  const MethodSupport support = settings.method->support(env.vk, settings);
  if (!support.available())
    throw ChainError(std::string(settings.method->name) + " is not available: " + support.reason);
  if (settings.kernel.radius > support.max_radius)
    throw ChainError(std::string(settings.method->name) + " serves radius up to " +
                     std::to_string(support.max_radius) + " on this device, not " +
                     std::to_string(settings.kernel.radius));

  const std::vector<double> weights = common::kernel_weights(settings.kernel);
  const std::vector<common::LinearTap> taps = common::linear_taps(weights);
  // 32-bit words: the fp32 weights, padded to the largest kernel so the same buffer also binds as a
  // std140 uniform block of vec4s (comp.tiled reads its weights as uniform operands; the padding is
  // never read as a weight), then the weights rounded to half, twice in each word
  // (comp.separable_stream_half's packed FMA operands).
  std::vector<uint32_t> w(2 * kWeightBufferFloats, 0u);
  for (size_t i = 0; i < weights.size(); ++i) {
    const float weight = static_cast<float>(weights[i]);
    const uint32_t half = vk::float_to_half(weight);
    w[i] = std::bit_cast<uint32_t>(weight);
    w[kWeightBufferFloats + i] = half | half << 16;
  }
  std::vector<float> t;
  for (const common::LinearTap& tap : taps) {
    t.push_back(static_cast<float>(tap.offset));
    t.push_back(static_cast<float>(tap.weight));
  }
  weights_ = vk::Buffer(env.vk, w.size() * 4,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true,
                        "blur weights");
  std::memcpy(weights_.mapped(), w.data(), w.size() * 4);
  taps_ = vk::Buffer(env.vk, t.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "blur taps");
  std::memcpy(taps_.mapped(), t.data(), t.size() * 4);
  passes_ = settings.method->create(BlurEnv{env_, settings_, weights_, taps_});
}

BlurFilter::~BlurFilter() = default;

std::string BlurFilter::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) {
  return passes_->add_to(graph, input, name);
}

}  // namespace filterlab::filters
