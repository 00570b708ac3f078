#pragma once
// What the window is made of before its first frame: the state it starts in, the device and
// swapchain options, the shader source and pipeline library, and the renderer (the graph, the UI,
// the frame ring) that every frame uses.
#include "app_state.h"
#include "glfw_window.h"
#include "live_graph.h"
#include "runtime/capture.h"
#include "runtime/frame_ring.h"
#include "ui/imgui_layer.h"
#include "vk/pipeline_library.h"
#include "vk/resources.h"
#include "vk/swapchain.h"
#include "window_app.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::app {

inline constexpr uint32_t kFramesInFlight = runtime::kFramesInFlight;

// The state the window starts in. Throws filters::ChainError for a chain the device cannot run.
AppState initial_state(const runtime::RunOptions& options, const WindowOptions& window_options);
vk::ContextOptions window_context_options(const runtime::RunOptions& options);
vk::SwapchainOptions window_swapchain_options(const WindowOptions& window_options);
// The swapchain's facts into the result, its remarks on stderr. Throws when --screenshot cannot
// read the swapchain's images back.
void describe_swapchain(const vk::Swapchain& swapchain, const WindowOptions& window_options,
                        WindowResult& result);
// Where hot reload reads shaders from: --shader-source, else this build's source tree while it
// exists (a developer's checkout), else the SPIR-V next to the binary.
vk::ShaderSource window_shader_source(const runtime::RunOptions& options, bool hot_reload);
std::unique_ptr<vk::PipelineLibrary> make_library(const vk::Context& ctx, const vk::ShaderSource& shaders,
                                                  const WindowOptions& window_options, WindowResult& result);

// --screenshot: the last frame's swapchain image, copied out by that frame's present pass.
class PresentedScreenshot {
 public:
  // The frame about to be recorded into `target` copies its image into a new buffer.
  void arm(const vk::Context& ctx, PresentTarget& target) {
    buffer_.emplace(ctx, VkDeviceSize(target.extent.width) * target.extent.height * 4,
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, "screenshot");
    target.readback = &*buffer_;
    extent_ = target.extent;
  }
  bool armed() const { return buffer_.has_value(); }
  // Once that frame has finished.
  void write(VkFormat swapchain_format, const std::filesystem::path& path,
             const passes::Display& display) const {
    std::vector<uint8_t> rgba =
        vk::swapchain_pixels_to_rgba(buffer_->mapped(), buffer_->size(), swapchain_format);
    runtime::write_capture(graph::Readback{VK_FORMAT_R8G8B8A8_UNORM, extent_, std::move(rgba)}, path,
                           display);
  }

 private:
  std::optional<vk::Buffer> buffer_;
  VkExtent2D extent_{};
};

// What renders into the window, in construction order; destroyed in reverse, the graph (which
// waits for the GPU) before the buffers its frames use, the library (whose pipelines the passes
// hold) after the passes.
struct WindowRenderer {
  WindowRenderer(const vk::Context& ctx, const Window& window, const runtime::RunOptions& options,
                 const WindowOptions& window_options, WindowResult& result)
      : shaders(window_shader_source(options, window_options.hot_reload)),
        library(make_library(ctx, shaders, window_options, result)),
        env{ctx, shaders, kFramesInFlight, library.get()},
        ui(ctx, window.get(), kFramesInFlight),
        ring(ctx),
        graph(ctx, env, ui, capture_images(options), options.gpu_timing) {}

  static std::vector<std::string> capture_images(const runtime::RunOptions& options) {
    std::vector<std::string> images;
    for (const runtime::Capture& c : options.captures) images.push_back(c.image);
    return images;
  }

  vk::ShaderSource shaders;
  std::unique_ptr<vk::PipelineLibrary> library;  // hot reload, when on
  passes::PassEnv env;
  ImGuiLayer ui;
  runtime::FrameRing ring;
  PresentedScreenshot presented;
  LiveGraph graph;
};

}  // namespace filterlab::app
