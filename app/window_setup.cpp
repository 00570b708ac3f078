#include "window_setup.h"

#include "filters/chain.h"
#include "scene/gltf_scene.h"

#include <cstdio>

namespace filterlab::app {

// The state the window starts in. Throws filters::ChainError for a chain the device cannot run.
AppState initial_state(const runtime::RunOptions& options, const WindowOptions& window_options) {
  AppState state;
  state.graph.chain_a = ChainConfig::parse(options.chain);
  filters::check_chain(state.graph.chain_a.enabled_steps(), options.size.width, options.size.height);
  if (window_options.compare_chain) {
    state.graph.compare = true;
    state.graph.chain_b = ChainConfig::parse(*window_options.compare_chain);
    filters::check_chain(state.graph.chain_b.enabled_steps(), options.size.width, options.size.height);
  } else {
    state.graph.chain_b = state.graph.chain_a;
  }
  state.graph.viewport = window_options.viewport;
  state.scene = options.scene;
  state.graph.still = options.still;
  state.graph.scene_model = options.scene_model;
  if (options.image) state.graph.still_file = options.image->string();
  if (options.scene_file) state.graph.scene_file = options.scene_file->string();
  state.exposure = options.display.exposure;
  state.tonemapper = options.display.tonemapper;
  state.graph.auto_exposure = options.display.automatic;
  state.paused = window_options.paused;
  state.compare.mode = window_options.compare_mode;
  state.metrics_on_hdr = window_options.metrics_on_hdr;
  if (window_options.divider) state.compare.divider_x = *window_options.divider;
  state.compare.gain = window_options.gain;
  if (window_options.preset) apply_preset(*window_options.preset, state);
  state.gpu_timing = options.gpu_timing;
  state.show_ui = window_options.show_ui;
  return state;
}

vk::ContextOptions window_context_options(const runtime::RunOptions& options) {
  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  context_options.compute_derivatives = true;  // comp.quad_derivative methods, where the device has them
  context_options.swapchain = true;
  context_options.instance_extensions = Glfw::instance_extensions();
  return context_options;
}

vk::SwapchainOptions window_swapchain_options(const WindowOptions& window_options) {
  vk::SwapchainOptions swapchain_options;
  swapchain_options.present_mode = window_options.present_mode;
  swapchain_options.require_present_mode = window_options.require_present_mode;
  swapchain_options.frames_in_flight = kFramesInFlight;
  return swapchain_options;
}

// The swapchain's facts into the result, its remarks on stderr. Throws when --screenshot cannot
// read the swapchain's images back.
void describe_swapchain(const vk::Swapchain& swapchain, const WindowOptions& window_options,
                        WindowResult& result) {
  result.swapchain_format = swapchain.format();
  result.present_mode = vk::present_mode_name(swapchain.present_mode());
  result.note = swapchain.note();
  if (!result.note.empty()) std::fprintf(stderr, "filterlab: %s\n", result.note.c_str());
  if (!vk::present_copy_supported(VK_FORMAT_R8G8B8A8_UNORM, swapchain.format()))
    std::fprintf(stderr, "filterlab: the swapchain format cannot show the image exactly\n");
  if (window_options.screenshot && !(swapchain.usage() & VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
    throw vk::SwapchainError("--screenshot: swapchain images cannot be read back on this surface");
}

// Where hot reload reads shaders from: --shader-source, else this build's source tree while it
// exists (a developer's checkout), else the SPIR-V next to the binary.
vk::ShaderSource window_shader_source(const runtime::RunOptions& options, bool hot_reload) {
  vk::ShaderSource source{options.shader_dir, options.glsl_dir};
#ifdef FILTERLAB_SOURCE_SHADER_DIR
  if (hot_reload && !source.glsl_dir && std::filesystem::is_directory(FILTERLAB_SOURCE_SHADER_DIR))
    source.glsl_dir = std::filesystem::path(FILTERLAB_SOURCE_SHADER_DIR);
#else
  (void)hot_reload;
#endif
  return source;
}

std::unique_ptr<vk::PipelineLibrary> make_library(const vk::Context& ctx, const vk::ShaderSource& shaders,
                                                  const WindowOptions& window_options, WindowResult& result) {
  if (!window_options.hot_reload) return nullptr;
  result.shader_source = shaders.glsl_dir ? shaders.glsl_dir->string() + " (GLSL, shaderc)"
                                          : shaders.spirv_dir.string() + " (SPIR-V)";
  return std::make_unique<vk::PipelineLibrary>(
      ctx, shaders, vk::PipelineLibraryOptions{kFramesInFlight, window_options.hot_reload_interval, true});
}

}  // namespace filterlab::app
