#include "window_app.h"

#include "filters/chain.h"
#include "graph/executor.h"
#include "headless/capture.h"
#include "headless/frame_graph.h"
#include "headless/frame_ring.h"
#include "passes/scene_pass.h"
#include "passes/tonemap_pass.h"
#include "screenshot.h"
#include "ui/imgui_layer.h"
#include "ui/panel.h"
#include "ui/timing_history.h"
#include "vk/resources.h"
#include "window_graph.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <thread>

namespace filterlab::app {

namespace {

constexpr uint32_t kFramesInFlight = headless::kFramesInFlight;

// ---- GLFW ------------------------------------------------------------------------------------

// GLFW's description of its latest error (and clears it), or `fallback` when it has none.
std::string glfw_error(const char* fallback) {
  const char* description = nullptr;
  return glfwGetError(&description) != GLFW_NO_ERROR && description ? description : fallback;
}

class Glfw {
 public:
  Glfw() {
    // An X server refuses connections for a moment while it resets after its last client left
    // (Xvfb under xvfb-run does, between two windows of one test run): try again briefly.
    const char* display = std::getenv("DISPLAY");
    bool ok = glfwInit();
    for (int attempt = 0; !ok && display && *display && attempt < 20; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ok = glfwInit();
    }
    if (!ok)
      throw NoDisplayError(
          "cannot open a window: " + glfw_error("glfwInit failed") +
          " (use filterlab run --headless, or run under xvfb-run)");
    if (!glfwVulkanSupported()) {
      glfwTerminate();
      throw vk::NoDeviceError("GLFW found no Vulkan loader for window surfaces");
    }
  }
  ~Glfw() { glfwTerminate(); }
  Glfw(const Glfw&) = delete;
  Glfw& operator=(const Glfw&) = delete;

  static std::vector<const char*> instance_extensions() {
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    if (!names) throw vk::NoDeviceError("GLFW cannot create Vulkan surfaces here: " + glfw_error("unknown"));
    return {names, names + count};  // valid until glfwTerminate
  }
};

class Window {
 public:
  Window(VkExtent2D size, const std::string& title, bool visible) {
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(int(size.width), int(size.height), title.c_str(), nullptr, nullptr);
    if (!window_) throw NoDisplayError("cannot create a window: " + glfw_error("unknown"));
  }
  ~Window() { glfwDestroyWindow(window_); }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  GLFWwindow* get() const { return window_; }

  VkExtent2D framebuffer() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return {uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0))};
  }
  bool minimized() const {
    const VkExtent2D fb = framebuffer();
    return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) || fb.width == 0 || fb.height == 0;
  }

 private:
  GLFWwindow* window_ = nullptr;
};

// ---- The graph -------------------------------------------------------------------------------

// Where this frame's "present" pass copies "final": set before each record.
struct PresentTarget {
  VkImage image = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  const vk::Buffer* readback = nullptr;
};

// `source` read as TransferSrc by a side-effect pass, so the graph derives its barrier and
// layout (tonemap write -> copy read, and back next frame) like any other access.
void add_present_pass(graph::RenderGraph& graph, const PresentTarget& target, const std::string& source) {
  const VkFormat format = graph.image_desc(source).format;
  graph.add_pass("present", graph::PassKind::Transfer)
      .read(source, graph::Usage::TransferSrc)
      .side_effect()
      .execute([&target, format, source](graph::PassContext& ctx) {
        vk::PresentCopy copy;
        copy.src = ctx.image_handle(source);
        copy.src_format = format;
        copy.src_extent = ctx.image(source).extent;
        copy.dst = target.image;
        copy.dst_format = target.format;
        copy.dst_extent = target.extent;
        copy.readback = target.readback;
        vk::record_present_copy(ctx.cmd, copy);
      });
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace

namespace {

// Mouse over the viewport (when the panel does not want it): drag orbits the camera, or moves the
// A/B divider when the drag starts on it; the wheel zooms; the magnifier follows the cursor.
struct ViewportInput {
  bool dragging_divider = false;

  void update(AppState& state, VkExtent2D extent) {
    const ImGuiIO& io = ImGui::GetIO();
    const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
    const float mx = io.MousePos.x * sx, my = io.MousePos.y * sy;
    passes::CompareSettings& c = state.compare;
    const bool split = state.graph.compare && c.mode == passes::CompareSettings::Mode::Split;
    if (io.MousePos.x > -1e30f) {  // ImGui's "no mouse" position is -FLT_MAX
      c.cursor_x = std::clamp(int32_t(mx), 0, int32_t(extent.width) - 1);
      c.cursor_y = std::clamp(int32_t(my), 0, int32_t(extent.height) - 1);
    }
    if (io.WantCaptureMouse && !dragging_divider) return;
    if (io.MouseClicked[0]) dragging_divider = split && std::abs(mx - float(c.divider_x)) <= 6.0f;
    if (!io.MouseDown[0]) dragging_divider = false;
    if (dragging_divider) {
      c.divider_x = std::clamp(int32_t(mx), 0, int32_t(extent.width));
    } else if (io.MouseDown[0]) {
      state.scene.camera_yaw -= io.MouseDelta.x * 0.01f;
      state.scene.camera_pitch = std::clamp(state.scene.camera_pitch + io.MouseDelta.y * 0.01f, -0.5f, 1.0f);
    }
    if (io.MouseWheel != 0.0f)
      state.scene.camera_distance = std::clamp(state.scene.camera_distance * std::pow(0.9f, io.MouseWheel), 0.2f, 5.0f);
  }
};

// Keys, unless a text field has the keyboard: F12 screenshot, Space pause, N step, Tab panel.
bool handle_keys(AppState& state) {
  if (ImGui::GetIO().WantCaptureKeyboard) return false;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) state.paused = !state.paused;
  if (ImGui::IsKeyPressed(GLFW_KEY_N)) state.step_once = state.paused;
  if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) state.show_ui = !state.show_ui;
  return ImGui::IsKeyPressed(GLFW_KEY_F12, false);
}

