#include "ui/viewport_input.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace filterlab::app {

ViewZoom zoomed(ViewZoom z, float factor, int32_t about_x, int32_t about_y) {
  const uint32_t next = std::clamp(uint32_t(std::lround(float(z.zoom) * factor)), 1u, kMaxZoom);
  if (next == 1) return {};  // back to the whole image
  return {next, float(about_x) + 0.5f, float(about_y) + 0.5f};
}

void ViewportInput::update(AppState& state, const Rect& viewport) {
  const ImGuiIO& io = ImGui::GetIO();
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const VkExtent2D extent{uint32_t(std::max(viewport.w, 1.0f)), uint32_t(std::max(viewport.h, 1.0f))};
  // In the viewport's pixels; the image's through the zoom.
  const float mx = io.MousePos.x * sx - viewport.x, my = io.MousePos.y * sy - viewport.y;
  const bool over = viewport.contains(io.MousePos.x * sx, io.MousePos.y * sy);
  passes::CompareSettings& c = state.compare;
  const bool split = state.graph.compare && c.mode == passes::CompareSettings::Mode::Split;
  const auto [px, py] = pixel_under(mx, my, extent.width, extent.height, state.zoom);
  if (io.MousePos.x > -1e30f) {  // ImGui's "no mouse" position is -FLT_MAX
    c.cursor_x = px;
    c.cursor_y = py;
  }
  if (io.WantCaptureMouse && !dragging_divider && !dragging_scene) return;
  if (io.MouseClicked[1] && over) state.inspector = {true, c.cursor_x, c.cursor_y};  // pins the pixel
  const ShownRegion shown = shown_region(extent.width, extent.height, state.zoom);
  const float zoom = float(std::clamp(state.zoom.zoom, 1u, kMaxZoom));
  if (io.MouseClicked[0]) {
    const float divider_at = (float(c.divider_x - shown.x)) * zoom;  // in the viewport's pixels
    dragging_divider = over && split && std::abs(mx - divider_at) <= 6.0f;
    dragging_scene = over && !dragging_divider;
  }
  if (!io.MouseDown[0]) dragging_divider = dragging_scene = false;
  if (dragging_divider) {
    c.divider_x = std::clamp(px, 0, int32_t(extent.width));
  } else if (dragging_scene && state.zoom.zoom > 1) {  // zoomed in: a drag pans
    state.zoom.centre_x = float(shown.x) + shown.w * 0.5f - io.MouseDelta.x * sx / zoom;
    state.zoom.centre_y = float(shown.y) + shown.h * 0.5f - io.MouseDelta.y * sy / zoom;
  } else if (dragging_scene) {
    state.scene.camera_yaw -= io.MouseDelta.x * 0.01f;
    state.scene.camera_pitch = std::clamp(state.scene.camera_pitch + io.MouseDelta.y * 0.01f, -0.5f, 1.0f);
  }
  if (io.MouseWheel != 0.0f && over && io.KeyCtrl) {  // Ctrl + wheel: the view's zoom, about the cursor
    state.zoom = zoomed(state.zoom, io.MouseWheel > 0 ? 2.0f : 0.5f, px, py);
  } else if (io.MouseWheel != 0.0f && over) {
    state.scene.camera_distance =
        std::clamp(state.scene.camera_distance * std::pow(0.9f, io.MouseWheel), 0.2f, 5.0f);
  }
}

namespace {

// Keys by name: ImGui 1.87 and later (Debian 13's 1.90.1) take ImGuiKey values and no longer the
// GLFW key codes that 1.86 (Debian 12) indexes its key state by.
#if IMGUI_VERSION_NUM >= 18700
constexpr ImGuiKey kSpace = ImGuiKey_Space, kN = ImGuiKey_N, kTab = ImGuiKey_Tab, kF12 = ImGuiKey_F12,
                   kF = ImGuiKey_F, kOne = ImGuiKey_1, kPlus = ImGuiKey_Equal, kMinus = ImGuiKey_Minus;
#else
constexpr int kSpace = GLFW_KEY_SPACE, kN = GLFW_KEY_N, kTab = GLFW_KEY_TAB, kF12 = GLFW_KEY_F12,
              kF = GLFW_KEY_F, kOne = GLFW_KEY_1, kPlus = GLFW_KEY_EQUAL, kMinus = GLFW_KEY_MINUS;
#endif

}  // namespace

bool handle_keys(AppState& state) {
  if (ImGui::GetIO().WantCaptureKeyboard) return false;
  if (ImGui::IsKeyPressed(kSpace, false)) state.paused = !state.paused;
  if (ImGui::IsKeyPressed(kN)) state.step_once = state.paused;
  if (ImGui::IsKeyPressed(kTab, false)) state.show_ui = !state.show_ui;
  if (ImGui::IsKeyPressed(kF, false) || ImGui::IsKeyPressed(kOne, false)) state.zoom = {};
  if (ImGui::IsKeyPressed(kPlus))
    state.zoom = zoomed(state.zoom, 2, state.compare.cursor_x, state.compare.cursor_y);
  if (ImGui::IsKeyPressed(kMinus))
    state.zoom = zoomed(state.zoom, 0.5f, state.compare.cursor_x, state.compare.cursor_y);
  return ImGui::IsKeyPressed(kF12, false);
}

}  // namespace filterlab::app
