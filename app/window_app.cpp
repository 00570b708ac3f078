#include "window_app.h"

#include "filters/chain.h"
#include "glfw_window.h"
#include "io/image_files.h"
#include "live_graph.h"
#include "runtime/capture.h"
#include "runtime/frame_ring.h"
#include "scene/gltf_scene.h"
#include "screenshot.h"
#include "ui/imgui_layer.h"
#include "ui/panel.h"
#include "ui/timing_history.h"
#include "ui/viewport_input.h"
#include "vk/resources.h"
#include "window_test_hooks.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>

namespace filterlab::app {

namespace {

constexpr uint32_t kFramesInFlight = runtime::kFramesInFlight;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// ---- Setup -----------------------------------------------------------------------------------

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

// ---- Per-frame input and UI ------------------------------------------------------------------

// What the loop learns from the frames it renders, for the panel, the test probe and screenshots.
struct Readouts {
  TimingHistory timings;
  std::optional<passes::CompareMetrics> metrics;            // of the latest finished frame, compare on: HDR
  std::optional<passes::CompareMetrics> displayed_metrics;  // and of its displayed pair
  std::optional<passes::PixelValues> pixel;                 // the inspector's, of the latest finished frame
  std::string chain_error;                        // why the last graph edit was refused
  std::string status;                             // the last screenshot's outcome
  std::string content_error;                      // why the last image opened in the panel was not
  std::string preset_status;                      // the last preset saved or loaded, or why not
  // The state before a preset was loaded, until the graph it asks for is built: a preset the graph
  // refuses (a viewport image it does not make, say) is taken back whole, not only its graph part.
  std::optional<AppState> before_preset;
};

// The panel's "open": a glTF scene in place of the built-in one, or an image in place of any scene
// (the graph is rebuilt with it). A file that cannot be read, or for an image a chain step that
// needs the scene's depth or motion, keeps what was shown and says why.
void open_content(AppState& state, const std::string& file, Readouts& readouts) {
  try {
    const std::string ext = std::filesystem::path(file).extension().string();
    if (ext == ".gltf" || ext == ".glb") {
      state.graph.scene_model = scene::load_gltf(file).scene;
      state.graph.scene_file = file;
      state.graph.still.reset();
      state.graph.still_file.clear();
    } else {
      for (const ChainConfig* chain : {&state.graph.chain_a, &state.graph.chain_b})
        filters::check_steps_on_still_image(chain->enabled_steps());
      state.graph.still = std::make_shared<const io::ImageF>(io::read_image_file(file, io::Encoding::Srgb));
      state.graph.still_file = file;
    }
    readouts.content_error.clear();
  } catch (const std::exception& e) {  // io::IoError, filters::ChainError
    readouts.content_error = e.what();
  }
}

// The panel's preset buttons. Loading reads the file and the content it names into a copy of the
// state, which replaces the state only once all of it worked.
void save_preset_file(const AppState& state, const std::string& file, Readouts& readouts) {
  try {
    save_preset(file, preset_of(state));
    readouts.preset_status = "saved " + file;
  } catch (const std::exception& e) {
    readouts.preset_status = e.what();
  }
}

void load_preset_file(AppState& state, const std::string& file, Readouts& readouts) {
  try {
    const Preset preset = load_preset(file);
    AppState next = state;
    apply_preset(preset, next);
    const std::string content = !preset.image_file.empty() ? preset.image_file : preset.scene_file;
    if (content.empty()) {
      next.graph.still.reset();
      next.graph.still_file.clear();
      next.graph.scene_model.reset();
      next.graph.scene_file.clear();
    } else if (content != (next.graph.still ? next.graph.still_file : next.graph.scene_file)) {
      Readouts opened;
      open_content(next, content, opened);
      if (!opened.content_error.empty()) throw std::runtime_error(opened.content_error);
    }
    readouts.before_preset = state;
    state = std::move(next);
    readouts.preset_status = "loaded " + file;
  } catch (const std::exception& e) {
    readouts.preset_status = e.what();
  }
}

// What the panel's buttons ask for (or a test's probe, pressing them), done; true for a screenshot.
bool take_actions(const PanelActions& actions, AppState& state, Readouts& readouts) {
  if (actions.open) open_content(state, *actions.open, readouts);
  if (actions.save_preset) save_preset_file(state, *actions.save_preset, readouts);
  if (actions.load_preset) load_preset_file(state, *actions.load_preset, readouts);
  return actions.screenshot;
}

// CPU time from one frame's start to the next one's.
class FrameClock {
 public:
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The slot's previous frame has finished: its timings and compare metrics are readable.
void read_finished_frame(LiveGraph& graph, uint32_t slot, double cpu_frame_ms, Readouts& readouts) {
  if (std::optional<std::vector<graph::PassTiming>> t = graph.executor().timings(slot))
    readouts.timings.add_frame(*t, cpu_frame_ms);
  if (graph.objects().compare)
    if (std::optional<passes::CompareMetrics> m = graph.objects().compare->metrics(slot))
      readouts.metrics = m;
  if (graph.objects().compare_displayed)
    if (std::optional<passes::CompareMetrics> m = graph.objects().compare_displayed->metrics(slot))
      readouts.displayed_metrics = m;
  if (std::optional<passes::PixelValues> p = graph.objects().probe->read(slot)) readouts.pixel = p;
}

// Nothing to show: lets the GPU finish, then sleeps in the event queue. No rebuild here; the size
// is looked at again once the window is back.
void sleep_while_minimized(GLFWwindow* window, TestHooks& hooks, runtime::FrameRing& ring, uint64_t frame,
                           WindowResult& result) {
  ring.wait_for(frame);
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  result.minimized_wait_frames.push_back(frame);
  if (hooks.drives_minimize()) hooks.wait_minimized(window);
  else glfwWaitEvents();
  result.minimized_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.minimized_cpu_s += cpu_seconds() - cpu_start;
}

// What the panel shows besides the state and the readouts.
struct PanelFacts {
  const vk::Context& ctx;
  const vk::PipelineLibrary* library;  // hot reload, when on
  const std::vector<std::string>& viewport_sources;
  VkExtent2D window;  // the swapchain's
  const std::string& present_mode;
};

// The window's regions for this state (ui/layout.h), and the viewport's size: the graph's output.
WindowLayout layout_of(const AppState& state, VkExtent2D window) {
  return window_layout(float(window.width), float(window.height), state.columns, state.show_ui);
}
VkExtent2D viewport_extent(const WindowLayout& layout) {
  return {uint32_t(std::max(layout.viewport.w, 1.0f)), uint32_t(std::max(layout.viewport.h, 1.0f))};
}

// This frame's input, test probe and panel, which edit `state`. True when a screenshot was asked
// for (key, button or hook).
bool update_ui(ImGuiLayer& ui, ViewportInput& viewport_input, TestHooks& hooks, AppState& state,
               Readouts& readouts, const PanelFacts& facts, uint64_t frame, WindowResult& result) {
  ui.begin_frame();
  viewport_input.update(state, layout_of(state, facts.window).viewport);
  bool take_screenshot = handle_keys(state);
  if (state.step_once) {
    state.step_once = false;
    ++state.animation_frame;
  }
  take_screenshot |= take_actions(hooks.probe(frame, state, facts.library, readouts.metrics,
                                              readouts.chain_error, readouts.preset_status),
                                  state, readouts);
  const WindowLayout layout = layout_of(state, facts.window);
  if (state.graph.compare) draw_compare_labels(state.compare, viewport_extent(layout), layout.viewport);
  draw_pinned_marker(state.inspector, layout.viewport);
  if (state.show_ui) {
    const PanelInputs in{
        .ctx = facts.ctx,
        .timings = readouts.timings,
        .viewport_sources = facts.viewport_sources,
        .metrics = readouts.metrics,
        .displayed_metrics = readouts.displayed_metrics,
        .pixel = readouts.pixel,
        .shader_errors = facts.library ? facts.library->errors() : std::vector<vk::ShaderError>{},
        .chain_error = readouts.chain_error,
        .status = readouts.status,
        .content_error = readouts.content_error,
        .preset_status = readouts.preset_status,
        .extent = viewport_extent(layout),
        .layout = layout,
        .present_mode = facts.present_mode,
        .hot_reload = facts.library != nullptr};
    take_screenshot |= take_actions(draw_panel(state, in), state, readouts);
    ++result.ui_frames;
  }
  ui.end_frame();
  return take_screenshot;
}

// ---- Graph rebuild ---------------------------------------------------------------------------

// Rebuilds the graph when the panel or a probe changed its configuration; an edit the device or
// graph refuses is undone and explained. A changed timestamp switch takes a new executor.
void apply_graph_edits(LiveGraph& graph, AppState& state, VkExtent2D extent, uint64_t frame,
                       Readouts& readouts) {
  if (state.graph.compare && !graph.config().compare && state.compare.divider_x <= 0)
    state.compare.divider_x = int32_t(extent.width / 2);
  if (!(state.graph == graph.config())) {
    try {
      for (const ChainConfig* chain : {&state.graph.chain_a, &state.graph.chain_b})
        filters::check_chain(chain->enabled_steps(), extent.width,
                             extent.height);  // a ROI that leaves the view
      graph.build(state.graph, state, frame);
      readouts.metrics.reset();
      readouts.displayed_metrics.reset();
      readouts.pixel.reset();
      readouts.chain_error.clear();
      readouts.timings.clear();
    } catch (const std::exception& e) {  // ChainError, UnknownImageError, GraphError, ShaderCompileError
      readouts.chain_error = std::string("not applied: ") + e.what();
      if (readouts.before_preset) {
        state = *readouts.before_preset;
        readouts.preset_status = "preset not loaded: " + std::string(e.what());
      }
      state.graph = graph.config();
    }
  }
  readouts.before_preset.reset();
  if (graph.set_gpu_timing(state.gpu_timing, frame)) readouts.timings.clear();
}

// After a resize: a step whose parameters no longer fit the image (a ROI now outside the smaller
// view) is turned off, rather than the frame refusing to record. Returns why, for the panel.
std::string turn_off_steps_that_do_not_fit(AppState& state, VkExtent2D extent) {
  std::string why;
  for (ChainConfig* chain : {&state.graph.chain_a, &state.graph.chain_b})
    for (ChainEntry& entry : chain->entries) {
      if (!entry.enabled) continue;
      try {
        filters::check_chain({entry.step}, extent.width, extent.height);
      } catch (const filters::ChainError& e) {
        entry.enabled = false;
        why = std::string("turned off: ") + e.what();
        std::fprintf(stderr, "filterlab: %s\n", why.c_str());
      }
    }
  return why;
}

void poll_shaders(vk::PipelineLibrary* library, uint64_t frame, WindowResult& result) {
  if (!library) return;
  const vk::PollReport report = library->poll(frame);
  result.shader_reloads += report.rebuilt;
  result.shader_failures += report.failed;
}

// What the passes read while recording this frame: the scene, exposure and view settings.
void apply_frame_settings(WindowGraph& graph, const AppState& state) {
  if (graph.scene) {
    graph.scene->settings() = state.scene;
    graph.scene->settings().animation_frame = state.animation_frame;
  }
  graph.tonemap->display = state.display();
  if (graph.compare) graph.compare->settings = state.compare;
  const Inspector& i = state.inspector;
  graph.probe->pixel = i.pinned ? std::array<int32_t, 2>{i.x, i.y}
                                : std::array<int32_t, 2>{state.compare.cursor_x, state.compare.cursor_y};
  if (graph.view) {  // an HDR image viewed: the same curve and exposure (the automatic one is final's)
    graph.view->settings = state.view;
    graph.view->settings.exposure = state.exposure;
    graph.view->settings.tonemapper = state.tonemapper;
  }
}

// ---- Present ---------------------------------------------------------------------------------

// Keeps the swapchain fitting the window: rebuilt for a new framebuffer size, or after acquire or
// present found it out of date or suboptimal.
class SwapchainKeeper {
 public:
  SwapchainKeeper(vk::Swapchain& swapchain, const Window& window, WindowResult& result)
      : swapchain_(swapchain), built_for_(window.framebuffer()), rebuild_(!swapchain.valid()) {
    if (swapchain.valid()) result.builds.push_back({0, swapchain.extent()});
  }