// What the passes read while recording this frame: the scene, exposure and view settings.
void apply_frame_settings(WindowGraph& graph, const AppState& state) {
  graph.scene->settings() = state.scene;
  graph.scene->settings().animation_frame = state.animation_frame;
  graph.tonemap_a->exposure = state.exposure;
  if (graph.tonemap_b) graph.tonemap_b->exposure = state.exposure;
  if (graph.compare) graph.compare->settings = state.compare;
  if (graph.view) {
    graph.view->settings = state.view;
    graph.view->settings.exposure = state.exposure;
  }
}

// Where hot reload reads shaders from: --shader-source, else this build's source tree while it
// exists (a developer's checkout), else the SPIR-V next to the binary.
vk::ShaderSource window_shader_source(const headless::RunOptions& options, bool hot_reload) {
  vk::ShaderSource source{options.shader_dir, options.glsl_dir};
#ifdef FILTERLAB_SOURCE_SHADER_DIR
  if (hot_reload && !source.glsl_dir && std::filesystem::is_directory(FILTERLAB_SOURCE_SHADER_DIR))
    source.glsl_dir = std::filesystem::path(FILTERLAB_SOURCE_SHADER_DIR);
#else
  (void)hot_reload;
#endif
  return source;
}

}  // namespace

WindowResult run_window_app(const headless::RunOptions& options, const WindowOptions& window_options) {
  if (window_options.frames && *window_options.frames == 0)
    throw std::invalid_argument("--frames must be at least 1");
  AppState state;
  state.graph.chain_a = ChainConfig::parse(options.chain);
  filters::check_chain(state.graph.chain_a.enabled_steps());
  if (window_options.compare_chain) {
    state.graph.compare = true;
    state.graph.chain_b = ChainConfig::parse(*window_options.compare_chain);
    filters::check_chain(state.graph.chain_b.enabled_steps());
  } else {
    state.graph.chain_b = state.graph.chain_a;
  }
  state.graph.viewport = window_options.viewport;
  state.scene = options.scene;
  state.exposure = options.exposure;
  state.paused = window_options.paused;
  state.gpu_timing = options.gpu_timing;
  state.show_ui = window_options.show_ui;

  Glfw glfw;
  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  context_options.swapchain = true;
  context_options.instance_extensions = Glfw::instance_extensions();
  vk::Context ctx(context_options);

  WindowResult result;
  result.device = ctx.report();
  {
    const std::string title = "filterlab" + (options.chain.empty() ? std::string() : " - " + options.chain);
    Window window(options.size, title, window_options.visible);
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VK_CHECK(glfwCreateWindowSurface(ctx.instance(), window.get(), nullptr, &surface));
    vk::SwapchainOptions swapchain_options;
    swapchain_options.present_mode = window_options.present_mode;
    swapchain_options.require_present_mode = window_options.require_present_mode;
    swapchain_options.frames_in_flight = kFramesInFlight;
    vk::Swapchain swapchain(ctx, surface, window.framebuffer(), swapchain_options);  // owns the surface now
    result.swapchain_format = swapchain.format();
    result.present_mode = vk::present_mode_name(swapchain.present_mode());
    result.note = swapchain.note();
    if (!result.note.empty()) std::fprintf(stderr, "filterlab: %s\n", result.note.c_str());
    if (!vk::present_copy_supported(VK_FORMAT_R8G8B8A8_UNORM, swapchain.format()))
      std::fprintf(stderr, "filterlab: the swapchain format cannot show the image exactly\n");
    if (window_options.screenshot && !(swapchain.usage() & VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
      throw vk::SwapchainError("--screenshot: swapchain images cannot be read back on this surface");

    if (state.graph.compare) state.compare.divider_x = int32_t(swapchain.extent().width / 2);

    // Destruction runs bottom-up: the ring waits for the GPU first, the library (whose pipelines
    // the passes hold) goes last.
    const vk::ShaderSource shaders = window_shader_source(options, window_options.hot_reload);
    std::optional<vk::PipelineLibrary> library;
    if (window_options.hot_reload) {
      library.emplace(ctx, shaders,
                      vk::PipelineLibraryOptions{kFramesInFlight, window_options.hot_reload_interval, true});
      result.shader_source = shaders.glsl_dir ? shaders.glsl_dir->string() + " (GLSL, shaderc)"
                                              : shaders.spirv_dir.string() + " (SPIR-V)";
    }
    passes::PassEnv env{ctx, shaders, kFramesInFlight, library ? &*library : nullptr};
    ImGuiLayer ui(ctx, window.get(), kFramesInFlight);
    PresentTarget target;
    std::unique_ptr<graph::RenderGraph> graph;
    WindowGraph objects;
    GraphConfig built;
    std::vector<std::string> outputs = {WindowGraph::kWindow};
    for (const headless::Capture& c : options.captures) outputs.push_back(c.image);
    auto executor = std::make_unique<graph::Executor>(ctx, kFramesInFlight, state.gpu_timing);
    std::optional<vk::Buffer> screenshot;  // before the ring: the ring's destructor waits for the GPU
    headless::FrameRing ring(ctx);
    TimingHistory timings;
    ViewportInput viewport_input;
    std::string chain_error, status;
    std::optional<passes::CompareMetrics> metrics;

    uint64_t frame = 0;
    bool graph_ready = false;
    // Builds the graph for `config` beside the current one, checks it, then replaces it. Throws
    // (leaving the current graph in place) for a chain or image the device or graph cannot have.
    auto build = [&](const GraphConfig& config) {
      auto next = std::make_unique<graph::RenderGraph>();
      WindowGraph next_objects = build_window_graph(*next, env, config, state);
      ui.add_to(*next, WindowGraph::kWindow);
      add_present_pass(*next, target, WindowGraph::kWindow);
      headless::check_images_exist(*next, outputs);
      next->compile(outputs, {64, 64});  // declaration errors surface here, not mid-frame
      ring.wait_for(frame);              // the frames in flight use the current passes
      objects = std::move(next_objects);
      graph = std::move(next);
      built = config;
      graph_ready = false;
      metrics.reset();
      ++result.graph_builds;
    };
    build(state.graph);

    VkExtent2D built_for = window.framebuffer();  // framebuffer size the swapchain was built for
    bool rebuild = !swapchain.valid();
    if (swapchain.valid()) result.builds.push_back({0, swapchain.extent()});
    size_t next_resize = 0;
    std::vector<ResizeStep> resizes = window_options.test_resizes;
    std::stable_sort(resizes.begin(), resizes.end(), [](auto& a, auto& b) { return a.frame < b.frame; });
    bool minimize_done = false;
    uint32_t pretend_minimized = 0;  // remaining test waits that count as minimized (no WM under Xvfb)
    uint32_t out_of_date_in_a_row = 0;
    bool screenshot_frame = false;
    VkExtent2D screenshot_extent{};
    auto last_frame_start = std::chrono::steady_clock::now();

    while (true) {
      glfwPollEvents();
      if (window_options.test_close_at && frame >= *window_options.test_close_at)
        glfwSetWindowShouldClose(window.get(), GLFW_TRUE);  // as the window manager's close button does
      const bool closing = glfwWindowShouldClose(window.get());
      const bool done = window_options.frames && frame >= *window_options.frames;
      // Closing with a screenshot still to take renders one more frame for it.
      if (done || (closing && !(window_options.screenshot && !screenshot_frame && frame > 0))) break;

      if (window_options.test_minimize_at && !minimize_done && frame >= *window_options.test_minimize_at) {
        minimize_done = true;
        glfwIconifyWindow(window.get());
        pretend_minimized = window_options.test_minimize_waits;
      }

      if (window.minimized() || pretend_minimized > 0) {
        if (closing) break;
        // Nothing to show: let the GPU finish, then sleep in the event queue. No rebuild here;
        // the size is looked at again once the window is back.
        ring.wait_for(frame);
        const auto wall_start = std::chrono::steady_clock::now();
        const double cpu_start = cpu_seconds();
        result.minimized_wait_frames.push_back(frame);
        if (window_options.test_minimize_at) {
          // Nobody else will wake a test up; events (e.g. the resizes before) may end a wait early,
          // so sleep in the queue until the whole interval has passed.
          const auto deadline = wall_start + std::chrono::duration<double>(kTestWaitSeconds);
          for (auto now = wall_start; now < deadline; now = std::chrono::steady_clock::now())
            glfwWaitEventsTimeout(std::chrono::duration<double>(deadline - now).count());
          if (pretend_minimized > 0 && --pretend_minimized == 0) glfwRestoreWindow(window.get());
        } else {
          glfwWaitEvents();
        }
        result.minimized_wall_s +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        result.minimized_cpu_s += cpu_seconds() - cpu_start;
        continue;
      }

      const VkExtent2D fb = window.framebuffer();
      if (rebuild || fb.width != built_for.width || fb.height != built_for.height) {
        if (!swapchain.recreate(fb)) {
          // The surface is 0x0 although GLFW does not call the window minimized (yet): sleep
          // until something happens rather than spin on rebuilds.
          glfwWaitEventsTimeout(0.1);
          continue;
        }
        built_for = fb;
        rebuild = false;
        graph_ready = false;
        result.builds.push_back({frame, swapchain.extent()});
      }

      // The slot's previous frame has finished: its timings and compare metrics are readable.
      const uint32_t slot = frame % kFramesInFlight;
      ring.wait_slot(frame);  // the slot's acquire semaphore and command buffer are free again
      const auto now = std::chrono::steady_clock::now();
      const double cpu_frame_ms = std::chrono::duration<double, std::milli>(now - last_frame_start).count();
      last_frame_start = now;
      if (std::optional<std::vector<graph::PassTiming>> t = executor->timings(slot)) timings.add_frame(*t, cpu_frame_ms);
      if (objects.compare)
        if (std::optional<passes::CompareMetrics> m = objects.compare->metrics(slot)) metrics = m;

      // The panel and input edit the state; graph edits are applied before recording.
      ui.begin_frame();
      viewport_input.update(state, swapchain.extent());
      bool take_screenshot = handle_keys(state);
      if (state.step_once) {
        state.step_once = false;
        ++state.animation_frame;
      }
      FrameProbe probe{frame, state, library ? &*library : nullptr, metrics, chain_error};
      if (window_options.on_frame) window_options.on_frame(probe);
      take_screenshot |= probe.request_screenshot;
      take_screenshot |= std::count(window_options.test_screenshot_at.begin(), window_options.test_screenshot_at.end(),
                                    uint32_t(frame)) > 0;
      if (state.show_ui) {
        PanelInputs in{ctx, timings, objects.viewport_sources, metrics, {}, chain_error, status,
                       swapchain.extent(), result.present_mode, library.has_value()};
        if (library) in.shader_errors = library->errors();
        take_screenshot |= draw_panel(state, in).screenshot;
        ++result.ui_frames;
      }
      ui.end_frame();
      if (state.graph.compare && !built.compare && state.compare.divider_x <= 0)
        state.compare.divider_x = int32_t(swapchain.extent().width / 2);
      if (!(state.graph == built)) {
        try {
          build(state.graph);
          chain_error.clear();
          timings.clear();
        } catch (const std::exception& e) {  // ChainError, UnknownImageError, GraphError, ShaderCompileError
          chain_error = std::string("not applied: ") + e.what();
          state.graph = built;
        }
      }
      if (state.gpu_timing != executor->gpu_timing()) {
        ring.wait_for(frame);
        executor = std::make_unique<graph::Executor>(ctx, kFramesInFlight, state.gpu_timing);
        graph_ready = false;
        timings.clear();
      }
      if (!graph_ready) {
        // Same graph, new size, or a new graph: images whose description changed are recreated.
        executor->prepare(*graph, outputs, swapchain.extent());
        ++result.graph_prepares;
        graph_ready = true;
      }
      if (library) {
        const vk::PollReport report = library->poll(frame);
        result.shader_reloads += report.rebuilt;
        result.shader_failures += report.failed;
      }

      apply_frame_settings(objects, state);

      // Resized behind the loop's back, as a user would between the size check and the
      // acquire: the swapchain reports itself out of date or suboptimal.
      while (next_resize < resizes.size() && resizes[next_resize].frame <= frame) {
        const VkExtent2D s = resizes[next_resize++].size;
        glfwSetWindowSize(window.get(), int(s.width), int(s.height));
      }

      std::optional<vk::Swapchain::Frame> image = swapchain.acquire(slot);
      if (!image) {
        ++result.out_of_date;
        if (++out_of_date_in_a_row > 100)
          throw vk::SwapchainError("the swapchain stays out of date after rebuilds");
        rebuild = true;
        continue;
      }
      out_of_date_in_a_row = 0;

      const bool last = (window_options.frames && frame + 1 == *window_options.frames) || closing;
      target.image = image->image;
      target.format = swapchain.format();
      target.extent = swapchain.extent();
      target.readback = nullptr;
      if (last && window_options.screenshot) {
        screenshot.emplace(ctx, VkDeviceSize(target.extent.width) * target.extent.height * 4,
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, "screenshot");
        target.readback = &*screenshot;
        screenshot_extent = target.extent;
        screenshot_frame = true;
      }
      VkCommandBuffer cmd = ring.begin(frame);
      executor->record(cmd, slot, frame);
      VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      wait.semaphore = image->acquired;
      wait.stageMask = vk::kPresentCopyStages;
      VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      signal.semaphore = image->rendered;
      signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      ring.submit(frame, &wait, &signal);
      if (swapchain.present(*image)) {
        ++result.out_of_date;
        rebuild = true;
      }
      result.final_extent = swapchain.extent();
      if (take_screenshot) {
        try {
          ScreenshotContext context{state, timings, result.device, metrics, frame, objects.output_a, objects.output_b};
          const ScreenshotFiles files = save_screenshot(*executor, window_options.screenshot_dir, context);
          status = "saved " + files.png.string() + " (+ .pfm, .json)";
          result.screenshots.push_back(files.png);
        } catch (const std::exception& e) {
          status = std::string("screenshot failed: ") + e.what();
        }
        std::fprintf(stderr, "filterlab: %s\n", status.c_str());
      }
      if (!state.paused) ++state.animation_frame;
      ++frame;
    }
    ring.wait_for(frame);
    result.frames = frame;
    if (objects.compare && frame > 0) result.last_metrics = objects.compare->metrics((frame - 1) % kFramesInFlight);

    if (window_options.screenshot && !screenshot)
      std::fprintf(stderr, "filterlab: no screenshot: the window closed before a frame could be shown\n");
    if (window_options.screenshot && screenshot) {
      std::vector<uint8_t> rgba =
          vk::swapchain_pixels_to_rgba(screenshot->mapped(), screenshot->size(), swapchain.format());
      headless::write_capture(graph::Readback{VK_FORMAT_R8G8B8A8_UNORM, screenshot_extent, std::move(rgba)},
                              *window_options.screenshot, options.exposure);
      result.screenshot_written = true;
    }
    if (frame > 0)
      for (const headless::Capture& c : options.captures)
        headless::write_capture(executor->read_image(c.image), c.path, options.exposure);
    if (options.dump_graph) {
      std::ofstream dot(*options.dump_graph);
      dot << executor->dot();
      if (!dot) throw io::IoError("cannot write " + options.dump_graph->string());
    }
  }  // ring, executor, passes, UI, library, swapchain, surface and window go here, before the count below
  result.validation_messages = ctx.validation_messages();
  return result;
}

int run_window(const headless::RunOptions& options, const WindowOptions& window) {
  const WindowResult r = run_window_app(options, window);
  if (options.print_table) {
    std::printf("%s (%s), %llu frames, present mode %s, %zu swapchain build(s), last %ux%u\n",
                r.device.name.c_str(), r.device.driver_name.c_str(),
                static_cast<unsigned long long>(r.frames), r.present_mode.c_str(), r.builds.size(),
                r.final_extent.width, r.final_extent.height);
    if (r.screenshot_written) std::printf("wrote screenshot -> %s\n", window.screenshot->string().c_str());
    for (const headless::Capture& c : options.captures)
      std::printf("wrote %s -> %s\n", c.image.c_str(), c.path.string().c_str());
  }
  if (r.validation_messages) {
    std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", r.validation_messages);
    return 4;
  }
  return 0;
}

}  // namespace filterlab::app
