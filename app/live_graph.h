#pragma once
// The window's render graph as it runs: the graph of the current GraphConfig (window_graph.h) with
// the UI pass and the "present" pass added, its pass objects and the executor that records it.
// A new configuration is built beside the current graph and replaces it only once it compiled; a
// new window size, graph or executor prepares the executor again before the next record.
#include "app_state.h"
#include "graph/executor.h"
#include "ui/imgui_layer.h"
#include "vk/resources.h"
#include "vk/retire_list.h"
#include "window_graph.h"

#include <memory>
#include <string>
#include <vector>

namespace filterlab::app {

// Where a frame's "present" pass copies the window image: the acquired swapchain image, and with
// `readback` also a host-visible buffer (the --screenshot).
struct PresentTarget {
  VkImage image = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  const vk::Buffer* readback = nullptr;
};

class LiveGraph {
 public:
  // `captures`: images every frame must produce besides the window. `env` and the UI layer must
  // outlive the graph. Build a configuration before the first prepare.
  LiveGraph(const vk::Context& ctx, const passes::PassEnv& env, ImGuiLayer& ui,
            const std::vector<std::string>& captures, bool gpu_timing);
  ~LiveGraph();  // waits for the GPU: frames in flight use the passes and the executor's images
  LiveGraph(const LiveGraph&) = delete;
  LiveGraph& operator=(const LiveGraph&) = delete;

  // Builds the graph for `config` beside the current one, checks it, then replaces it from frame
  // `frame` on. The replaced graph and its passes are kept until the frames before `frame` (which
  // recorded them) have finished, so an edit does not wait for the GPU. Throws, leaving the
  // current graph in place, for a chain or image the device or graph cannot have
  // (filters::ChainError, runtime::UnknownImageError, graph::GraphError, vk::ShaderCompileError).
  void build(const GraphConfig& config, const AppState& state, uint64_t frame);
  // A new executor from frame `frame` on when the timestamp switch changed; the replaced one is kept
  // until the frames before `frame` have finished, like a replaced graph. True if so.
  bool set_gpu_timing(bool on, uint64_t frame);
  void resized() { prepared_ = false; }  // the window's size changed
  // Prepares the executor for the viewport's `extent` (the graph's output) in a window of `surface`
  // (the window image) unless nothing changed since the last time.
  void prepare(VkExtent2D extent, VkExtent2D surface);
  // Records frame `frame`, copying the window image into `target`. The frames before
  // `frame - frames in flight + 1` must have finished (the frame ring waited for the slot).
  void record(VkCommandBuffer cmd, uint64_t frame, const PresentTarget& target);

  const GraphConfig& config() const { return config_; }
  WindowGraph& objects() { return objects_; }
  graph::Executor& executor() { return *executor_; }
  uint32_t builds() const { return builds_; }
  uint32_t prepares() const { return prepares_; }
  // Replaced, not yet destroyed.
  size_t retired_graphs() const { return retired_.size(); }
  size_t retired_executors() const { return retired_executors_.size(); }

 private:
  const vk::Context& ctx_;
  const passes::PassEnv& env_;
  ImGuiLayer& ui_;
  std::vector<std::string> captures_;  // read back as floats: checked at each build
  std::vector<std::string> outputs_;   // the window image, then the captures
  PresentTarget target_;  // the present pass reads it when recorded
  std::unique_ptr<graph::RenderGraph> graph_;
  WindowGraph objects_;
  std::unique_ptr<graph::Executor> executor_;
  // A replaced graph with its passes (the graph's passes refer to them).
  struct Replaced {
    std::unique_ptr<graph::RenderGraph> graph;
    WindowGraph objects;
  };
  vk::FrameRetireList<Replaced> retired_;
  vk::FrameRetireList<std::unique_ptr<graph::Executor>> retired_executors_;
  GraphConfig config_;
  bool prepared_ = false;
  VkExtent2D prepared_extent_{}, prepared_surface_{};
  uint32_t builds_ = 0, prepares_ = 0;
};

}  // namespace filterlab::app
