#include "ui/layout.h"

#include <algorithm>
#include <cmath>

namespace filterlab::app {

WindowLayout window_layout(float width, float height, const Columns& columns, bool show_ui) {
  WindowLayout l;
  if (!show_ui) {
    l.viewport = {0, 0, width, height};
    return l;
  }
  float controls = columns.controls_open
                       ? (columns.controls_width > 0 ? columns.controls_width
                                                     : std::clamp(width * 0.23f, kControlsMin, kControlsMax))
                       : kCollapsedColumnWidth;
  float timings = columns.timings_open
                      ? (columns.timings_width > 0 ? columns.timings_width
                                                   : std::clamp(width * 0.21f, kTimingsMin, kTimingsMax))
                      : kCollapsedColumnWidth;
  // A window too narrow for both: the columns give way, the timings first, down to strips.
  const float room = std::max(width - kViewportMinWidth, 2 * kCollapsedColumnWidth);
  if (controls + timings > room) timings = std::max(room - controls, kCollapsedColumnWidth);
  if (controls + timings > room) controls = std::max(room - timings, kCollapsedColumnWidth);
  controls = std::floor(controls);  // whole pixels: the viewport's size is the graph's
  timings = std::floor(timings);
  l.controls = {0, 0, controls, height};
  l.timings = {width - timings, 0, timings, height};
  l.viewport = {controls, 0, std::max(width - controls - timings, 1.0f), height};
  return l;
}

Columns initial_columns(float width) {
  Columns c;
  c.controls_open = c.timings_open = width >= 800;
  return c;
}

}  // namespace filterlab::app
