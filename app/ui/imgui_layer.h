#pragma once
// Dear ImGui 1.86 (Debian's libimgui-dev) inside the render graph. The backend draws inside a
// VkRenderPass, so the "ui" pass is a graphics pass that begins a one-subpass render pass of its
// own over the graph's image (load, store, attachment layout in and out): the graph still derives
// the barrier and layout before it and after it, like any other color attachment access.
//
//   ImGuiLayer ui(ctx, window, frames_in_flight);
//   ui.add_to(graph, "window");      // once per graph build
//   per frame: ui.begin_frame(); ...ImGui calls...; ui.end_frame(); then record the graph.
//
// The render pass needs a VkFramebuffer over the target's view. One is made when a frame first
// draws over a physical image, known by its generation (graph::PassContext::BoundImage), which no
// other image ever gets, even under the same handles: executors may prepare again or be replaced
// at any time, and nobody has to tell the layer. A framebuffer is kept while the frames draw over
// its image; once a frame draws over another, it is retired and destroyed when the frames that
// used it have finished.
#include "graph/executor.h"
#include "vk/context.h"
#include "vk/retire_list.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace filterlab::app {

class ImGuiLayer {
 public:
  // `target_format`: the format of the images add_to draws over.
  ImGuiLayer(const vk::Context& ctx, GLFWwindow* window, uint32_t frames_in_flight,
             VkFormat target_format = VK_FORMAT_R8G8B8A8_UNORM);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  void begin_frame();
  void end_frame();  // ImGui::Render(); the next recorded "ui" pass draws this frame's lists

  // Declares the pass "ui" drawing the current frame's UI over `target` (read and written).
  void add_to(graph::RenderGraph& graph, const std::string& target);

  uint32_t framebuffers_created() const { return framebuffers_created_; }
  // Framebuffers not destroyed yet: the current one and the retired ones frames may still use.
  size_t framebuffers_held() const { return (current_ ? 1 : 0) + retired_.size(); }

 private:
  struct Framebuffer {
    uint64_t generation = 0;  // of the image it draws over
    VkFramebuffer handle = VK_NULL_HANDLE;
    uint64_t last_frame = 0;  // the last frame recorded with it
  };

  void record(graph::PassContext& ctx, const std::string& target);
  VkFramebuffer framebuffer_for(const graph::PassContext::BoundImage& image, uint64_t frame);

  const vk::Context& ctx_;
  VkFormat format_;
  uint32_t frames_in_flight_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  std::optional<Framebuffer> current_;  // over the image the latest frame drew over
  vk::FrameRetireList<VkFramebuffer> retired_;
  uint32_t framebuffers_created_ = 0;
  bool has_frame_ = false;
};

}  // namespace filterlab::app
