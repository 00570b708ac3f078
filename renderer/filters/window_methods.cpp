#include "filters/window_methods.h"

#include "filters/common/window_config.h"
#include "filters/device_checks.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <algorithm>

namespace filterlab::filters {
namespace {

constexpr uint32_t kVec4Bytes = 16;
constexpr uint32_t kPreferredSharedBytes = 32 * 1024;

// comp.full2d_shared: a (16 + 2r)^2 tile of vec4.
uint32_t shared_tile_bytes(int r) {
  const uint32_t side = WINDOW_SHARED_GROUP + 2 * uint32_t(r);
  return side * side * kVec4Bytes;
}

// comp.separable_shared: (8K + 2r) rows of 32 sums of acc_vec4s vec4s.
uint32_t separable_bytes(int r, uint32_t k, uint32_t acc_vec4s) {
  return (WINDOW_SEPARABLE_GROUP_Y * k + 2 * uint32_t(r)) * WINDOW_SEPARABLE_GROUP_X * acc_vec4s * kVec4Bytes;
}

// K, the outputs down a column per thread: the largest of 4, 2, 1 that fits `budget`; 0 if none.
uint32_t separable_k(int r, uint32_t acc_vec4s, uint32_t budget) {
  for (uint32_t k = WINDOW_SEPARABLE_MAX_K; k >= 1; k /= 2)
    if (separable_bytes(r, k, acc_vec4s) <= budget) return k;
  return 0;
}

int largest_radius(int schema_max, const std::function<bool(int)>& fits) {
  int largest = 0;
  for (int r = 1; r <= schema_max && fits(r); ++r) largest = r;
  return largest;
}

struct MethodInfo {
  const char* name;
  Stage stage;
  bool exact;
  const char* variant;  // of the family's .frag, or of its .comp before ".fp16"/".fp32"
  const char* description;
};

MethodInfo info(WindowMethod which) {
  switch (which) {
    case WindowMethod::Full2d:
      return {"frag.full2d", Stage::Fragment, true, "full2d", "the default: (2r+1)^2 fetches per pixel"};
    case WindowMethod::QuadFine:
      return {"frag.quad_derivative", Stage::Fragment, true, "fine",
              "(r+1)^2 fetches, partial sums passed round the 2x2 quad through fine derivatives"};
    case WindowMethod::QuadCoarse:
      return {"frag.quad_derivative_coarse", Stage::Fragment, false, "coarse",
              "as frag.quad_derivative with coarse derivatives: wrong by design (the paper's tables 3, 4)"};
    case WindowMethod::Shared:
      return {"comp.full2d_shared", Stage::Compute, true, "shared",
              "16x16 threads, the tile and an apron of r in shared memory, (2r+1)^2 reads from it"};
    case WindowMethod::QuadSubgroup:
      return {"comp.quad_subgroup", Stage::Compute, true, "subgroup",
              "(r+1)^2 fetches, partial sums passed round the quad by subgroup quad swaps"};
    case WindowMethod::QuadDerivative:
      return {"comp.quad_derivative", Stage::Compute, true, "derivative",
              "(r+1)^2 fetches, partial sums passed round the quad through compute-shader derivatives"};
    case WindowMethod::Separable:
      return {"comp.separable_shared", Stage::Compute, true, "separable",
              "row sums of a 32-wide tile staged in shared memory, then column sums: 2(2r+1) terms"};
  }
  return {};
}

class WindowFilter : public Filter {
 public:
  WindowFilter(const FilterEnv& env, const WindowFamily& family, WindowMethod which)
      : env_(env.pass_env), which_(which), format_(precision_format(env.params)) {
    const MethodInfo m = info(which);
    stage_ = m.stage;
    shader_ = m.stage == Stage::Fragment
                  ? family.shaders + ".frag#" + m.variant
                  : family.shaders + ".comp#" + m.variant + "." + precision_variant(format_);
    const int radius = env.params.integer("radius");
    spec_ = {uint32_t(radius)};
    for (uint32_t word : family.constants(env.params)) spec_.push_back(word);
    if (which == WindowMethod::Separable) {
      k_ = separable_k(radius, family.acc_vec4s,
                       std::min(kPreferredSharedBytes, env.pass_env.vk.report().max_compute_shared_memory));
      if (k_ == 0) k_ = 1;  // the method's support admitted the radius on this device
      spec_.resize(WINDOW_SEPARABLE_K_ID + 1, 0);
      spec_[WINDOW_SEPARABLE_K_ID] = k_;
    }
    outputs_ = family.outputs ? family.outputs(env.params) : std::vector<std::string>{""};
    continuing_ = family.continuing ? family.continuing(env.params) : 0;
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    for (const std::string& suffix : outputs_)
      graph.declare_image(name + suffix, {format_, graph::SizeRule::relative_to(inputs.color)});
    const std::string first = name + outputs_[0];
    if (stage_ == Stage::Fragment) {
      passes::SimplePass pass(env_, name, passes::FragmentShader{shader_, format_, spec_});
      pass.sample(BINDING_SOURCE, inputs.color);
      for (const std::string& suffix : outputs_) pass.color(name + suffix);
      pass.add_to(graph);
    } else {
      passes::SimplePass pass(env_, name, passes::ComputeShader{shader_, spec_});
      pass.sample(BINDING_SOURCE, inputs.color);
      pass.store(BINDING_DESTINATION, first);
      if (outputs_.size() > 1) pass.store(BINDING_DESTINATION_2, name + outputs_[1]);
      switch (which_) {
        case WindowMethod::Shared: pass.dispatch_over(first, WINDOW_SHARED_GROUP, WINDOW_SHARED_GROUP); break;
        case WindowMethod::Separable:
          pass.dispatch_over(first, WINDOW_SEPARABLE_GROUP_X, WINDOW_SEPARABLE_GROUP_Y * k_);
          break;
        default: pass.dispatch_over(first, WINDOW_QUAD_GROUP, WINDOW_QUAD_GROUP); break;
      }
      pass.add_to(graph);
    }
    // The step's own name is the image that continues the chain (an alias where it has a suffix).
    const std::string& suffix = outputs_.at(continuing_);
    if (!suffix.empty()) graph.alias_image(name, name + suffix);
    return name;
  }