  enum class Fit { Current, Rebuilt, EmptySurface };
  Fit fit(VkExtent2D framebuffer, uint64_t frame, WindowResult& result) {
    if (!rebuild_ && framebuffer.width == built_for_.width && framebuffer.height == built_for_.height)
      return Fit::Current;
    if (!swapchain_.recreate(framebuffer)) return Fit::EmptySurface;
    built_for_ = framebuffer;
    rebuild_ = false;
    result.builds.push_back({frame, swapchain_.extent()});
    return Fit::Rebuilt;
  }

  // nullopt: out of date, rebuilt before the next try.
  std::optional<vk::Swapchain::Frame> acquire(uint32_t slot, WindowResult& result) {
    std::optional<vk::Swapchain::Frame> image = swapchain_.acquire(slot);
    if (!image) {
      ++result.out_of_date;
      if (++out_of_date_in_a_row_ > 100)
        throw vk::SwapchainError("the swapchain stays out of date after rebuilds");
      rebuild_ = true;
      return std::nullopt;
    }
    out_of_date_in_a_row_ = 0;
    return image;
  }

  void present(const vk::Swapchain::Frame& image, WindowResult& result) {
    if (swapchain_.present(image)) {
      ++result.out_of_date;
      rebuild_ = true;
    }
  }

