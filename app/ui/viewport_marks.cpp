#include "ui/viewport_marks.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace filterlab::app {

// Which side is which: "A" and "B" near the viewport's bottom edge, where the compare view puts
// each chain; "|A-B|" over the heat map. Part of the viewport: drawn with the columns hidden too.
void draw_compare_labels(const passes::CompareSettings& c, VkExtent2D image, const Rect& viewport,
                         const ViewZoom& zoom) {
  if (image.width == 0 || viewport.w <= 0) return;
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const float left = viewport.x / scale.x, width = viewport.w / scale.x, bottom = viewport.bottom() / scale.y;
  const ShownRegion shown = shown_region(image.width, image.height, zoom);
  const float pixel = float(std::clamp(zoom.zoom, 1u, kMaxZoom)) / scale.x;  // an image pixel, in points
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  auto label = [&](float x, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 at(std::clamp(left + x - size.x / 2, left + 4.0f, left + width - size.x - 4),
                    bottom - size.y - 12);
    draw->AddRectFilled(ImVec2(at.x - 6, at.y - 3), ImVec2(at.x + size.x + 6, at.y + size.y + 3),
                        IM_COL32(0, 0, 0, 170), 4.0f);
    draw->AddText(at, IM_COL32(0, 255, 255, 255), text);
  };
  using Mode = passes::CompareSettings::Mode;
  if (c.mode == Mode::Difference) {
    label(width / 2, "|A-B|");
  } else if (c.mode == Mode::Flip) {
    label(width / 2, "FLIP of B against A (magma: black 0, light yellow 1)");
  } else if (c.mode == Mode::SideBySide) {
    label(width / 4, "A");
    label(width * 3 / 4, "B");
  } else {
    const float divider = std::clamp(float(c.divider_x - shown.x) * pixel, 0.0f, width);
    label(divider / 2, "A");
    label(divider + (width - divider) / 2, "B");
  }
}

void draw_pinned_marker(const Inspector& inspector, const Rect& viewport, VkExtent2D image,
                        const ViewZoom& zoom) {
  if (!inspector.pinned) return;
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const ShownRegion shown = shown_region(image.width, image.height, zoom);
  const float z = float(std::clamp(zoom.zoom, 1u, kMaxZoom));
  if (inspector.x < shown.x || inspector.y < shown.y || inspector.x >= shown.x + int32_t(shown.w) ||
      inspector.y >= shown.y + int32_t(shown.h))
    return;  // zoomed away from it
  const float x = (viewport.x + float(inspector.x - shown.x) * z) / scale.x,
              y = (viewport.y + float(inspector.y - shown.y) * z) / scale.y, side = z / scale.x;
  // A one-pixel square outline two pixels out from the pinned pixel: the pixel itself stays visible.
  ImGui::GetForegroundDrawList()->AddRect(ImVec2(x - 2, y - 2), ImVec2(x + side + 2, y + side + 2),
                                          IM_COL32(0, 255, 255, 255));
}

void draw_magnifier_values(const passes::CompareSettings& c, const std::optional<passes::PixelValues>& cursor,
                           const Rect& viewport, VkExtent2D image, const ViewZoom& zoom) {
  if (!c.magnifier || !cursor || image.width == 0) return;
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const ShownRegion shown = shown_region(image.width, image.height, zoom);
  const float z = float(std::clamp(zoom.zoom, 1u, kMaxZoom));
  const passes::MagnifierSquare square = passes::magnifier_square(c, image);
  const passes::PixelValues& p = *cursor;
  char text[256];
  auto levels = [](const std::array<float, 4>& v, int channel) {
    return std::lround(v[size_t(channel)] * 255);
  };
  std::snprintf(text, sizeof text,
                "(%d, %d)\nA %.3g %.3g %.3g  sRGB %ld %ld %ld\nB %.3g %.3g %.3g  sRGB %ld %ld %ld", p.x, p.y,
                p.rgba[0][0], p.rgba[0][1], p.rgba[0][2], levels(p.rgba[2], 0), levels(p.rgba[2], 1),
                levels(p.rgba[2], 2), p.rgba[1][0], p.rgba[1][1], p.rgba[1][2], levels(p.rgba[3], 0),
                levels(p.rgba[3], 1), levels(p.rgba[3], 2));
  const ImVec2 size = ImGui::CalcTextSize(text);
  // The square in points; the caption below it, or above where the viewport ends first.
  const float left = (viewport.x + float(square.x - shown.x) * z) / scale.x;
  const float top = (viewport.y + float(square.y - shown.y) * z) / scale.y;
  const float bottom = (viewport.y + float(square.y + square.side - shown.y) * z) / scale.y;
  const float view_left = viewport.x / scale.x, view_right = (viewport.x + viewport.w) / scale.x;
  const float view_top = viewport.y / scale.y, view_bottom = viewport.bottom() / scale.y;
  const float y =
      bottom + 6 + size.y + 6 <= view_bottom ? bottom + 6 : std::max(top - size.y - 6, view_top + 3);
  const float x = std::clamp(left, view_left + 6, std::max(view_right - size.x - 6, view_left + 6));
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(ImVec2(x - 4, y - 3), ImVec2(x + size.x + 4, y + size.y + 3), IM_COL32(0, 0, 0, 190),
                      4.0f);
  draw->AddText(ImVec2(x, y), IM_COL32(0, 255, 255, 255), text);
}

}  // namespace filterlab::app
