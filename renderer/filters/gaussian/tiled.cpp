// comp.tiled: AMD's tiled separable convolution (seeds/amd-tiled-separable-convolution-opencl.md),
// one compute dispatch: 8x8 threads per group, a 32x32 tile per group, every horizontal sum of the
// tile and its vertical apron computed once into shared memory and read back by the vertical
// sums; groups split into free-on-read / edge and free-on-write / checked classes. The shader and
// its design notes (and where and why it departs from AMD's OpenCL kernel, with measurements):
// shaders/filters/gaussian/comp_tiled.comp.
//
// ROIs (src_roi, dst_roi, same size): out(dst + p) = blur of the source restricted to src_roi,
// clamped to its edges, at src + p. Without ROIs both are the whole image. The output image has the
// input's size; its pixels outside dst_roi come from a second pass, `<name>.outside`, declared only
// when ROIs are given, which runs first and writes only those pixels (the input's with
// outside=copy, -1024 with outside=poison). The convolution pass then writes only inside dst_roi,
// so a poisoned run shows it never wrote outside. ROIs that do not fit in the image are refused by
// the family's check_extent wherever the size is known before any GPU work, and again when the
// first of these passes is recorded (the command buffer is then abandoned before submission).
//
// Shared memory: every group keeps its horizontal sums, (32 + 2r) x 32 RGBA fp32 = 512 (32 + 2r)
// bytes, so the device limit sets the largest radius: (limit / 512 - 32) / 2, i.e. 16 at 32 KiB
// (lavapipe) and 32 at 48 KiB (H100, H200). Larger radii are refused (Support::limits)
// rather than served by a smaller tile.
#include "filters/gaussian/gaussian_config.h"
#include "filters/gaussian/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <algorithm>
#include <cstring>

namespace filterlab::filters::gaussian {
namespace {

constexpr uint32_t kVec4Bytes = 16;

uint32_t hsum_bytes(int r) {
  return uint32_t(TILED_TILE + 2 * r) * TILED_TILE * kVec4Bytes;
}

int max_radius_for(uint32_t shared_limit) {
  int r = 0;
  while (r < kDesignMaxRadius && hsum_bytes(r + 1) <= shared_limit) ++r;
  return r;
}

// Phase 1 fetch layout (the shader's INTERLEAVED): four columns 8 apart where that measured
// faster on an H200, four adjacent columns elsewhere (docs/families/gaussian-tried.md, "comp.tiled").
bool interleaved(int r) {
  return r == 1 || (r >= 5 && r <= 8);
}

class TiledBlur : public Filter {
 public:
  explicit TiledBlur(const FilterEnv& env)
      : env_(env.pass_env),
        kernel_(env.pass_env.vk, kernel_spec(env.params)),
        format_(precision_format(env.params)),
        radius_(env.params.integer("radius")),
        src_roi_(env.params.region("src_roi")),
        dst_roi_(env.params.region("dst_roi")),
        poison_(env.params.choice("outside") == "poison"),
        params_(env.params) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    const std::string input = inputs.color;
    const std::string variant = precision_variant(format_);
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(input)});
    auto push = [this, input](graph::PassContext& ctx) { return push_constants(ctx.image(input).extent); };
    if (dst_roi_) {
      const common::Roi dst = *dst_roi_;
      passes::SimplePass(
          env_, name + ".outside",
          passes::ComputeShader{"filters/gaussian/comp_tiled.comp#outside." + variant,
                                vk::Specialization().set(GAUSSIAN_TILED_POISON_ID, poison_).words()})
          .sample(BINDING_SOURCE, input)
          .store(BINDING_DESTINATION, name)
          .constants_from<shader::TiledPush>(push)
          .skip_when([input, dst](graph::PassContext& ctx) {  // the target ROI is the whole image
            const VkExtent2D e = ctx.image(input).extent;
            return dst.x == 0 && dst.y == 0 && dst.width == e.width && dst.height == e.height;
          })
          .dispatch_over(name, TILED_OUTSIDE_GROUP, TILED_OUTSIDE_GROUP)
          .add_to(graph);
    }
    passes::SimplePass convolve(
        env_, name,
        passes::ComputeShader{"filters/gaussian/comp_tiled.comp#" + variant,
                              vk::Specialization()
                                  .set(GAUSSIAN_RADIUS_ID, radius_)
                                  .set(GAUSSIAN_TILED_INTERLEAVED_ID, interleaved(radius_))
                                  .words()});
    convolve.sample(BINDING_SOURCE, input)
        .uniform(BINDING_WEIGHTS, kernel_.weights)
        .constants_from<shader::TiledPush>(push);
    // With a target ROI it writes only inside it: the outside pass before it wrote the rest.
    if (dst_roi_) convolve.store_part(BINDING_DESTINATION, name);
    else convolve.store(BINDING_DESTINATION, name);
    convolve
        .dispatch([push](graph::PassContext& ctx) {
          const shader::TiledPush p = push(ctx);
          return std::array<uint32_t, 2>{uint32_t(p.size.x + TILED_TILE - 1) / TILED_TILE,
                                         uint32_t(p.size.y + TILED_TILE - 1) / TILED_TILE};
        })
        .add_to(graph);
    return name;
  }

 private:
  // The family's check_extent refuses a ROI that does not fit before any GPU work; this is the last
  // line, should a frame be recorded at a size nobody checked (the command buffer is then
  // abandoned before submission, so nothing runs).
  shader::TiledPush push_constants(VkExtent2D extent) const {
    check_rois_fit(params_, extent.width, extent.height);
    const common::Roi whole{0, 0, extent.width, extent.height};
    const common::Roi src = src_roi_.value_or(whole), dst = dst_roi_.value_or(whole);
    return {{int32_t(src.x), int32_t(src.y)},
            {int32_t(dst.x), int32_t(dst.y)},
            {int32_t(src.width), int32_t(src.height)},
            {int32_t(extent.width), int32_t(extent.height)}};
  }

  passes::PassEnv env_;
  KernelBuffers kernel_;
  VkFormat format_;
  int radius_;
  std::optional<common::Roi> src_roi_, dst_roi_;
  bool poison_;
  ParamValues params_;
};

