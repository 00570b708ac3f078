#include "filters/window_methods.h"

#include "filters/device_checks.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <algorithm>
#include <stdexcept>

namespace filterlab::filters {
namespace {

constexpr uint32_t kVec4Bytes = 16;
constexpr uint32_t kPreferredSharedBytes = 32 * 1024;

// comp.full2d_shared: a (16 + 2r) x (16K + 2r) tile of vec4.
uint32_t shared_tile_bytes(int r, uint32_t k = 1) {
  return (WINDOW_SHARED_GROUP + 2 * uint32_t(r)) * (WINDOW_SHARED_GROUP * k + 2 * uint32_t(r)) * kVec4Bytes;
}

// Its K, outputs down a column per thread: 1, or for a window of separable terms the largest of
// 4, 2, 1 whose tile fits the 32 KiB common devices offer (at 1 the device's limit caps r).
uint32_t shared_k(int r, bool terms) {
  uint32_t k = terms ? WINDOW_SHARED_MAX_K : 1;
  while (k > 1 && shared_tile_bytes(r, k) > kPreferredSharedBytes) k /= 2;
  return k;
}

// The two passes of a window of separable terms: line segments of vec4, the rows' skewed.
uint32_t rows_pass_bytes(int r) {
  const uint32_t segment = WINDOW_ROWS_GROUP_X * WINDOW_LINE_K + 2 * uint32_t(r);
  return WINDOW_ROWS_GROUP_Y * (segment + segment / WINDOW_LINE_K + 1) * kVec4Bytes;
}
uint32_t columns_pass_bytes(int r) {
  return (WINDOW_COLUMNS_GROUP * WINDOW_LINE_K + 2 * uint32_t(r)) * WINDOW_COLUMNS_GROUP * kVec4Bytes;
}
uint32_t line_passes_bytes(int r) {
  return std::max(rows_pass_bytes(r), columns_pass_bytes(r));
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

}  // namespace

WindowMethodInfo window_method_info(WindowMethod which) {
  switch (which) {
    case WindowMethod::Full2d:
      return {"frag.full2d", Stage::Fragment, true, "full2d",
              "every texel of the window: (2r+1)^2 fetches per pixel, the reference"};
    case WindowMethod::QuadFine:
      return {"frag.quad_derivative", Stage::Fragment, true, "fine",
              "(r+1)^2 fetches, partial sums passed round the 2x2 quad through fine derivatives"};
    case WindowMethod::QuadCoarse:
      return {"frag.quad_derivative_coarse", Stage::Fragment, false, "coarse",
              "as frag.quad_derivative with coarse derivatives: wrong by design (the paper's tables 3, 4)"};
    case WindowMethod::Shared:
      return {"comp.full2d_shared", Stage::Compute, true, "shared",
              "16x16 threads, the tile and an apron of r in shared memory, (2r+1)^2 reads from it "
              "(a kernel of separable terms: 16x64 outputs per group to r = 5, 16x32 to r = 10, "
              "then 16x16, each cached row summed once for 4, 2 or 1 outputs)"};
    case WindowMethod::QuadSubgroup:
      return {"comp.quad_subgroup", Stage::Compute, true, "subgroup",
              "(r+1)^2 fetches, partial sums passed round the quad by subgroup quad swaps"};
    case WindowMethod::QuadDerivative:
      return {"comp.quad_derivative", Stage::Compute, true, "derivative",
              "(r+1)^2 fetches, partial sums passed round the quad through compute-shader derivatives"};
    case WindowMethod::Separable:
      return {"comp.separable_shared", Stage::Compute, true, "separable",
              "row sums of a 32-wide tile staged in shared memory, then column sums: 2(2r+1) terms "
              "(a kernel of separable terms: a rows pass, each term's sums to an image, then columns; "
              "segments of 256 and 64 plus apron in shared memory, 4 outputs per thread)"};
    case WindowMethod::Running:
      return {
          "comp.running", Stage::Compute, true, "running",
          "sums sliding down strips 128 wide and prefix sums along each row: the same work at every radius"};
  }
  return {};
}

Support quad_exchange_support(WindowMethod which, const vk::Context& device) {
  if (which == WindowMethod::QuadSubgroup)
    return subgroup_quads_in_compute(device, WINDOW_QUAD_GROUP * WINDOW_QUAD_GROUP);
  if (which == WindowMethod::QuadDerivative) return compute_derivatives(device);
  return {};
}

namespace {

class WindowFilter : public Filter {
 public:
  WindowFilter(const FilterEnv& env, const WindowFamily& family, WindowMethod which)
      : env_(env.pass_env), which_(which), format_(precision_format(env.params)) {
    const WindowMethodInfo m = window_method_info(which);
    stage_ = m.stage;
    shader_ = m.stage == Stage::Fragment ? family.shaders + ".frag#" + m.variant
              : which == WindowMethod::Running
                  ? family.shaders + "_running.comp#" + precision_variant(format_)
                  : family.shaders + ".comp#" + m.variant + "." + precision_variant(format_);
    const int radius = which == WindowMethod::Running && family.running->radius
                           ? family.running->radius(env.params)
                           : env.params.size();
    vk::Specialization spec;
    spec.set(WINDOW_RADIUS_ID, radius);
    family.constants(env.params, spec);
    if (which == WindowMethod::Running) {
      rows_ = uint32_t(running_rows(radius));
      spec.set(WINDOW_RUNNING_THREADS_ID, running_threads(radius)).set(WINDOW_RUNNING_ROWS_ID, rows_);
    }
    terms_ = family.terms;
    compute_shader_ = family.shaders + ".comp#";
    rows_format_ = family.rows_in_output_format ? format_ : VK_FORMAT_R32G32B32A32_SFLOAT;
    if (which == WindowMethod::Shared) {
      k_ = shared_k(radius, terms_ > 0);
      spec.set(WINDOW_SHARED_K_ID, k_);
    }
    if (which == WindowMethod::Separable && terms_ == 0) {
      k_ = separable_k(radius, family.acc_vec4s,
                       std::min(kPreferredSharedBytes, env.pass_env.vk.report().max_compute_shared_memory));
      if (k_ == 0) k_ = 1;  // the method's support admitted the radius on this device
      spec.set(WINDOW_SEPARABLE_K_ID, k_);
    }
    spec_ = spec.words();
    if (which == WindowMethod::Full2d && family.full2d_data)
      data_ = family.full2d_data(env.pass_env.vk, env.params);
    outputs_ = family.outputs ? family.outputs(env.params) : std::vector<std::string>{""};
    continuing_ = family.continuing ? family.continuing(env.params) : 0;
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    for (const std::string& suffix : outputs_)
      graph.declare_image(name + suffix, {format_, graph::SizeRule::relative_to(inputs.color)});
    const std::string first = name + outputs_[0];
    if (which_ == WindowMethod::Separable && terms_ > 0) {
      add_line_passes(graph, inputs, name);
    } else if (stage_ == Stage::Fragment) {
      passes::SimplePass pass(env_, name, passes::FragmentShader{shader_, format_, spec_});
      pass.sample(BINDING_SOURCE, inputs.color);
      if (data_.handle() != VK_NULL_HANDLE) pass.storage_buffer(BINDING_FAMILY_DATA, data_);
      for (const std::string& suffix : outputs_) pass.color(name + suffix);
      pass.add_to(graph);
    } else {
      passes::SimplePass pass(env_, name, passes::ComputeShader{shader_, spec_});
      pass.sample(BINDING_SOURCE, inputs.color);
      pass.store(BINDING_DESTINATION, first);
      if (outputs_.size() > 1) pass.store(BINDING_DESTINATION_2, name + outputs_[1]);
      switch (which_) {
        case WindowMethod::Shared:
          pass.dispatch_over(first, WINDOW_SHARED_GROUP, WINDOW_SHARED_GROUP * k_);
          break;
        case WindowMethod::Separable:
          pass.dispatch_over(first, WINDOW_SEPARABLE_GROUP_X, WINDOW_SEPARABLE_GROUP_Y * k_);
          break;
        case WindowMethod::Running: pass.dispatch_over(first, WINDOW_RUNNING_COLS, rows_); break;
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
  // comp.separable_shared of a window of separable terms: `name.rows<t>` holds term t's row sums.
  void add_line_passes(graph::RenderGraph& graph, const FilterInputs& inputs, const std::string& name) {
    std::vector<std::string> rows;
    for (int t = 0; t < terms_; ++t) {
      rows.push_back(name + ".rows" + std::to_string(t));
      graph.declare_image(rows.back(), {rows_format_, graph::SizeRule::relative_to(inputs.color)});
    }
    passes::SimplePass across(
        env_, name + ".rows",
        passes::ComputeShader{compute_shader_ + "rows." + precision_variant(rows_format_), spec_});
    across.sample(BINDING_SOURCE, inputs.color).store(BINDING_DESTINATION, rows[0]);
    if (terms_ > 1) across.store(BINDING_DESTINATION_2, rows[1]);
    across.dispatch_over(rows[0], WINDOW_ROWS_GROUP_X * WINDOW_LINE_K, WINDOW_ROWS_GROUP_Y).add_to(graph);
    passes::SimplePass down(
        env_, name, passes::ComputeShader{compute_shader_ + "columns." + precision_variant(format_), spec_});
    down.sample(BINDING_SOURCE, rows[0]);
    if (terms_ > 1) down.sample(BINDING_SOURCE_2, rows[1]);
    down.store(BINDING_DESTINATION, name)
        .dispatch_over(name, WINDOW_COLUMNS_GROUP, WINDOW_COLUMNS_GROUP * WINDOW_LINE_K)
        .add_to(graph);
  }

  passes::PassEnv env_;
  WindowMethod which_;
  VkFormat format_;
  Stage stage_ = Stage::Fragment;
  std::string shader_;
  std::vector<uint32_t> spec_;
  vk::Buffer data_;  // WindowFamily::full2d_data, where the family has one
  uint32_t k_ = 1;
  uint32_t rows_ = 0;  // comp.running's strip height
  int terms_ = 0;
  std::string compute_shader_;  // the family's .comp, up to its variant: the line passes' shaders
  VkFormat rows_format_ = VK_FORMAT_R32G32B32A32_SFLOAT;
  std::vector<std::string> outputs_;
  size_t continuing_ = 0;
};

MethodCost cost(WindowMethod which, int terms, const ParamValues& v) {
  const int radius = v.size();
  const double r = radius, n = (2 * r + 1) * (2 * r + 1);
  switch (which) {
    case WindowMethod::Full2d: return {n};
    case WindowMethod::Shared: {
      // Each cached texel fetched and stored once; each thread reads its (2r + K) x (2r + 1) window.
      const double k = shared_k(radius, terms > 0), outputs = WINDOW_SHARED_GROUP * WINDOW_SHARED_GROUP * k;
      const double cached = (WINDOW_SHARED_GROUP + 2 * r) * (WINDOW_SHARED_GROUP * k + 2 * r);
      return {cached / outputs, (2 * r + k) * (2 * r + 1) / k, cached / outputs};
    }
    case WindowMethod::Separable: {
      if (terms > 0) {
        // Each pass: its segments fetched and stored once, 2r + K reads per K outputs; the rows
        // pass stages each term's sums for contiguous stores, the columns pass reads every term.
        const double k = WINDOW_LINE_K, t = terms;
        const double rows = WINDOW_ROWS_GROUP_X * k, columns = WINDOW_COLUMNS_GROUP * k;
        const double across = (rows + 2 * r) / rows, down = t * (columns + 2 * r) / columns;
        return {across + down, (2 * r + k) / k + t + t * (2 * r + k) / k, across + t + down};
      }
      const double k = WINDOW_SEPARABLE_MAX_K, rows = WINDOW_SEPARABLE_GROUP_Y * k;
      const double run = WINDOW_SEPARABLE_RUN;
      return {(rows + 2 * r) / rows * (2 * r + run) / run, (2 * r + k) / k, (rows + 2 * r) / rows};
    }
    default: return {(r + 1) * (r + 1)};  // the quad methods: the exchanges are not memory traffic
  }
}

}  // namespace

Method window_method(const WindowFamily& family, WindowMethod which) {
  const WindowMethodInfo i = window_method_info(which);
  Method m;
  m.name = i.name;
  m.stage = i.stage;
  m.exact = i.exact;
  m.description = i.description;
  const int terms = family.terms;
  if (which == WindowMethod::Separable && terms > 0) m.passes = 2;
  m.cost = [which, terms](const ParamValues& v) { return cost(which, terms, v); };
  if (which == WindowMethod::Running) {
    if (!family.running) throw std::logic_error(family.shaders + ": comp.running of a family without one");
    if (!family.running->description.empty()) m.description = family.running->description;
    const WindowFamily::Running running = *family.running;
    // Per output, a column each over the strip's span: the slide's fetches and the first row's
    // share of the window's; the prefixes written; and their reads.
    m.cost = [running](const ParamValues& v) {
      const double r = v.size(), span = (WINDOW_RUNNING_COLS + 2 * r) / WINDOW_RUNNING_COLS;
      return MethodCost{span * (running.slide_fetches + (2 * r + 1) / running_rows(int(r))),
                        running.prefix_reads, running.prefixes * span};
    };
  }
  const auto running_support = family.running ? family.running->support : nullptr;
  const int schema_max = family.max_radius;
  const uint32_t acc = family.acc_vec4s;
  const auto not_separable = family.not_separable;
  m.support = [which, schema_max, acc, terms, not_separable, running_support](
                  const vk::Context& device, const ParamValues& v) -> Support {
    const Support everywhere{{}, schema_max};
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
        if (terms > 0)
          return shared_memory_support(
              device, largest_radius(schema_max, [&](int r) { return line_passes_bytes(r) <= shared; }),
              std::max(WINDOW_ROWS_GROUP_X * WINDOW_ROWS_GROUP_Y,
                       WINDOW_COLUMNS_GROUP * WINDOW_COLUMNS_GROUP),
              line_passes_bytes(1));
        return shared_memory_support(
            device, largest_radius(schema_max, [&](int r) { return separable_k(r, acc, shared) > 0; }),
            WINDOW_SEPARABLE_GROUP_X * WINDOW_SEPARABLE_GROUP_Y, separable_bytes(1, 1, acc));
      }
      case WindowMethod::Running: {
        if (running_support)
          if (Support s = running_support(device, v); !s.available()) return s;
        // group_prefix.glsl keeps a total for each subgroup, WINDOW_RUNNING_MAX_SUBGROUPS at most.
        const Support scans =
            subgroup_arithmetic_in_compute(device, running_threads(WINDOW_RUNNING_MAX_RADIUS),
                                           WINDOW_RUNNING_MAX_THREADS / WINDOW_RUNNING_MAX_SUBGROUPS);
        if (!scans.available()) return scans;
        return {{}, std::min(schema_max, WINDOW_RUNNING_MAX_RADIUS)};
      }
      case WindowMethod::QuadSubgroup:
      case WindowMethod::QuadDerivative: {
        const Support s = quad_exchange_support(which, device);
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

Param window_radius_param(std::string name, int max_radius, int fallback) {
  Param p;
  p.name = std::move(name);
  p.is_size = true;
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
  // The two-pass separable method writes each term's row sums to an image of its own.
  if (family.terms > WINDOW_MAX_TERMS)
    throw std::logic_error(family.shaders + ": more separable terms than WINDOW_MAX_TERMS");
  std::vector<Method> methods;
  for (WindowMethod w : {WindowMethod::Full2d, WindowMethod::QuadFine, WindowMethod::QuadCoarse,
                         WindowMethod::Shared, WindowMethod::QuadSubgroup, WindowMethod::QuadDerivative})
    methods.push_back(window_method(family, w));
  if (family.terms > 0) methods.push_back(window_method(family, WindowMethod::Separable));
  return methods;
}

}  // namespace filterlab::filters
