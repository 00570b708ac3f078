#include "filters/blur_filter.h"

#include "graph/executor.h"

#include <charconv>
#include <cstring>

namespace filterlab::filters {

const std::vector<BlurMethod>& blur_methods() {
  static const std::vector<BlurMethod> methods = {
      {"frag.full2d", "fragment", true, 1, fetches_full2d, "(2r+1)^2 fetches per pixel"},
      {"frag.separable", "fragment", true, 2, fetches_separable, "horizontal then vertical, 2r+1 fetches each"},
      {"frag.separable_linear", "fragment", false, 2, fetches_separable_linear,
       "separable with bilinear fetches, r+1 per pass"},
      {"frag.full2d_linear", "fragment", false, 1, fetches_full2d_linear, "2D bilinear fetches, (r+1)^2"},
  };
  return methods;
}

BlurSettings parse_blur_settings(const FilterStep& step) {
  BlurSettings s;
  std::string names;
  for (const BlurMethod& m : blur_methods()) {
    names += " " + std::string(m.name);
    if (step.method == m.name) s.method = &m;
  }
  if (step.method.empty()) throw ChainError("filter 'gaussian' needs a method: gaussian.<method> (methods:" + names + ")");
  if (!s.method) throw ChainError("unknown method '" + step.method + "' for gaussian (methods:" + names + ")");
  for (const auto& [key, value] : step.params) {
    if (key == "radius") {
      int r = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), r);
      if (ec != std::errc() || end != value.data() + value.size() || r < 1 || r > kMaxRadius)
        throw ChainError("radius wants a whole number in 1.." + std::to_string(kMaxRadius) + ", got '" + value + "'");
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
      auto type = parse_kernel_type(value);
      if (!type) throw ChainError("kernel wants gaussian, box or binomial, got '" + value + "'");
      s.kernel.type = *type;
    } else if (key == "precision") {
      if (value != "fp16" && value != "fp32") throw ChainError("precision wants fp16 or fp32, got '" + value + "'");
      s.precision = value == "fp32" ? Precision::Fp32 : Precision::Fp16;
    } else {
      throw ChainError("unknown parameter '" + key + "' for gaussian (radius, sigma, kernel, precision)");
    }
  }
  return s;
}

BlurFilter::BlurFilter(const passes::PassEnv& env, const BlurSettings& settings) : env_(env), settings_(settings) {
  const std::vector<double> weights = kernel_weights(settings.kernel);
  const std::vector<LinearTap> taps = linear_taps(weights);
  std::vector<float> w(weights.begin(), weights.end());
  std::vector<float> t;
  for (const LinearTap& tap : taps) {
    t.push_back(static_cast<float>(tap.offset));
    t.push_back(static_cast<float>(tap.weight));
  }
  weights_ = vk::Buffer(env.vk, w.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "blur weights");
  std::memcpy(weights_.mapped(), w.data(), w.size() * 4);
  taps_ = vk::Buffer(env.vk, t.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "blur taps");
  std::memcpy(taps_.mapped(), t.data(), t.size() * 4);

  const std::string method = settings.method->name;
  if (method == "frag.full2d") pipelines_.push_back(make_pipeline("frag_full2d.frag", 0));
  else if (method == "frag.full2d_linear") pipelines_.push_back(make_pipeline("frag_full2d_linear.frag", 0));
  else if (method == "frag.separable" || method == "frag.separable_linear") {
    const std::string shader = method == "frag.separable" ? "frag_separable.frag" : "frag_separable_linear.frag";
    pipelines_.push_back(make_pipeline(shader, 0));  // horizontal
    pipelines_.push_back(make_pipeline(shader, 1));  // vertical
  }
}

std::unique_ptr<vk::Pipeline> BlurFilter::make_pipeline(const std::string& shader, uint32_t extra_constant) {
  vk::GraphicsPipelineDesc desc;
  desc.vertex_shader = "filters/fullscreen.vert";
  desc.fragment_shader = "filters/blur/" + shader;
  desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  desc.color_formats = {settings_.format()};
  desc.specialization = {static_cast<uint32_t>(settings_.kernel.radius), extra_constant};
  return std::make_unique<vk::Pipeline>(env_.vk, env_.shaders, desc);
}

std::string BlurFilter::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) {
  const graph::Filter sampling = settings_.method->exact ? graph::Filter::Nearest : graph::Filter::Linear;
  auto add_fragment_pass = [&](const std::string& pass, const std::string& from, const vk::Pipeline* pipeline) {
    graph.declare_image(pass, {settings_.format(), graph::SizeRule::relative_to(input)});
    graph.add_pass(pass, graph::PassKind::Graphics)
        .read(from, graph::Usage::SampledFragment)
        .color_overwrite(pass)
        .execute([this, from, pipeline, sampling](graph::PassContext& ctx) {
          ctx.bind(*pipeline).sampled(0, from, sampling).storage_buffer(1, weights_).storage_buffer(2, taps_).draw(3);
        });
  };
  if (pipelines_.size() == 2) {
    add_fragment_pass(name + ".horizontal", input, pipelines_[0].get());
    add_fragment_pass(name, name + ".horizontal", pipelines_[1].get());
  } else {
    add_fragment_pass(name, input, pipelines_[0].get());
  }
  return name;
}

}  // namespace filterlab::filters
