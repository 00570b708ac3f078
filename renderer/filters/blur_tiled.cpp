// comp.tiled: AMD's tiled separable convolution (seeds/amd-tiled-separable-convolution-opencl.md),
// one compute dispatch: 8x8 threads per group, a 32x32 tile per group, every horizontal sum of the
// tile and its vertical apron computed once into shared memory and read back by the vertical
// sums; groups split into free-on-read / edge and free-on-write / checked classes. The shader and
// its design notes (and where and why it departs from AMD's OpenCL kernel, with measurements):
// shaders/filters/blur/comp_tiled_common.glsl.
//
// ROIs (src_roi, dst_roi, same size): out(dst + p) = blur of the source restricted to src_roi,
// clamped to its edges, at src + p. Without ROIs both are the whole image. The output image has the
// input's size; its pixels outside dst_roi come from a second pass, `<name>.outside`, declared only
// when ROIs are given, which runs first and writes only those pixels (the input's with
// outside=copy, -1024 with outside=poison). The convolution pass then writes only inside dst_roi,
// so a poisoned run shows it never wrote outside. ROIs that do not fit in the image throw
// ChainError when the first of these passes is recorded (the image size is known only then): the
// command buffer is abandoned before submission, so nothing runs.
//
// Shared memory: every group keeps its horizontal sums, (32 + 2r) x 32 RGBA fp32 = 512 (32 + 2r)
// bytes, so the device limit sets the largest radius: (limit / 512 - 32) / 2, i.e. 16 at 32 KiB
// (lavapipe) and 32 at 48 KiB (H100, H200). Larger radii are refused (MethodSupport::max_radius)
// rather than served by a smaller tile.
#include "filters/blur_methods.h"
#include "graph/executor.h"

#include <algorithm>
#include <cstring>

namespace filterlab::filters {
namespace {

constexpr int kTile = 32;
constexpr uint32_t kVec4Bytes = 16;

uint32_t hsum_bytes(int r) {
  return uint32_t(kTile + 2 * r) * kTile * kVec4Bytes;
}

int max_radius_for(uint32_t shared_limit) {
  int r = 0;
  while (r < common::kMaxRadius && hsum_bytes(r + 1) <= shared_limit) ++r;
  return r;
}

// Phase 1 fetch layout (the shader's INTERLEAVED): four columns 8 apart where that measured
// faster on an H200 at 3840x2160 fp16 (r = 1: 100 vs 106 us; r = 8: 270 vs 311 us), four adjacent
// columns elsewhere (r = 2: 121 vs 130 us; r = 4: 158 vs 178 us).
bool interleaved(int r) {
  return r == 1 || (r >= 5 && r <= 8);
}

// Matches the shader's push constants (comp_tiled_common.glsl).
struct Push {
  int32_t src_origin[2], dst_origin[2], size[2], image_size[2];
};

std::string roi_text(const common::Roi& r) {
  return std::to_string(r.width) + "x" + std::to_string(r.height) + "+" + std::to_string(r.x) + "+" +
         std::to_string(r.y);
}

class TiledBlur : public BlurPasses {
 public:
  explicit TiledBlur(const BlurEnv& env)
      : env_(env.pass_env), settings_(env.settings), weights_(env.weights) {
    const int r = settings_.kernel.radius;
    const bool fp32 = settings_.precision == Precision::Fp32;
    // BlurFilter's weights buffer bound as a uniform block (std140 vec4s, w4[j / 4][j % 4] =
    // w(j - r)), where the shader's multiplies can take the weights as constant operands.
    const std::vector<uint32_t> spec = {uint32_t(r), interleaved(r) ? 1u : 0u};
    const vk::PipelineLayoutDesc layout{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                         VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                                        sizeof(Push)};
    convolution_ = vk::make_pipeline(
        env_.pipelines, env_.vk, env_.shaders,
        vk::ComputePipelineDesc{
            fp32 ? "filters/blur/comp_tiled_fp32.comp" : "filters/blur/comp_tiled_fp16.comp", layout, spec});
    if (settings_.dst_roi)
      outside_ = vk::make_pipeline(
          env_.pipelines, env_.vk, env_.shaders,
          vk::ComputePipelineDesc{
              fp32 ? "filters/blur/comp_tiled_outside_fp32.comp"
                   : "filters/blur/comp_tiled_outside_fp16.comp",
              {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, sizeof(Push)},
              {settings_.poison_outside ? 1u : 0u}});
  }

  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override {
    graph.declare_image(name, {settings_.format(), graph::SizeRule::relative_to(input)});
    if (outside_) {
      graph.add_pass(name + ".outside", graph::PassKind::Compute)
          .read(input, graph::Usage::SampledCompute)
          .write(name, graph::Usage::StorageWriteCompute)
          .execute([this, input, name](graph::PassContext& ctx) {
            const Push push = push_constants(ctx.image(input).extent);
            const common::Roi dst = *settings_.dst_roi;
            if (dst.x == 0 && dst.y == 0 && dst.width == uint32_t(push.image_size[0]) &&
                dst.height == uint32_t(push.image_size[1]))
              return;  // the target ROI is the whole image: nothing outside it
            ctx.bind(*outside_)
                .sampled(0, input, graph::Sampling::Nearest)
                .storage(1, name)
                .constants(push)
                .dispatch_over(name, 16, 16);
          });
      // Reads nothing of `name`, but the pass before it wrote the pixels it leaves alone.
      graph.add_pass(name, graph::PassKind::Compute)
          .read(input, graph::Usage::SampledCompute)
          .read_write(name)
          .execute([this, input, name](graph::PassContext& ctx) { convolve(ctx, input, name); });
    } else {
      graph.add_pass(name, graph::PassKind::Compute)
          .read(input, graph::Usage::SampledCompute)
          .write(name, graph::Usage::StorageWriteCompute)
          .execute([this, input, name](graph::PassContext& ctx) { convolve(ctx, input, name); });
    }
    return name;
  }