 private:
  vk::Swapchain& swapchain_;
  VkExtent2D built_for_;  // the framebuffer size the swapchain was built for
  bool rebuild_;
  uint32_t out_of_date_in_a_row_ = 0;
};

// Records frame `frame` into the acquired image, submits it after the acquire and presents it.
void render_and_present(WindowRenderer& renderer, SwapchainKeeper& keeper, const vk::Swapchain::Frame& image,
                        const PresentTarget& target, uint64_t frame, WindowResult& result) {
  VkCommandBuffer cmd = renderer.ring.begin(frame);
  renderer.graph.record(cmd, frame, target);
  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait.semaphore = image.acquired;
  wait.stageMask = vk::kPresentCopyStages;
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal.semaphore = image.rendered;
  signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  renderer.ring.submit(frame, &wait, &signal);
  keeper.present(image, result);
}

// ---- Screenshots and outputs -----------------------------------------------------------------

// The screenshot key, button or hook: the viewport, its float images and the sidecar, read back
// now. A failure is reported in the panel, not thrown.
void save_key_screenshot(LiveGraph& graph, const std::filesystem::path& dir, const AppState& state,
                         uint64_t frame, Readouts& readouts, WindowResult& result) {
  try {
    const ScreenshotContext context{.state = state,
                                    .timings = readouts.timings,
                                    .device = result.device,
                                    .metrics = readouts.metrics,
                                    .displayed_metrics = readouts.displayed_metrics,
                                    .pixel = readouts.pixel,
                                    .frame = frame,
                                    .output_a = graph.objects().output_a,
                                    .output_b = graph.objects().output_b};
    const ScreenshotFiles files = save_screenshot(graph.executor(), dir, context);
    readouts.status = "saved " + files.png.string() + " (+ .pfm, .json)";
    result.screenshots.push_back(files.png);
  } catch (const std::exception& e) {
    readouts.status = std::string("screenshot failed: ") + e.what();
  }
  std::fprintf(stderr, "filterlab: %s\n", readouts.status.c_str());
}

// After the last of `frames` frames (all finished): the --screenshot, run.captures and run.dump_graph.
void write_outputs(WindowRenderer& renderer, VkFormat swapchain_format, const runtime::RunOptions& options,
                   const WindowOptions& window_options, uint64_t frames, WindowResult& result) {
  if (window_options.screenshot && !renderer.presented.armed())
    std::fprintf(stderr, "filterlab: no screenshot: the window closed before a frame could be shown\n");
  if (window_options.screenshot && renderer.presented.armed()) {
    renderer.presented.write(swapchain_format, *window_options.screenshot, options.display);
    result.screenshot_written = true;
  }
  graph::Executor& executor = renderer.graph.executor();
  if (frames == 0 && !options.captures.empty())
    std::fprintf(stderr, "filterlab: no captures: the window closed before a frame was rendered\n");
  if (frames > 0)
    for (const runtime::Capture& c : options.captures) {
      runtime::write_capture(executor.read_image(c.image), c.path, options.display);
      result.captures_written.push_back(c);
    }
  if (options.dump_graph) {
    std::ofstream dot(*options.dump_graph);
    dot << executor.dot();
    if (!dot) throw io::IoError("cannot write " + options.dump_graph->string());
  }
}

// ---- The loop --------------------------------------------------------------------------------

// Renders and presents frames until the window closes or window_options.frames were shown.
// Returns the number of frames presented, all of them finished.
uint64_t run_frames(const vk::Context& ctx, Window& window, vk::Swapchain& swapchain,
                    WindowRenderer& renderer, const WindowOptions& window_options, AppState& state,
                    WindowResult& result) {
  TestHooks hooks(window_options);
  SwapchainKeeper keeper(swapchain, window, result);
  Readouts readouts;
  ViewportInput viewport_input;
  LiveGraph& graph = renderer.graph;
  uint64_t frame = 0;
  FrameClock clock;
  while (true) {
    glfwPollEvents();
    hooks.close_if_due(window.get(), frame);
    const bool closing = glfwWindowShouldClose(window.get());
    const bool done = window_options.frames && frame >= *window_options.frames;
    // Closing with a screenshot still to take renders one more frame for it.
    if (done || (closing && !(window_options.screenshot && !renderer.presented.armed() && frame > 0))) break;

    hooks.minimize_if_due(window.get(), frame);
    if (window.minimized() || hooks.pretends_minimized()) {
      if (closing) break;
      sleep_while_minimized(window.get(), hooks, renderer.ring, frame, result);
      continue;
    }
    const SwapchainKeeper::Fit fit = keeper.fit(window.framebuffer(), frame, result);
    if (fit == SwapchainKeeper::Fit::EmptySurface) {
      // 0x0 although GLFW does not call the window minimized (yet): sleep rather than spin.
      glfwWaitEventsTimeout(0.1);
      continue;
    }
    if (fit == SwapchainKeeper::Fit::Rebuilt) graph.resized();

    const uint32_t slot = frame % kFramesInFlight;
    renderer.ring.wait_slot(frame);  // the slot's acquire semaphore and command buffer are free again
    read_finished_frame(graph, slot, clock.lap_ms(), readouts);

    // The panel and input edit the state; graph edits are applied before recording.
    const PanelFacts facts{ctx, renderer.library.get(), graph.objects().viewport_sources, swapchain.extent(),
                           result.present_mode};
    const VkExtent2D viewport_before = viewport_extent(layout_of(state, swapchain.extent()));
    const bool take_screenshot =
        update_ui(renderer.ui, viewport_input, hooks, state, readouts, facts, frame, result);
    // The graph renders at the viewport's size, which the window and the columns (Tab, a column
    // opened or hidden) decide.
    const WindowLayout layout = layout_of(state, swapchain.extent());
    const VkExtent2D viewport = viewport_extent(layout);
    const bool viewport_changed =
        viewport.width != viewport_before.width || viewport.height != viewport_before.height;
    const std::string turned_off = fit == SwapchainKeeper::Fit::Rebuilt || viewport_changed
                                       ? turn_off_steps_that_do_not_fit(state, viewport)
                                       : "";
    apply_graph_edits(graph, state, viewport, frame, readouts);
    if (!turned_off.empty()) readouts.chain_error = turned_off;
    result.max_retired_graphs = std::max(result.max_retired_graphs, graph.retired_graphs());
    result.max_retired_executors = std::max(result.max_retired_executors, graph.retired_executors());
    graph.prepare(viewport, swapchain.extent());
    *graph.objects().viewport_offset = {int32_t(layout.viewport.x), int32_t(layout.viewport.y)};
    poll_shaders(renderer.library.get(), frame, result);
    apply_frame_settings(graph.objects(), state);

    hooks.resize_if_due(window.get(), frame);
    const std::optional<vk::Swapchain::Frame> image = keeper.acquire(slot, result);
    if (!image) continue;
    PresentTarget target{image->image, swapchain.format(), swapchain.extent(), nullptr};
    const bool last = (window_options.frames && frame + 1 == *window_options.frames) || closing;
    if (last && window_options.screenshot) renderer.presented.arm(ctx, target);
    render_and_present(renderer, keeper, *image, target, frame, result);
    result.final_extent = swapchain.extent();
    if (take_screenshot)
      save_key_screenshot(graph, window_options.screenshot_dir, state, frame, readouts, result);
    if (!state.paused) ++state.animation_frame;
    ++frame;
  }
  renderer.ring.wait_for(frame);
  // --screenshot FILE: FILE.json beside it, with the live metrics and timings of the last frame.
  if (window_options.screenshot && renderer.presented.armed() && frame > 0) {
    if (graph.objects().compare)
      if (auto m = graph.objects().compare->metrics(uint32_t((frame - 1) % kFramesInFlight)))
        readouts.metrics = m;
    if (graph.objects().compare_displayed)
      if (auto m = graph.objects().compare_displayed->metrics(uint32_t((frame - 1) % kFramesInFlight)))
        readouts.displayed_metrics = m;
    if (auto p = graph.objects().probe->read(uint32_t((frame - 1) % kFramesInFlight))) readouts.pixel = p;
    std::filesystem::path sidecar = *window_options.screenshot;
    sidecar.replace_extension(".json");
    const ScreenshotContext context{.state = state,
                                    .timings = readouts.timings,
                                    .device = result.device,
                                    .metrics = readouts.metrics,
                                    .displayed_metrics = readouts.displayed_metrics,
                                    .pixel = readouts.pixel,
                                    .frame = frame - 1,
                                    .output_a = graph.objects().output_a,
                                    .output_b = graph.objects().output_b};
    // What was presented: the window, the panel on it unless hidden (it said "without the panel").
    const std::string shows = std::string("the window as presented, ") +
                              (state.show_ui ? "the control panel included" : "the panel hidden");
    write_sidecar(sidecar, *window_options.screenshot, shows, nlohmann::json::object(), context);
  }
  return frame;
}

}  // namespace

WindowResult run_window_app(const runtime::RunOptions& options, const WindowOptions& window_options) {
  if (window_options.frames && *window_options.frames == 0)
    throw std::invalid_argument("--frames must be at least 1");
  AppState state = initial_state(options, window_options);
  Glfw glfw;
  vk::Context ctx(window_context_options(options));
  WindowResult result;
  result.device = ctx.report();
  {
    const std::string title = "filterlab" + (options.chain.empty() ? std::string() : " - " + options.chain);
    // On a CPU device (lavapipe) a 720p window runs at a few frames a second: a quarter of the
    // pixels keeps the panel usable. --size (or --image) still decides.
    VkExtent2D size = options.size;
    if (window_options.default_size && result.device.device_type == "cpu") {
      size = kCpuWindowSize;
      std::fprintf(stderr,
                   "filterlab: %s is a CPU device: the window opens at %ux%u, where it keeps up (--size "
                   "WxH for another)\n",
                   result.device.name.c_str(), size.width, size.height);
    }
    Window window(size, title, window_options.visible);
    vk::Swapchain swapchain(ctx, window.create_surface(ctx.instance()), window.framebuffer(),
                            window_swapchain_options(window_options));  // owns the surface now
    describe_swapchain(swapchain, window_options, result);
    state.columns = initial_columns(float(swapchain.extent().width));
    if (state.graph.compare && state.compare.divider_x <= 0)
      state.compare.divider_x = int32_t(viewport_extent(layout_of(state, swapchain.extent())).width / 2);

    WindowRenderer renderer(ctx, window, options, window_options, result);
    renderer.graph.build(state.graph, state, 0);
    const uint64_t frames = run_frames(ctx, window, swapchain, renderer, window_options, state, result);

    result.frames = frames;
    result.graph_builds = renderer.graph.builds();
    result.graph_prepares = renderer.graph.prepares();
    result.ui_framebuffers = renderer.ui.framebuffers_created();
    WindowGraph& objects = renderer.graph.objects();
    if (objects.compare && frames > 0)
      result.last_metrics = objects.compare->metrics((frames - 1) % kFramesInFlight);
    if (frames > 0) result.last_pixel = objects.probe->read((frames - 1) % kFramesInFlight);
    if (objects.compare_displayed && frames > 0)
      result.last_displayed_metrics = objects.compare_displayed->metrics((frames - 1) % kFramesInFlight);
    write_outputs(renderer, swapchain.format(), options, window_options, frames, result);
    if (window_options.save_preset) save_preset(*window_options.save_preset, preset_of(state));
  }  // the renderer, swapchain, surface and window go here, before the count below
  result.validation_messages = ctx.validation_messages();
  return result;
}

int run_window(const runtime::RunOptions& options, const WindowOptions& window) {
  const WindowResult r = run_window_app(options, window);
  if (options.print_table) {
    std::printf("%s (%s), %llu frames, present mode %s, %zu swapchain build(s), last %ux%u\n",
                r.device.name.c_str(), r.device.driver_name.c_str(),
                static_cast<unsigned long long>(r.frames), r.present_mode.c_str(), r.builds.size(),
                r.final_extent.width, r.final_extent.height);
    if (r.screenshot_written) std::printf("wrote screenshot -> %s\n", window.screenshot->string().c_str());
    for (const runtime::Capture& c : r.captures_written)
      std::printf("wrote %s -> %s\n", c.image.c_str(), c.path.string().c_str());
  }
  if (r.validation_messages) {
    std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", r.validation_messages);
    return 4;
  }
  return 0;
}

}  // namespace filterlab::app
