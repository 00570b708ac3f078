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
#include "ui/viewport_marks.h"
#include "vk/resources.h"
#include "window_frame.h"
#include "window_setup.h"
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

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// ---- Minimized ----------------------------------------------------------------------------

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
    // opened or hidden) decide: smaller than --size where the columns show, so a step that does not
    // fit it (a ROI) is turned off from the first frame on, as after a resize.
    const WindowLayout layout = layout_of(state, swapchain.extent());
    const VkExtent2D viewport = viewport_extent(layout);
    const bool viewport_changed =
        viewport.width != viewport_before.width || viewport.height != viewport_before.height;
    const std::string turned_off = frame == 0 || fit == SwapchainKeeper::Fit::Rebuilt || viewport_changed
                                       ? turn_off_steps_that_do_not_fit(state, viewport)
                                       : "";
    apply_graph_edits(graph, state, viewport, frame, readouts);
    if (!turned_off.empty()) readouts.chain_error = turned_off;
    result.max_retired_graphs = std::max(result.max_retired_graphs, graph.retired_graphs());
    result.max_retired_executors = std::max(result.max_retired_executors, graph.retired_executors());
    graph.prepare(viewport, swapchain.extent());
    *graph.objects().compose = {{int32_t(layout.viewport.x), int32_t(layout.viewport.y)},
                                std::clamp(state.zoom.zoom, 1u, kMaxZoom),
                                shown_region(viewport.width, viewport.height, state.zoom)};
    poll_shaders(renderer.library.get(), frame, result);
    apply_frame_settings(graph.objects(), state, viewport);

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
    read_frame_values(graph, uint32_t((frame - 1) % kFramesInFlight), readouts);
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
    if (frames > 0) result.last_metrics = hdr_metrics(objects, (frames - 1) % kFramesInFlight);
    if (frames > 0) {
      result.last_pixel = objects.probe->read((frames - 1) % kFramesInFlight);
      result.last_cursor_pixel =
          objects.probe->read((frames - 1) % kFramesInFlight, passes::PixelProbe::Which::Cursor);
    }
    if (frames > 0)
      result.last_displayed_metrics = displayed_metrics(objects, (frames - 1) % kFramesInFlight);
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
