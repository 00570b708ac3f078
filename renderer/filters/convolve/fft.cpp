// convolve fft.vkfft: the image padded into planes of floats (one per channel), VkFFT's 2D
// real-to-complex transform, the product with the kernel's spectrum, the inverse, the crop. The
// kernel's spectrum is made once per kernel and transform size, when the first frame at that size
// records (VkFFT compiles its kernels then).
#include "filters/convolve/convolve_config.h"
#include "filters/convolve/kernel.h"
#include "filters/convolve/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"
#include "vk/check.h"
#include "vkfft/fft_plan.h"

#include <cstring>
#include <map>

namespace filterlab::filters::convolve {
namespace {

// The transform for an image: at least the image plus the kernel less one texel each way, so that
// inside the image the circular convolution is the linear one, among the sizes VkFFT does fast.
struct Layout {
  shader::FftPush push{};
  VkDeviceSize bytes = 0;  // the image's planes
};

Layout layout_for(const Kernel& k, VkExtent2D image) {
  Layout l;
  shader::FftPush& p = l.push;
  p.width = int(image.width);
  p.height = int(image.height);
  p.fft_width = int(vkfft::good_size(image.width + uint32_t(k.width) - 1));
  p.fft_height = int(vkfft::good_size(image.height + uint32_t(k.height) - 1));
  // out(x) = sum over a of k(a) in(x + cx - a): the image starts where the kernel's reach to the left
  // (w - 1 - cx) ends.
  p.offset_x = k.width - 1 - k.centre_x();
  p.offset_y = k.height - 1 - k.centre_y();
  p.row_floats = uint32_t(p.fft_width / 2 + 1) * 2;
  p.plane_floats = p.row_floats * uint32_t(p.fft_height);
  p.kernel_plane_floats = k.planes > 1 ? p.plane_floats : 0;  // the separate product's, and the view's
  l.bytes = vkfft::spectrum_bytes(uint32_t(p.fft_width), uint32_t(p.fft_height), 4);
  return l;
}

class FftConvolution : public Filter {
 public:
  explicit FftConvolution(const FilterEnv& env)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        kernel_(make_kernel(env.params)),
        fused_(env.params.choice("transform") == "fused"),
        // VkFFT's convolution mode multiplies a one-plane kernel into the first of four batched planes
        // only (measured: the registry test fails), so there the kernel has a plane per channel.
        spectrum_planes_(fused_ ? 4 : kernel_.planes) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs, const std::string& name) override {
    const std::string color = inputs.color, planes = name + ".planes";
    const Kernel kernel = kernel_;
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(color)});
    graph.declare_buffer(planes, {graph::BufferSize::of(color, [kernel](VkExtent2D e) {
                           return layout_for(kernel, e).bytes;
                         })});
    auto push = [this, color](graph::PassContext& ctx) { return layout_for(kernel_, ctx.extent(color)).push; };
    // A thread two real values (pad: the transform's width is even) or a complex one (multiply:
    // row_floats / 2 of them a row).
    auto over = [this, color](bool complex) {
      return [this, color, complex](graph::PassContext& ctx) {
        const shader::FftPush p = layout_for(kernel_, ctx.extent(color)).push;
        const uint32_t columns = complex ? p.row_floats / 2 : uint32_t(p.fft_width) / 2;
        return std::array<uint32_t, 2>{(columns + CONVOLVE_GROUP - 1) / CONVOLVE_GROUP,
                                       (uint32_t(p.fft_height) + CONVOLVE_GROUP - 1) / CONVOLVE_GROUP};
      };
    };
    passes::SimplePass(env_, planes + ".pad", passes::ComputeShader{"filters/convolve/fft.comp#pad"})
        .sample(BINDING_SOURCE, color, graph::Sampling::Nearest)
        .graph_buffer(BINDING_FAMILY_DATA, planes, graph::BufferUsage::StorageWriteCompute)
        .constants_from<shader::FftPush>(push)
        .dispatch(over(false))
        .add_to(graph);
    if (fused_) {
      transform_pass(graph, planes + ".convolve", color, planes, &vkfft::R2CPlan::convolve);
    } else {
      transform_pass(graph, planes + ".forward", color, planes, &vkfft::R2CPlan::forward);
      passes::SimplePass(env_, planes + ".multiply", passes::ComputeShader{"filters/convolve/fft.comp#multiply"})
          .graph_buffer(BINDING_FAMILY_DATA, planes, graph::BufferUsage::StorageReadWriteCompute)
          .storage_buffer(BINDING_CONVOLVE_KERNEL_SPECTRUM, spectrum_)
          .constants_from<shader::FftPush>(push)
          .dispatch(over(true))
          .add_to(graph);
      transform_pass(graph, planes + ".inverse", color, planes, &vkfft::R2CPlan::inverse);
    }
    // The kernel's spectrum as an image (the viewport's `name.spectrum`): culled unless something shows
    // it. It reads a spectrum of its own in the transform's usual layout, made when first shown: the
    // fused transform's kernel is in the layout VkFFT's convolution mode reads, which at larger sizes
    // is another (measured: 1280 x 720).
    const std::string spectrum = name + ".spectrum";
    graph.declare_image(spectrum, {VK_FORMAT_R16G16B16A16_SFLOAT, graph::SizeRule::relative_to(color)});
    passes::SimplePass(env_, spectrum, passes::ComputeShader{"filters/convolve/fft.comp#spectrum"})
        .storage_buffer(BINDING_CONVOLVE_KERNEL_SPECTRUM, view_spectrum_)
        .store(BINDING_DESTINATION, spectrum)
        // SimplePass makes the constants before it binds: the view's spectrum for this size exists by
        // then (the image is the input's size; the input itself may be culled when only this is shown).
        .constants_from<shader::FftPush>([this, spectrum](graph::PassContext& ctx) {
          const Layout l = layout_for(kernel_, ctx.extent(spectrum));
          const VkExtent2D size{uint32_t(l.push.fft_width), uint32_t(l.push.fft_height)};
          if (size.width != view_extent_.width || size.height != view_extent_.height) {
            VK_CHECK(vkQueueWaitIdle(ctx.vk.queue()));  // a frame in flight may still read the old one
            view_spectrum_ = make_spectrum(ctx.vk, l, vkfft::Role::Transform, uint32_t(kernel_.planes));
            view_extent_ = size;
          }
          return l.push;
        })
        .dispatch_over(spectrum, CONVOLVE_GROUP, CONVOLVE_GROUP)
        .add_to(graph);
    passes::SimplePass(env_, name,
                       passes::ComputeShader{std::string("filters/convolve/fft.comp#crop.") + precision_variant(format_)})
        .graph_buffer(BINDING_FAMILY_DATA, planes, graph::BufferUsage::StorageReadCompute)
        .store(BINDING_DESTINATION, name)
        .constants_from<shader::FftPush>(push)
        .dispatch_over(name, CONVOLVE_GROUP, CONVOLVE_GROUP)
        .add_to(graph);
    return name;
  }

 private:
  // A pass that is one of the plan's VkFFT calls on the planes, in place.
  void transform_pass(graph::RenderGraph& graph, const std::string& name, const std::string& color,
                      const std::string& planes, void (vkfft::R2CPlan::*call)(VkCommandBuffer, VkBuffer)) {
    graph.add_pass(name, graph::PassKind::Compute)
        .read_write_buffer(planes)
        .execute([this, color, planes, call](graph::PassContext& ctx) {
          const VkBuffer buffer = ctx.buffer(planes).handle;
          (plan_for(ctx.vk, ctx.extent(color), buffer).*call)(ctx.cmd, buffer);
        });
  }

  static vkfft::Device device_of(const vk::Context& ctx) {
    return {ctx.physical_device(), ctx.device(), ctx.queue(), ctx.queue_family()};
  }

  // The plan for this size and `planes`: a plan per buffer the graphs give (bench runs three graphs
  // over the one filter), since rebinding a plan would wait for the queue every frame.
  vkfft::R2CPlan& plan_for(const vk::Context& ctx, VkExtent2D image, VkBuffer planes) {
    const Layout l = layout_for(kernel_, image);
    const VkExtent2D size = size_for(ctx, l);
    std::unique_ptr<vkfft::R2CPlan>& plan = plans_[planes];
    if (!plan)
      plan = std::make_unique<vkfft::R2CPlan>(device_of(ctx), size.width, size.height, 4, planes,
                                              fused_ ? vkfft::Role::Convolution : vkfft::Role::Transform,
                                              spectrum_.handle(), spectrum_planes_);
    return *plan;
  }

  // The transform's size for this layout, the kernel's spectrum made for it: anew when the size
  // changes, after the plans of the old size are dropped.
  VkExtent2D size_for(const vk::Context& ctx, const Layout& l) {
    const VkExtent2D size{uint32_t(l.push.fft_width), uint32_t(l.push.fft_height)};
    if (size.width != plan_extent_.width || size.height != plan_extent_.height) {
      // No frame in flight may still use the old plans or spectrum; this happens once per size.
      VK_CHECK(vkQueueWaitIdle(ctx.queue()));
      plans_.clear();
      spectrum_ = make_spectrum(ctx, l, fused_ ? vkfft::Role::ConvolutionKernel : vkfft::Role::Transform,
                                spectrum_planes_);
      plan_extent_ = size;
    }
    return size;
  }

  // The kernel wrapped around the origin, k(a, b) at ((a - cx) mod W, (b - cy) mod H) of each of
  // `planes` planes (channel c's kernel in plane c), uploaded and transformed in place by a plan of its
  // own in `role`.
  vk::Buffer make_spectrum(const vk::Context& ctx, const Layout& l, vkfft::Role role, uint32_t planes) const {
    const VkDeviceSize bytes = vkfft::spectrum_bytes(uint32_t(l.push.fft_width), uint32_t(l.push.fft_height), planes);
    vk::Buffer spectrum(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false,
                        "convolve kernel spectrum");
    vkfft::R2CPlan plan(device_of(ctx), uint32_t(l.push.fft_width), uint32_t(l.push.fft_height), planes,
                        spectrum.handle(), role);
    vk::Buffer staging(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, "convolve kernel staging");
    std::memset(staging.mapped(), 0, bytes);
    float* words = static_cast<float*>(staging.mapped());
    const shader::FftPush& p = l.push;
    for (int c = 0; c < int(planes); ++c)
      for (int b = 0; b < kernel_.height; ++b)
        for (int a = 0; a < kernel_.width; ++a) {
          const int u = ((a - kernel_.centre_x()) % p.fft_width + p.fft_width) % p.fft_width;
          const int v = ((b - kernel_.centre_y()) % p.fft_height + p.fft_height) % p.fft_height;
          words[size_t(c) * p.plane_floats + size_t(v) * p.row_floats + u] =
              float(kernel_.at(kernel_.plane_of(c), a, b));
        }
    vk::OneShotCommands(ctx).run([&](VkCommandBuffer cmd) {
      const VkBufferCopy whole{0, 0, bytes};
      vkCmdCopyBuffer(cmd, staging.handle(), spectrum.handle(), 1, &whole);
      // Outside the graph, so ordered here: the upload before the transform.
      VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
      barrier.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
      barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
      barrier.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
      barrier.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
      VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      dependency.memoryBarrierCount = 1;
      dependency.pMemoryBarriers = &barrier;
      vkCmdPipelineBarrier2(cmd, &dependency);
      plan.forward(cmd, spectrum.handle());
    });
    return spectrum;
  }

  passes::PassEnv env_;
  VkFormat format_;
  Kernel kernel_;
  bool fused_;
  uint32_t spectrum_planes_;
  std::map<VkBuffer, std::unique_ptr<vkfft::R2CPlan>> plans_;
  VkExtent2D plan_extent_{};
  vk::Buffer spectrum_;
  VkExtent2D view_extent_{};
  vk::Buffer view_spectrum_;  // name.spectrum's
};

}  // namespace

Method fft_method() {
  Method m;
  m.name = "fft.vkfft";
  m.passes = 5;
  m.description =
      "VkFFT's 2D real-to-complex transform of the padded image, the product with the kernel's spectrum (made "
      "once per size; fused into the transforms by VkFFT's convolution mode, or a pass of its own), the "
      "inverse: cost independent of the kernel's size";
  m.cost = [](const ParamValues&) { return MethodCost{1, 0, 0}; };
  m.check_extent = [](const ParamValues& v, uint32_t width, uint32_t height) {
    const Layout l = layout_for(make_kernel(v), {width, height});
    if (double(l.bytes) > CONVOLVE_MAX_TRANSFORM_BYTES)
      throw ChainError("convolve: fft.vkfft's transform of " + std::to_string(width) + "x" + std::to_string(height) +
                       " (" + std::to_string(l.push.fft_width) + "x" + std::to_string(l.push.fft_height) +
                       ", four planes) needs " + std::to_string(l.bytes >> 20) +
                       " MiB in one buffer; at most 4096 MiB fit");
  };
  m.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<FftConvolution>(env); };
  return m;
}

}  // namespace filterlab::filters::convolve
