#include "window_frame.h"

#include "filters/chain.h"
#include "io/image_files.h"
#include "preset.h"
#include "scene/gltf_scene.h"
#include "ui/panel.h"
#include "ui/viewport_marks.h"

#include <cstdio>

namespace filterlab::app {

// ---- Per-frame input and UI ------------------------------------------------------------------

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

// The slot's previous frame has finished: its timings and compare metrics are readable.
void read_finished_frame(LiveGraph& graph, uint32_t slot, double cpu_frame_ms, Readouts& readouts) {
  if (std::optional<std::vector<graph::PassTiming>> t = graph.executor().timings(slot))
    readouts.timings.add_frame(*t, cpu_frame_ms);
  read_frame_values(graph, slot, readouts);
}

void read_frame_values(LiveGraph& graph, uint32_t slot, Readouts& readouts) {
  if (std::optional<passes::CompareMetrics> m = hdr_metrics(graph.objects(), slot)) readouts.metrics = m;
  if (std::optional<passes::CompareMetrics> m = displayed_metrics(graph.objects(), slot))
    readouts.displayed_metrics = m;
  if (std::optional<passes::PixelValues> p = graph.objects().probe->read(slot)) readouts.pixel = p;
  if (std::optional<passes::PixelValues> p =
          graph.objects().probe->read(slot, passes::PixelProbe::Which::Cursor))
    readouts.cursor_pixel = p;
}

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
  if (state.graph.compare)
    draw_compare_labels(state.compare, viewport_extent(layout), layout.viewport, state.zoom);
  draw_pinned_marker(state.inspector, layout.viewport, viewport_extent(layout), state.zoom);
  if (state.graph.compare)
    draw_magnifier_values(state.compare, readouts.cursor_pixel, layout.viewport, viewport_extent(layout),
                          state.zoom);
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
      readouts.cursor_pixel.reset();
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
void apply_frame_settings(WindowGraph& graph, const AppState& state, VkExtent2D image) {
  if (graph.scene) {
    graph.scene->settings() = state.scene;
    graph.scene->settings().animation_frame = state.animation_frame;
  }
  graph.tonemap->display = state.display();
  if (graph.compare) {
    graph.compare->settings = state.compare;
    graph.compare->settings.flip_of_hdr = state.metrics_on_hdr;  // FLIP of the pair the metrics measure
  }
  // The pixels of A and B shown there (the side-by-side view shows each half elsewhere than itself).
  const Inspector& i = state.inspector;
  auto compared = [&](int32_t x, int32_t y) {
    return state.graph.compare ? passes::compared_pixel(state.compare, image, x, y)
                               : std::array<int32_t, 2>{x, y};
  };
  graph.probe->cursor = compared(state.compare.cursor_x, state.compare.cursor_y);
  graph.probe->pixel = i.pinned ? compared(i.x, i.y) : graph.probe->cursor;
  if (graph.view) {  // an HDR image viewed: the same curve and exposure (the automatic one is final's)
    graph.view->settings = state.view;
    graph.view->settings.exposure = state.exposure;
    graph.view->settings.tonemapper = state.tonemapper;
  }
}

}  // namespace filterlab::app
