#pragma once
// Dear ImGui 1.86 (Debian's libimgui-dev) inside the render graph. The backend draws inside a
// VkRenderPass, so the "ui" pass is a graphics pass that begins a one-subpass render pass of its
// own over the graph's image (load, store, attachment layout in and out): the graph still derives
// the barrier and layout before it and after it, like any other color attachment access.
//
//   ImGuiLayer ui(ctx, window, frames_in_flight);
//   ui.add_to(graph, "window");      // once per graph build
//   per frame: ui.begin_frame(); ...ImGui calls...; ui.end_frame(); then record the graph.
#include "graph/graph.h"
#include "vk/context.h"

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

  // The UI wants the mouse / keyboard (the viewport should not react to them).

 private:
  void record(graph::PassContext& ctx, const std::string& target);

  const vk::Context& ctx_;
  VkFormat format_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  // One framebuffer per frame slot, made at record time: by then the slot's previous frame has
  // finished, so its framebuffer (whose view may be gone after a resize) can be destroyed.
  std::vector<VkFramebuffer> framebuffers_;
  bool has_frame_ = false;
};

}  // namespace filterlab::app