// Per output pixel of a group that is free on read (the great majority; edge groups make the same
// fetches, clamped). A group computes (32 + 2r) rows x 32 horizontal sums, four per task from
// 4 + 2r fetches (adjacent columns) or 4 (2r + 1) (interleaved columns), and stores each once;
// phase 2 reads 16 + 2r sums per 16 outputs (4 + 2r per 4 beyond r = 8).
MethodCost cost_tiled(const ParamValues& v) {
  const int r = v.integer("radius");
  MethodCost c;
  const double rows = double(TILED_TILE + 2 * r) / TILED_TILE;  // sum rows per output row
  c.fetches = rows * (interleaved(r) ? 2 * r + 1 : (4 + 2 * r) / 4.0);
  c.shared_writes = rows;
  c.shared_reads = r <= 8 ? (16 + 2 * r) / 16.0 : (4 + 2 * r) / 4.0;
  return c;
}

Support support_tiled(const vk::Context& device, const ParamValues&) {
  const uint32_t limit = device.report().max_compute_shared_memory;
  const int max_radius = max_radius_for(limit);
  if (max_radius < 1)
    return {"needs " + std::to_string(hsum_bytes(1)) + " bytes of compute shared memory, the device has " +
            std::to_string(limit)};
  return {{}, max_radius};
}

}  // namespace

std::vector<Method> tiled_methods() {
  Method m;
  m.name = "comp.tiled";
  m.description =
      "AMD's tiled separable convolution: 8x8 threads per 32x32 tile, each horizontal sum computed once into "
      "shared memory, free/edge group classes; one dispatch (+1 pass for the pixels outside dst_roi with "
      "ROIs)";
  m.cost = cost_tiled;
  m.support = support_tiled;
  m.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<TiledBlur>(env); };
  return {m};
}

}  // namespace filterlab::filters::gaussian
