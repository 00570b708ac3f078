#include "ui/column.h"

namespace filterlab::app {

// A column's window, placed where the layout puts it (in the window's pixels; ImGui takes points).
void place(const Rect& r) {
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  ImGui::SetNextWindowPos(ImVec2(r.x / scale.x, r.y / scale.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w / scale.x, r.h / scale.y), ImGuiCond_Always);
}

// A collapsed column: a strip with the button that opens it again.
void collapsed_column(const char* id, const Rect& r, const char* button, bool& open) {
  place(r);
  ImGui::Begin(id, nullptr, kColumnFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  if (ImGui::Button(button)) open = true;
  ImGui::End();
}

}  // namespace filterlab::app
