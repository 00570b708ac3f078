#pragma once
// Where the window's regions go: the controls column down the left edge, the timings and metrics
// column down the right, and the viewport between them, which nothing else covers: the graph's
// image is drawn there and only the viewport's own marks (the A/B labels, the divider, the
// magnifier) go over it. A column is open (its width: dragged, or the default for the window's size)
// or collapsed to a strip that opens it again; Tab hides both and the viewport takes the window.
// In the window's pixels (the framebuffer's); no ImGui here, so tests need no context.
#include <cstdint>
#include <utility>

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

// The columns as the user left them: open or collapsed, and the widths their edges were dragged to.
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

// The viewport's zoom: 1 shows the graph's image 1:1 (it renders at the viewport's size: fit and
// 1:1 are one), 2..kMaxZoom shows each pixel as zoom x zoom (nearest) around `centre`, which a drag
// pans. In the image's pixels.
constexpr uint32_t kMaxZoom = 32;
struct ViewZoom {
  uint32_t zoom = 1;
  float centre_x = -1, centre_y = -1;  // < 0: the image's centre
  friend bool operator==(const ViewZoom&, const ViewZoom&) = default;
};
// The part of an image of w x h that a zoom shows: its first pixel and size (whole pixels that fit
// the viewport zoomed, inside the image; the centre is clamped so the region stays in it).
struct ShownRegion {
  int32_t x = 0, y = 0;
  uint32_t w = 0, h = 0;
};
ShownRegion shown_region(uint32_t image_w, uint32_t image_h, const ViewZoom& zoom);
// The image pixel under point (px, py) of the viewport (its pixels), for that zoom; clamped to the
// image.
std::pair<int32_t, int32_t> pixel_under(float px, float py, uint32_t image_w, uint32_t image_h,
                                        const ViewZoom& zoom);
// Columns as they start in a window this wide: collapsed below 800 px (at 640x360 open columns
// would leave the picture a third of the window).
Columns initial_columns(float width);

}  // namespace filterlab::app
