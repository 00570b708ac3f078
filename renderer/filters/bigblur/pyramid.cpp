// bigblur's pyramid methods: comp.mip_poisson (Chapman's prefiltered Poisson disk), and the chains
// engines use for large blurs, dual filtering (Bjorge 2015) and the 13-tap chain (Jimenez 2014).
// Each level is its own image, half the size of the one before (rounded up), `name.level<k>`:
// comp.mip_poisson's box levels all come from one dispatch (passes/pyramid_pass.h), the chains' levels
// one pass each (shaders/filters/bigblur/chain_down.comp and chain_up.comp), except the dual filter's
// deepest level, which its middle pass makes and uses without storing it.
#include "filters/bigblur/bigblur_config.h"
#include "filters/bigblur/design.h"
#include "filters/bigblur/methods.h"
#include "filters/device_checks.h"
#include "filters/precision.h"
#include "passes/camera_feed.h"
#include "passes/passes_config.h"
#include "passes/pyramid_pass.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

namespace filterlab::filters::bigblur {
namespace {

// Down: a level from the finer one. Up: 2x from the coarser one. Through: the dual filter's middle
// pass, 2x from the level below the finer one, made on the way (chain_up.comp's FUSED_DOWN).
enum class Direction { Down, Up, Through };

// Outputs a thread of a down pass makes down a column (chain_down.comp), sharing taps.
uint32_t down_rows(const std::string& variant, VkFormat format) {
  const bool fp32 = format == VK_FORMAT_R32G32B32A32_SFLOAT;
  if (variant == "dual_down") return fp32 ? BIGBLUR_DUAL_DOWN_ROWS_FLOAT : BIGBLUR_DUAL_DOWN_ROWS_HALF;
  return fp32 ? BIGBLUR_COD13_DOWN_ROWS_FLOAT : BIGBLUR_COD13_DOWN_ROWS_HALF;
}

// One pass of a chain: `to` from `from` by the shader's `variant`. A down pass makes texels down a
// column from filtered taps (down_rows); an up pass 2 x 2 from the coarse texels staged in shared
// memory, stored a row at a time (fp16 through subgroup shuffles, fp32 through shared memory:
// chain_up.comp).
void chain_pass(graph::RenderGraph& graph, const passes::PassEnv& env, Direction direction,
                const char* variant, VkFormat format, const std::string& from, const std::string& to) {
  const bool up = direction != Direction::Down;
  const uint32_t side = up ? 2 * BIGBLUR_GROUP : BIGBLUR_GROUP;
  const uint32_t rows = up ? 1 : down_rows(variant, format);
  passes::SimplePass(
      env, to,
      passes::ComputeShader{std::string("filters/bigblur/") + (up ? "chain_up" : "chain_down") + ".comp#" +
                            variant + "." + precision_variant(format)})
      .sample(BINDING_SOURCE, from,
              direction == Direction::Up ? graph::Sampling::Nearest : graph::Sampling::Linear)
      .store(BINDING_DESTINATION, to)
      .dispatch_over(to, side, side * rows)
      .add_to(graph);
}

// A chain's cost per pixel of the input, every level's passes together (the levels add up to 4/3
// of the input): down, `down_taps` filtered fetches a coarse texel; up (chain_up.comp), a group's
// 20 x 20 coarse texels fetched and stored once for its 32 x 32 outputs, 25 reads of them for each
// 2 x 2, and in fp32 each output staged through shared memory on its way out (fp16 outputs travel by
// shuffles). Every level counts as stored, the dual filter's deepest one too, which its middle pass
// makes from 5 taps a staged texel instead: 4^-k of the input at k levels, so overcounted most at
// k = 1.
MethodCost chain_cost(const ParamValues& v, double down_taps) {
  const double tile = (BIGBLUR_GROUP + 4.0) * (BIGBLUR_GROUP + 4.0) / (4.0 * BIGBLUR_GROUP * BIGBLUR_GROUP);
  const double staged = v.choice("precision") == "fp32" ? 1.0 : 0.0;
  return MethodCost{(down_taps / 4 + tile) * 4.0 / 3, (25.0 / 4 + staged) * 4.0 / 3,
                    (tile + staged) * 4.0 / 3};
}

// Levels 1..count of `input`, each declared half the one before; returns their names (level 0 first).
std::vector<std::string> declare_levels(graph::RenderGraph& graph, VkFormat format, const std::string& input,
                                        const std::string& name, int count) {
  std::vector<std::string> levels = {input};
  for (int k = 1; k <= count; ++k) {
    levels.push_back(name + ".level" + std::to_string(k));
    graph.declare_image(levels.back(), {format, graph::SizeRule::relative_to(levels[size_t(k) - 1], 0.5f)});
  }
  return levels;
}

class MipPoisson : public Filter {
 public:
  MipPoisson(const FilterEnv& env, bool temporal)
      : env_(env.pass_env),
        temporal_(temporal),
        format_(precision_format(env.params)),
        design_(poisson_design(env.params.number("sigma"), env.params.integer("samples"),
                               env.params.choice("footprint") == "trilinear")),
        pyramid_(env.pass_env) {
    const std::string& rotation = env.params.choice("rotation");
    push_.lod = float(design_.lod);
    push_.rotation = rotation == "none"    ? BIGBLUR_ROTATION_NONE
                     : rotation == "white" ? BIGBLUR_ROTATION_WHITE
                                           : BIGBLUR_ROTATION_IGN;
    push_.cell = uint32_t(env.params.integer("rotation_cell"));
    push_.frame = 0;  // still, unless temporal: then the camera's frame
    push_.history_invalid = 1;
    disk_ = vk::Buffer::holding(env_.vk, design_.disk, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                "bigblur poisson disk");
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    const bool one_level = design_.fine == design_.coarse;
    const std::vector<std::string> levels =
        pyramid_.add_to(graph, inputs.color, format_, design_.levels, name, name + ".pyramid");
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass resolve(
        env_, name,
        passes::ComputeShader{
            std::string("filters/bigblur/mip_poisson.comp#") + (temporal_ ? "temporal." : "") +
                (one_level ? "level." : "") + precision_variant(format_),
            vk::Specialization().set(BIGBLUR_SAMPLES_ID, uint32_t(design_.disk.size())).words()});
    resolve.sample(BINDING_SOURCE, levels[size_t(design_.fine)], graph::Sampling::Linear);
    if (!one_level)
      resolve.sample(BINDING_BIGBLUR_COARSE, levels[size_t(design_.coarse)], graph::Sampling::Linear);
    resolve.store(BINDING_DESTINATION, name)
        .storage_buffer(BINDING_FAMILY_DATA, disk_)
        .dispatch_over(name, BIGBLUR_GROUP, BIGBLUR_GROUP);
    if (!temporal_) {
      resolve.constants(push_).add_to(graph);
      return name;
    }
    // The accumulation (RGB, and the frames it holds), read back next frame: never halves
    // (mip_poisson.comp says why). In fp16 packed into RG32UI, which no sampler filters: the shader
    // gathers and filters it.
    const std::string accumulation = name + ".accumulation";
    const bool packed = format_ == VK_FORMAT_R16G16B16A16_SFLOAT;
    graph.declare_image(accumulation, {packed ? VK_FORMAT_R32G32_UINT : VK_FORMAT_R32G32B32A32_SFLOAT,
                                       graph::SizeRule::relative_to(inputs.color)});
    const passes::CameraFeed* camera = inputs.camera;
    resolve.sample(BINDING_MOTION, inputs.motion)
        .sample_history(BINDING_HISTORY, accumulation,
                        packed ? graph::Sampling::Nearest : graph::Sampling::Linear)
        .store(BINDING_BIGBLUR_ACCUMULATION, accumulation)
        .constants_from<shader::PoissonPush>([camera, push = push_](graph::PassContext&) {
          shader::PoissonPush p = push;
          p.frame = uint32_t(camera->frame);
          p.history_invalid = camera->history_invalid ? 1u : 0u;
          return p;
        })
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  bool temporal_;
  VkFormat format_;
  PoissonDesign design_;
  passes::PyramidPass pyramid_;
  shader::PoissonPush push_{};
  vk::Buffer disk_;
};

// k levels down, then back up to the input's size. The dual filter makes its deepest level inside
// its first up pass (Direction::Through): one dispatch fewer, and that level is never stored.
class ChainBlur : public Filter {
 public:
  ChainBlur(const FilterEnv& env, Chain chain)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        chain_(chain),
        levels_(chain_levels(chain, env.params.number("sigma"))) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    const bool fused = chain_ == Chain::Dual;
    const std::vector<std::string> down =
        declare_levels(graph, format_, inputs.color, name, fused ? levels_ - 1 : levels_);
    const char* down_variant = chain_ == Chain::Dual ? "dual_down" : "cod13";
    const char* up_variant = chain_ == Chain::Dual ? "dual_up" : "tent";
    for (size_t k = 1; k < down.size(); ++k)
      chain_pass(graph, env_, Direction::Down, down_variant, format_, down[k - 1], down[k]);
    std::string from = down.back();
    for (int k = levels_ - 1; k >= 0; --k) {
      const std::string to = k == 0 ? name : name + ".up" + std::to_string(k);
      graph.declare_image(to, {format_, graph::SizeRule::relative_to(down[size_t(k)])});
      const bool through = fused && k == levels_ - 1;
      chain_pass(graph, env_, through ? Direction::Through : Direction::Up, through ? "dual_mid" : up_variant,
                 format_, from, to);
      from = to;
    }
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  Chain chain_;
  int levels_;
};

Method pyramid_method(const char* name, const char* description,
                      std::function<MethodCost(const ParamValues&)> cost,
                      std::function<std::unique_ptr<Filter>(const FilterEnv&)> create) {
  Method m;
  m.name = name;
  m.stage = Stage::Compute;
  m.exact = false;  // no bound against the Gaussian: measured by bench, tested against its own model
  m.description = description;
  m.cost = std::move(cost);
  m.create = std::move(create);
  // The pyramid adds neighbouring texels of level 0 across lanes, and the up passes hand each output
  // to the lane that stores it, both by subgroup shuffles; the two groups are alike in size.
  static_assert(PYRAMID_THREADS == BIGBLUR_GROUP * BIGBLUR_GROUP);
  m.support = [](const vk::Context& device, const ParamValues&) {
    return subgroup_shuffles_in_compute(device, 2, PYRAMID_THREADS);
  };
  return m;
}

Method temporal_method() {
  Method m = pyramid_method(
      "comp.mip_poisson_temporal",
      "comp.mip_poisson with the noise moving every frame and the frames accumulated (reprojected by motion, "
      "reset on a camera cut)",
      [](const ParamValues& v) { return MethodCost{2.0 * v.integer("samples") + 4.0 / 3.0 + 2.0}; },
      [](const FilterEnv& env) -> std::unique_ptr<Filter> {
        return std::make_unique<MipPoisson>(env, true);
      });
  m.inputs = {Input::Motion, Input::Camera, Input::History};
  return m;
}

}  // namespace

std::vector<Method> pyramid_methods() {
  return {
      pyramid_method(
          "comp.mip_poisson",
          "Chapman's big blur: a 2x2 box mip chain, then N Poisson-disk samples a pixel, each a trilinear "
          "read of the "
          "level its share of the disk covers, the disk rotated per pixel",
          [](const ParamValues& v) { return MethodCost{2.0 * v.integer("samples") + 4.0 / 3.0}; },
          [](const FilterEnv& env) -> std::unique_ptr<Filter> {
            return std::make_unique<MipPoisson>(env, false);
          }),
      temporal_method(),
      pyramid_method(
          "comp.dual_filter", "dual filtering (Bjorge 2015): k levels down by 5 taps, back up by 8",
          [](const ParamValues& v) {  // 2 (r + 1) corner taps and r centres for r outputs
            return chain_cost(v, 3.0 + 2.0 / down_rows("dual_down", precision_format(v)));
          },
          [](const FilterEnv& env) -> std::unique_ptr<Filter> {
            return std::make_unique<ChainBlur>(env, Chain::Dual);
          }),
      pyramid_method(
          "comp.cod13", "Jimenez 2014's chain: k levels down by the 13-tap filter, back up by a 3x3 tent",
          [](const ParamValues& v) {  // 3 (r + 2) outer and 2 (r + 1) inner taps for r outputs
            return chain_cost(v, 5.0 + 8.0 / down_rows("cod13", precision_format(v)));
          },
          [](const FilterEnv& env) -> std::unique_ptr<Filter> {
            return std::make_unique<ChainBlur>(env, Chain::Cod13);
          }),
  };
}

}  // namespace filterlab::filters::bigblur
