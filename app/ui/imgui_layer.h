#pragma once
// Dear ImGui 1.86 (Debian's libimgui-dev) inside the render graph. The backend draws inside a
// VkRenderPass, so the "ui" pass is a graphics pass that begins a one-subpass render pass of its
// own over the graph's image (load, store, attachment layout in and out): the graph still derives
// the barrier and layout before it and after it, like any other color attachment access.
//
//   ImGuiLayer ui(ctx, window, frames_in_flight);
//   ui.add_to(graph, "window");      // once per graph build
//   ui.targets_changed();            // after each Executor::prepare (and with a new executor)
//   per frame: ui.begin_frame(); ...ImGui calls...; ui.end_frame(); then record the graph.
//
// The render pass needs a VkFramebuffer over the target's view. One is made when a frame first
// draws over a view and kept for the frames after; targets_changed() retires them, and a retired
// framebuffer is destroyed once the frames that used it have finished.
#include "graph/graph.h"
#include "vk/context.h"

#include <cstdint>
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

  // The images the "ui" pass draws over may have been destroyed and recreated, possibly under the
  // same view handles (the executor prepared a graph again, or a new executor took over): the
  // framebuffers made so far are never used again.
  void targets_changed();
  uint32_t framebuffers_created() const { return framebuffers_created_; }

 private:
  struct Framebuffer {
    VkImageView view = VK_NULL_HANDLE;
    VkExtent2D extent{};
    VkFramebuffer handle = VK_NULL_HANDLE;
    uint64_t last_frame = 0;  // the last frame recorded with it
    bool retired = false;     // its view may be gone
  };

  void record(graph::PassContext& ctx, const std::string& target);
  VkFramebuffer framebuffer_for(VkImageView view, VkExtent2D extent, uint64_t frame);
  void destroy_finished(uint64_t frame);

  const vk::Context& ctx_;
  VkFormat format_;
  uint32_t frames_in_flight_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  std::vector<Framebuffer> framebuffers_;  // one per target view, and the retired ones
  uint32_t framebuffers_created_ = 0;
  bool has_frame_ = false;
};

}  // namespace filterlab::app
