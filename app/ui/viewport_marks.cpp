#include "ui/viewport_marks.h"

#include <imgui.h>

#include <algorithm>

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

}  // namespace filterlab::app