 private:
  passes::PassEnv env_;
  WindowMethod which_;
  VkFormat format_;
  Stage stage_ = Stage::Fragment;
  std::string shader_;
  std::vector<uint32_t> spec_;
  uint32_t k_ = 1;
  std::vector<std::string> outputs_;
  size_t continuing_ = 0;
};

MethodCost cost(WindowMethod which, const ParamValues& v) {
  const double r = v.integer("radius"), n = (2 * r + 1) * (2 * r + 1);
  switch (which) {
    case WindowMethod::Full2d: return {n};
    case WindowMethod::Shared: {
      const double side = WINDOW_SHARED_GROUP + 2 * r, tile = WINDOW_SHARED_GROUP * WINDOW_SHARED_GROUP;
      return {side * side / tile, n, side * side / tile};
    }
    case WindowMethod::Separable: {
      const double k = WINDOW_SEPARABLE_MAX_K, rows = WINDOW_SEPARABLE_GROUP_Y * k;
      const double run = WINDOW_SEPARABLE_RUN;
      return {(rows + 2 * r) / rows * (2 * r + run) / run, (2 * r + k) / k, (rows + 2 * r) / rows};
    }
    default: return {(r + 1) * (r + 1)};  // the quad methods: the exchanges are not memory traffic
  }
}

}  // namespace

Method window_method(const WindowFamily& family, WindowMethod which) {
  const MethodInfo i = info(which);
  Method m;
  m.name = i.name;
  m.stage = i.stage;
  m.exact = i.exact;
  m.description = i.description;
  m.cost = [which](const ParamValues& v) { return cost(which, v); };
  const int schema_max = family.max_radius;
  const uint32_t acc = family.acc_vec4s;
  const auto not_separable = family.not_separable;
  m.support = [which, schema_max, acc, not_separable](const vk::Context& device,
                                                      const ParamValues& v) -> Support {
    const Support everywhere{{}, {{"radius", double(schema_max)}}};
    const uint32_t shared = device.report().max_compute_shared_memory;
    switch (which) {
      case WindowMethod::Shared:
        return shared_memory_support(
            device, largest_radius(schema_max, [&](int r) { return shared_tile_bytes(r) <= shared; }),
            WINDOW_SHARED_GROUP * WINDOW_SHARED_GROUP, shared_tile_bytes(1));
      case WindowMethod::Separable: {
        if (not_separable) {
          const std::string why = not_separable(v);
          if (!why.empty()) return {why};
        }
        return shared_memory_support(
            device, largest_radius(schema_max, [&](int r) { return separable_k(r, acc, shared) > 0; }),
            WINDOW_SEPARABLE_GROUP_X * WINDOW_SEPARABLE_GROUP_Y, separable_bytes(1, 1, acc));
      }
      case WindowMethod::QuadSubgroup: {
        const Support s = subgroup_quads_in_compute(device, WINDOW_QUAD_GROUP * WINDOW_QUAD_GROUP);
        return s.available() ? everywhere : s;
      }
      case WindowMethod::QuadDerivative: {
        const Support s = compute_derivatives(device);
        return s.available() ? everywhere : s;
      }
      default: return everywhere;
    }
  };
  m.create = [family, which](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<WindowFilter>(env, family, which);
  };
  return m;
}

Param window_radius_param(int max_radius, int fallback) {
  Param p;
  p.name = "radius";
  p.type = ParamType::Integer;
  p.min = 1;
  p.max = max_radius;
  p.fallback = std::to_string(fallback);
  p.unit = "px";
  p.help = "the window spans 2r+1 pixels each way; each method says how far it serves";
  return p;
}

common::ImageD window_reference(const io::ImageF& input, int radius, const WindowFunction& window) {
  const uint32_t channels = std::min(input.channels, 4u);
  common::ImageD out{input.width, input.height, input.channels, {}};
  out.pixels.assign(size_t(input.width) * input.height * input.channels, 0.0);
  const int side = 2 * radius + 1;
  std::vector<std::array<double, 4>> values(size_t(side) * side);
  const int w = int(input.width), h = int(input.height);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      for (int j = -radius; j <= radius; ++j)
        for (int i = -radius; i <= radius; ++i) {
          std::array<double, 4>& v = values[size_t(j + radius) * side + (i + radius)];
          v = {0, 0, 0, 0};
          const uint32_t cx = uint32_t(std::clamp(x + i, 0, w - 1)),
                         cy = uint32_t(std::clamp(y + j, 0, h - 1));
          for (uint32_t c = 0; c < channels; ++c) v[c] = input.at(cx, cy, c);
        }
      std::array<double, 4> result{};
      window(values, radius, result);
      for (uint32_t c = 0; c < channels; ++c)
        out.pixels[(size_t(y) * input.width + x) * input.channels + c] = result[c];
    }
  return out;
}

std::vector<Method> window_methods(const WindowFamily& family) {
  std::vector<Method> methods;
  for (WindowMethod w : {WindowMethod::Full2d, WindowMethod::QuadFine, WindowMethod::QuadCoarse,
                         WindowMethod::Shared, WindowMethod::QuadSubgroup, WindowMethod::QuadDerivative})
    methods.push_back(window_method(family, w));
  return methods;
}

}  // namespace filterlab::filters
