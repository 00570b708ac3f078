#include "ui/viewport_input.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace filterlab::app {

void ViewportInput::update(AppState& state, const Rect& viewport) {
  const ImGuiIO& io = ImGui::GetIO();
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const VkExtent2D extent{uint32_t(std::max(viewport.w, 1.0f)), uint32_t(std::max(viewport.h, 1.0f))};
  // In the viewport's pixels, which are the image's.
  const float mx = io.MousePos.x * sx - viewport.x, my = io.MousePos.y * sy - viewport.y;
  const bool over = viewport.contains(io.MousePos.x * sx, io.MousePos.y * sy);
  passes::CompareSettings& c = state.compare;
  const bool split = state.graph.compare && c.mode == passes::CompareSettings::Mode::Split;
  if (io.MousePos.x > -1e30f) {  // ImGui's "no mouse" position is -FLT_MAX
    c.cursor_x = std::clamp(int32_t(mx), 0, int32_t(extent.width) - 1);
    c.cursor_y = std::clamp(int32_t(my), 0, int32_t(extent.height) - 1);
  }
  if (io.WantCaptureMouse && !dragging_divider && !dragging_scene) return;
  if (io.MouseClicked[1] && over) state.inspector = {true, c.cursor_x, c.cursor_y};  // pins the pixel
  if (io.MouseClicked[0]) {
    dragging_divider = over && split && std::abs(mx - float(c.divider_x)) <= 6.0f;
    dragging_scene = over && !dragging_divider;
  }
  if (!io.MouseDown[0]) dragging_divider = dragging_scene = false;
  if (dragging_divider) {
    c.divider_x = std::clamp(int32_t(mx), 0, int32_t(extent.width));
  } else if (dragging_scene) {
    state.scene.camera_yaw -= io.MouseDelta.x * 0.01f;
    state.scene.camera_pitch = std::clamp(state.scene.camera_pitch + io.MouseDelta.y * 0.01f, -0.5f, 1.0f);
  }
  if (io.MouseWheel != 0.0f && over)
    state.scene.camera_distance =
        std::clamp(state.scene.camera_distance * std::pow(0.9f, io.MouseWheel), 0.2f, 5.0f);
}

namespace {

// Keys by name: ImGui 1.87 and later (Debian 13's 1.90.1) take ImGuiKey values and no longer the
// GLFW key codes that 1.86 (Debian 12) indexes its key state by.
#if IMGUI_VERSION_NUM >= 18700
constexpr ImGuiKey kSpace = ImGuiKey_Space, kN = ImGuiKey_N, kTab = ImGuiKey_Tab, kF12 = ImGuiKey_F12;
#else
constexpr int kSpace = GLFW_KEY_SPACE, kN = GLFW_KEY_N, kTab = GLFW_KEY_TAB, kF12 = GLFW_KEY_F12;
#endif

}  // namespace

bool handle_keys(AppState& state) {
  if (ImGui::GetIO().WantCaptureKeyboard) return false;
  if (ImGui::IsKeyPressed(kSpace, false)) state.paused = !state.paused;
  if (ImGui::IsKeyPressed(kN)) state.step_once = state.paused;
  if (ImGui::IsKeyPressed(kTab, false)) state.show_ui = !state.show_ui;
  return ImGui::IsKeyPressed(kF12, false);
}

}  // namespace filterlab::app
