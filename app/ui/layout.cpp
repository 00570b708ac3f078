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

ShownRegion shown_region(uint32_t image_w, uint32_t image_h, const ViewZoom& zoom) {
  const uint32_t z = std::clamp(zoom.zoom, 1u, kMaxZoom);
  ShownRegion r;
  // Whole source pixels only: a sliver narrower than one zoomed pixel at the far edges shows the
  // backdrop rather than a pixel cut short.
  r.w = std::max(image_w / z, 1u);
  r.h = std::max(image_h / z, 1u);
  const float cx = zoom.centre_x < 0 ? image_w * 0.5f : zoom.centre_x;
  const float cy = zoom.centre_y < 0 ? image_h * 0.5f : zoom.centre_y;
  r.x = std::clamp(int32_t(std::floor(cx - r.w * 0.5f)), 0, int32_t(image_w - std::min(r.w, image_w)));
  r.y = std::clamp(int32_t(std::floor(cy - r.h * 0.5f)), 0, int32_t(image_h - std::min(r.h, image_h)));
  return r;
}

std::pair<int32_t, int32_t> pixel_under(float px, float py, uint32_t image_w, uint32_t image_h,
                                        const ViewZoom& zoom) {
  const ShownRegion r = shown_region(image_w, image_h, zoom);
  const float z = float(std::clamp(zoom.zoom, 1u, kMaxZoom));
  return {std::clamp(r.x + int32_t(std::floor(px / z)), 0, int32_t(image_w) - 1),
          std::clamp(r.y + int32_t(std::floor(py / z)), 0, int32_t(image_h) - 1)};
}

Columns initial_columns(float width) {
  Columns c;
  c.controls_open = c.timings_open = width >= 800;
  return c;
}

}  // namespace filterlab::app
