#pragma once
// Where the window's regions go: the controls column down the left edge, the timings and metrics
// column down the right, and the viewport between them, which nothing else covers: the graph's
// image is drawn there and only the viewport's own marks (the A/B labels, the divider, the
// magnifier) go over it. A column is open (its width: dragged, or the default for the window's size)
// or collapsed to a strip that opens it again; Tab hides both and the viewport takes the window.
// In the window's pixels (the framebuffer's); no ImGui here, so tests need no context.
#include <cstdint>

namespace filterlab::app {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool intersects(const Rect& o) const {
    return w > 0 && h > 0 && o.w > 0 && o.h > 0 && x < o.right() && o.x < right() && y < o.bottom() &&
           o.y < bottom();
  }
  bool contains(float px, float py) const { return px >= x && px < right() && py >= y && py < bottom(); }
};

// The columns as the user left them.
struct Columns {
  bool controls_open = true, timings_open = true;
  float controls_width = 0, timings_width = 0;  // dragged widths; 0: the default for the window
  friend bool operator==(const Columns&, const Columns&) = default;
};

struct WindowLayout {
  Rect controls, timings;  // the columns' windows (a strip when collapsed; empty with the UI hidden)
  Rect viewport;           // the rest: where the graph's image goes
};

constexpr float kCollapsedColumnWidth = 28.0f;
// The default widths: 23% and 21% of the window, within these bounds (together at most 430 px at
// 960x540).
constexpr float kControlsMin = 200.0f, kControlsMax = 420.0f, kTimingsMin = 200.0f, kTimingsMax = 400.0f;
// What a dragged column may take: the viewport keeps at least this.
constexpr float kViewportMinWidth = 64.0f;

WindowLayout window_layout(float width, float height, const Columns& columns, bool show_ui);
// Columns as they start in a window this wide: collapsed below 800 px (at 640x360 open columns
// would leave the picture a third of the window).
Columns initial_columns(float width);

}  // namespace filterlab::app
