#pragma once
// The control panel: chain editor (A and, for the A/B compare, B), compare view settings and live
// metrics, viewport source, scene, timings, device and shader status. It edits AppState and
// reports what the loop must do; it never touches the graph itself.
#include "app_state.h"
#include "passes/pixel_probe.h"
#include "ui/layout.h"
#include "ui/panel_actions.h"
#include "ui/timing_history.h"
#include "vk/context.h"
#include "vk/pipeline_library.h"

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace filterlab::app {

struct PanelInputs {
  const vk::Context& ctx;
  const TimingHistory& timings;
  const std::vector<std::string>& viewport_sources;
  std::optional<passes::CompareMetrics> metrics;            // A/B over the HDR outputs
  std::optional<passes::CompareMetrics> displayed_metrics;  // and over the displayed images
  std::optional<passes::PixelValues> pixel;                 // the inspector's
  std::vector<vk::ShaderError> shader_errors;
  std::string chain_error;    // why the last edit of the chains was not applied
  std::string status;         // the last screenshot's path, or a note
  std::string content_error;  // why the last file opened was not shown
  std::string preset_status;  // the last preset saved or loaded, or why it was not
  VkExtent2D extent{};        // the viewport's: the graph's output
  WindowLayout layout;        // the window's regions (ui/layout.h)
  std::string present_mode;
  bool hot_reload = false;
};

PanelActions draw_panel(AppState& state, const PanelInputs& in);

}  // namespace filterlab::app