 private:
  // Throws ChainError when a ROI does not fit in the image.
  Push push_constants(VkExtent2D extent) const {
    for (const auto& [key, roi] :
         {std::pair{"src_roi", settings_.src_roi}, std::pair{"dst_roi", settings_.dst_roi}})
      if (roi && !roi->fits_in(extent.width, extent.height))
        throw ChainError(std::string("comp.tiled: ") + key + " " + roi_text(*roi) + " does not fit in the " +
                         std::to_string(extent.width) + "x" + std::to_string(extent.height) + " image");
    const common::Roi whole{0, 0, extent.width, extent.height};
    const common::Roi src = settings_.src_roi.value_or(whole), dst = settings_.dst_roi.value_or(whole);
    return {{int32_t(src.x), int32_t(src.y)},
            {int32_t(dst.x), int32_t(dst.y)},
            {int32_t(src.width), int32_t(src.height)},
            {int32_t(extent.width), int32_t(extent.height)}};
  }

  void convolve(graph::PassContext& ctx, const std::string& input, const std::string& name) const {
    const Push push = push_constants(ctx.image(input).extent);
    ctx.bind(*convolution_)
        .sampled(0, input, graph::Sampling::Nearest)
        .storage(1, name)
        .uniform(2, weights_)
        .constants(push)
        .dispatch(uint32_t(push.size[0] + kTile - 1) / kTile, uint32_t(push.size[1] + kTile - 1) / kTile);
  }

  const passes::PassEnv& env_;
  const BlurSettings& settings_;
  const vk::Buffer& weights_;
  vk::PipelineRef convolution_, outside_;
};

// Per output pixel of a group that is free on read (the great majority; edge groups make the same
// fetches, clamped). A group computes (32 + 2r) rows x 32 horizontal sums, four per task from
// 4 + 2r fetches (adjacent columns) or 4 (2r + 1) (interleaved columns), and stores each once;
// phase 2 reads 16 + 2r sums per 16 outputs (4 + 2r per 4 beyond r = 8).
MethodCost cost_tiled(int r) {
  MethodCost c;
  const double rows = double(kTile + 2 * r) / kTile;  // sum rows per output row
  c.fetches = rows * (interleaved(r) ? 2 * r + 1 : (4 + 2 * r) / 4.0);
  c.shared_writes = rows;
  c.shared_reads = r <= 8 ? (16 + 2 * r) / 16.0 : (4 + 2 * r) / 4.0;
  return c;
}

MethodSupport support_tiled(const vk::Context& device, const BlurSettings&) {
  MethodSupport s;
  const uint32_t limit = device.report().max_compute_shared_memory;
  s.max_radius = max_radius_for(limit);
  if (s.max_radius < 1)
    s.reason = "needs " + std::to_string(hsum_bytes(1)) + " bytes of compute shared memory, the device has " +
               std::to_string(limit);
  return s;
}

}  // namespace

std::vector<BlurMethod> tiled_blur_methods() {
  return {
      {"comp.tiled", "compute", true, 1,
       "AMD's tiled separable convolution: 8x8 threads per 32x32 tile, each horizontal sum computed "
       "once into shared memory, free/edge group classes; one dispatch (+1 pass for the pixels outside "
       "dst_roi with ROIs)",
       cost_tiled, support_tiled,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> { return std::make_unique<TiledBlur>(e); }, true},
  };
}

}  // namespace filterlab::filters
