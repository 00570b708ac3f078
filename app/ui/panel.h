#pragma once
// The control panel: chain editor (A and, for the A/B compare, B), compare view settings and live
// metrics, viewport source, scene, timings, device and shader status. It edits AppState and
// reports what the loop must do; it never touches the graph itself.
#include "app_state.h"
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
  std::vector<vk::ShaderError> shader_errors;
  std::string chain_error;    // why the last edit of the chains was not applied
  std::string status;         // the last screenshot's path, or a note
  std::string content_error;  // why the last file opened was not shown
  std::string preset_status;  // the last preset saved or loaded, or why it was not
  VkExtent2D extent{};
  std::string present_mode;
  bool hot_reload = false;
};

PanelActions draw_panel(AppState& state, const PanelInputs& in);

// Where the two windows go: the panel down the left edge, as tall as the window (it scrolls), the
// timings (and the A/B metrics) to its right, sharing the width, so that neither covers the other
// down to 640x360.
struct PanelLayout {
  ImVec2 panel_pos, panel_size, timings_pos;
  float timings_width, timings_max_height;
};
PanelLayout panel_layout(ImVec2 display);

}  // namespace filterlab::app
