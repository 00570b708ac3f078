#pragma once
// The window's frame, step by step, as run_frames (window_app.cpp) takes it: what the finished
// frame left (timings, metrics, the inspector's pixel), the input and the panel, which edit the
// state, the graph edits they ask for, and the settings the passes read while recording.
#include "app_state.h"
#include "live_graph.h"
#include "passes/pixel_probe.h"
#include "ui/imgui_layer.h"
#include "ui/layout.h"
#include "ui/panel_actions.h"
#include "ui/timing_history.h"
#include "ui/viewport_input.h"
#include "vk/pipeline_library.h"
#include "window_app.h"
#include "window_test_hooks.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::app {

// What the loop learns from the frames it renders, for the panel, the test probe and screenshots.
struct Readouts {
  TimingHistory timings;
  std::optional<passes::CompareMetrics> metrics;            // of the latest finished frame, compare on: HDR
  std::optional<passes::CompareMetrics> displayed_metrics;  // and of its displayed pair
  std::optional<passes::PixelValues> pixel;                 // the inspector's, of the latest finished frame
  std::optional<passes::PixelValues> cursor_pixel;          // the cursor's (the magnifier's), the same
  std::string chain_error;                                  // why the last graph edit was refused
  std::string status;                                       // the last screenshot's outcome
  std::string content_error;                                // why the last image opened in the panel was not
  std::string preset_status;                                // the last preset saved or loaded, or why not
  // The state before a preset was loaded, until the graph it asks for is built: a preset the graph
  // refuses (a viewport image it does not make, say) is taken back whole, not only its graph part.
  std::optional<AppState> before_preset;
};

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

// What the panel shows besides the state and the readouts.
struct PanelFacts {
  const vk::Context& ctx;
  const vk::PipelineLibrary* library;  // hot reload, when on
  const std::vector<std::string>& viewport_sources;
  VkExtent2D window;  // the swapchain's
  const std::string& present_mode;
};

// The panel's "open": a glTF scene in place of the built-in one, or an image in place of any scene.
// A file that cannot be read, or for an image a chain step that needs the scene's depth or motion,
// keeps what was shown and says why.
void open_content(AppState& state, const std::string& file, Readouts& readouts);
// The panel's preset buttons. Loading replaces the state only once all of it worked.
void save_preset_file(const AppState& state, const std::string& file, Readouts& readouts);
void load_preset_file(AppState& state, const std::string& file, Readouts& readouts);
// What the panel's buttons ask for (or a test's probe, pressing them), done; true for a screenshot.
bool take_actions(const PanelActions& actions, AppState& state, Readouts& readouts);
// The slot's previous frame has finished: its timings, metrics and pixel are readable.
void read_finished_frame(LiveGraph& graph, uint32_t slot, double cpu_frame_ms, Readouts& readouts);
// Its metrics and pixels only.
void read_frame_values(LiveGraph& graph, uint32_t slot, Readouts& readouts);
// The window's regions for this state (ui/layout.h), and the viewport's size: the graph's output.
WindowLayout layout_of(const AppState& state, VkExtent2D window);
VkExtent2D viewport_extent(const WindowLayout& layout);
// This frame's input, test probe and panel, which edit `state`. True when a screenshot was asked
// for (key, button or hook).
bool update_ui(ImGuiLayer& ui, ViewportInput& viewport_input, TestHooks& hooks, AppState& state,
               Readouts& readouts, const PanelFacts& facts, uint64_t frame, WindowResult& result);
// Rebuilds the graph when the panel or a probe changed its configuration; an edit the device or
// graph refuses is undone and explained. A changed timestamp switch takes a new executor.
void apply_graph_edits(LiveGraph& graph, AppState& state, VkExtent2D extent, uint64_t frame,
                       Readouts& readouts);
// After a resize: a step whose parameters no longer fit the image is turned off. Returns why.
std::string turn_off_steps_that_do_not_fit(AppState& state, VkExtent2D extent);
void poll_shaders(vk::PipelineLibrary* library, uint64_t frame, WindowResult& result);
// What the passes read while recording this frame: the scene, exposure, view and probe settings.
void apply_frame_settings(WindowGraph& graph, const AppState& state, VkExtent2D image);

}  // namespace filterlab::app
