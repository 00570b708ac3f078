#pragma once
// The side columns' windows (ui/layout.h): each a top-level ImGui window placed where the layout
// puts it, or, collapsed, a strip with the button that opens it again.
#include "ui/layout.h"

#include <imgui.h>

namespace filterlab::app {

constexpr ImGuiWindowFlags kColumnFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;

// The next window at `r` (the window's pixels; ImGui takes points).
void place(const Rect& r);
// An open column's window, `name`, at `r`; its inner edge is dragged (ImGui's edge resize), and a
// width the user dragged is kept in `width` (window_layout clamps it so the viewport keeps its
// least width). End it with ImGui::End().
void begin_open_column(const char* name, const Rect& r, float& width);
// A collapsed column: a strip whose button sets `open`.
void collapsed_column(const char* id, const Rect& r, const char* button, bool& open);

}  // namespace filterlab::app
