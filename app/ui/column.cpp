#include "ui/column.h"

#include <cmath>

namespace filterlab::app {

// A column's window, placed where the layout puts it (in the window's pixels; ImGui takes points).
void place(const Rect& r) {
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  ImGui::SetNextWindowPos(ImVec2(r.x / scale.x, r.y / scale.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w / scale.x, r.h / scale.y), ImGuiCond_Always);
}

void begin_open_column(const char* name, const Rect& r, float& width) {
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  place(r);
  ImGui::SetNextWindowSizeConstraints(ImVec2(2 * kCollapsedColumnWidth / scale.x, r.h / scale.y),
                                      ImVec2(1e9f, r.h / scale.y));
  ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
  const float dragged = ImGui::GetWindowSize().x * scale.x;
  if (std::abs(dragged - r.w) >= 1.0f) width = std::floor(dragged);  // a drag of its edge this frame
}

// A collapsed column: a strip with the button that opens it again.
void collapsed_column(const char* id, const Rect& r, const char* button, bool& open) {
  place(r);
  ImGui::Begin(id, nullptr, kColumnFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  if (ImGui::Button(button)) open = true;
  ImGui::End();
}

}  // namespace filterlab::app
