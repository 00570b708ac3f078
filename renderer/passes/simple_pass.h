#pragma once
// A pass that is one compute dispatch or one full-screen triangle, declared in a few lines: what it
// samples, loads, stores and binds, each at its binding number (shaders/config.h, which the shader
// includes too). The graph accesses, the pipeline's layout and the descriptor bindings all follow
// from that one list, so they cannot drift apart.
//
//   SimplePass(env, "tonemap", ComputeShader{"passes/tonemap.comp"})
//       .sample(BINDING_SOURCE, input, graph::Sampling::Linear)
//       .store(BINDING_DESTINATION, "final")
//       .constants(exposure)
//       .dispatch_over("final", 16, 16)
//       .add_to(graph);
//
// add_to() builds the pipeline (through the hot-reload library when the env has one) and hands the
// pass's state to the graph, which keeps it as long as it keeps the pass. Buffers given by
// reference must outlive the graph's use of them (their filter owns them).
#include "graph/executor.h"
#include "passes/pass_env.h"

#include <array>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::passes {

struct ComputeShader {
  std::string shader;  // vk::ShaderName spelling: "filters/copy/copy.comp#fp16"
  std::vector<uint32_t> specialization = {};
};

// A full-screen triangle (filters/common/fullscreen.vert) into one colour attachment it covers whole.
struct FragmentShader {
  std::string shader;
  VkFormat color_format = VK_FORMAT_R16G16B16A16_SFLOAT;
  std::vector<uint32_t> specialization = {};
};

// Buffers the caller owns, one per frame-in-flight slot, as RenderGraph::import_buffer takes them
// (per-frame results the host reads after the frame's fence). They must outlive the graph's use.
graph::BufferSource per_slot(const std::vector<vk::Buffer>& buffers);

class SimplePass {
 public:
  SimplePass(const PassEnv& env, std::string name, ComputeShader shader);
  SimplePass(const PassEnv& env, std::string name, FragmentShader shader);

  // An image sampled at two bindings is one access to the graph. `mips`: the levels read (all).
  SimplePass& sample(uint32_t binding, const std::string& image,
                     graph::Sampling sampling = graph::Sampling::Nearest, graph::MipRange mips = {});
  SimplePass& sample_history(uint32_t binding, const std::string& image,
                             graph::Sampling sampling = graph::Sampling::Linear);
  SimplePass& load(uint32_t binding, const std::string& image);   // imageLoad
  SimplePass& store(uint32_t binding, const std::string& image);  // imageStore over every texel
  // imageStore over some texels: what it leaves alone is kept, so the graph orders it after the
  // image's earlier writer (graph/usage.h).
  SimplePass& store_part(uint32_t binding, const std::string& image);
  SimplePass& uniform(uint32_t binding, const vk::Buffer& buffer);
  SimplePass& storage_buffer(uint32_t binding, const vk::Buffer& buffer);
  // A buffer the graph holds (RenderGraph::declare_buffer), read, written whole, or both; the graph
  // orders the passes that share it.
  SimplePass& graph_buffer(uint32_t binding, const std::string& buffer, graph::BufferUsage usage);
  // The fragment shader's outputs, covered whole: location 0, 1, ... in the order given.
  SimplePass& color(const std::string& image);

  // Push constants, copied when the pass is recorded: a value, or made from the frame's context.
  template <typename T>
  SimplePass& constants(const T& value) {
    return constants_from<T>([value](graph::PassContext&) { return value; });
  }
  template <typename T>
  SimplePass& constants_from(std::function<T(graph::PassContext&)> make) {
    push_size_ = sizeof(T);
    push_ = [make = std::move(make)](graph::PassContext& ctx, std::vector<uint8_t>& bytes) {
      const T value = make(ctx);
      bytes.resize(sizeof(T));
      std::memcpy(bytes.data(), &value, sizeof(T));
    };
    return *this;
  }

  // Compute: groups of local_x x local_y threads covering `image` (mip 0), or groups computed from
  // the frame's context (after the push constants, which may check the image's size first).
  SimplePass& dispatch_over(const std::string& image, uint32_t local_x, uint32_t local_y);
  SimplePass& dispatch(std::function<std::array<uint32_t, 2>(graph::PassContext&)> groups);
  // Records nothing in a frame where `idle` says so (PassContext::skip).
  SimplePass& skip_when(std::function<bool(graph::PassContext&)> idle);

  void add_to(graph::RenderGraph& graph);

 private:
  enum class Kind { Sampled, SampledHistory, Load, Store, StorePart, Uniform, StorageBuffer, GraphBuffer };
  struct Binding {
    uint32_t number;
    Kind kind;
    std::string image;
    graph::Sampling sampling = graph::Sampling::Nearest;
    const vk::Buffer* buffer = nullptr;
    graph::BufferUsage buffer_usage = graph::BufferUsage::StorageReadCompute;  // GraphBuffer
    graph::MipRange mips = {};                                                 // Sampled
  };
  struct State;
  SimplePass& add(Binding binding);

  PassEnv env_;
  std::string name_;
  std::optional<ComputeShader> compute_;
  std::optional<FragmentShader> fragment_;
  std::vector<Binding> bindings_;
  std::vector<std::string> colors_;
  uint32_t push_size_ = 0;
  std::function<void(graph::PassContext&, std::vector<uint8_t>&)> push_;
  std::function<std::array<uint32_t, 2>(graph::PassContext&)> groups_;
  std::function<bool(graph::PassContext&)> idle_;
};

}  // namespace filterlab::passes
