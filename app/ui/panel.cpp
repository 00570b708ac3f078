#include "ui/panel.h"

#include "ui/column.h"
#include "ui/right_column.h"

#include "filters/auto_method.h"
#include "filters/chain.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace filterlab::app {

namespace {

// ImGui's text field over a std::string of any length: the buffer grows as the user types.
bool input_text(const char* label, std::string& text, ImGuiInputTextFlags flags = 0) {
  const auto resize = [](ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
      auto* s = static_cast<std::string*>(data->UserData);
      s->resize(size_t(data->BufTextLen));
      data->Buf = s->data();
    }
    return 0;
  };
  return ImGui::InputText(label, text.data(), text.capacity() + 1, flags | ImGuiInputTextFlags_CallbackResize,
                          resize, &text);
}

// Why the device cannot run `step` (its method, or a parameter beyond the method's limit here), or
// empty. Schema errors say why too.
std::string refusal(const filters::FilterStep& step, const vk::Context& ctx) {
  try {
    filters::check_support(filters::resolve(step), ctx);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// Method selector: every method of the family, those this device cannot run (with these
// parameters) greyed out with the reason as a tooltip.
bool method_combo(filters::FilterStep& step, const filters::Family& family, const vk::Context& ctx) {
  const std::string current = step.method.empty() ? family.default_method : step.method;
  bool changed = false;
  if (!ImGui::BeginCombo("method", current.c_str())) return false;
  for (const filters::Method& m : family.methods) {
    filters::FilterStep probe = step;
    probe.method = m.name;
    const std::string reason = refusal(probe, ctx);
    const std::string label =
        m.name + "  (" + filters::stage_name(m.stage) + (m.exact ? "" : ", approximate") + ")";
    if (ImGui::Selectable(label.c_str(), current == m.name,
                          reason.empty() ? 0 : ImGuiSelectableFlags_Disabled)) {
      step.method = m.name;
      changed = true;
    }
    if (!reason.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", reason.c_str());
    else if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.description.c_str());
  }
  ImGui::EndCombo();
  return changed;
}

// One widget per parameter, made from the schema: integers and numbers as sliders or drags over
// their range (an integer's up to what the method serves here), choices as combos, regions as text.
// A derived default shows as such until the parameter is set.
bool edit_param(filters::FilterStep& step, const filters::Param& p, const filters::ResolvedStep& resolved,
                const filters::Support& support) {
  const std::string* raw = step.find(p.name);
  bool changed = false;
  auto set = [&](const std::string& text) {
    step.set(p.name, text);
    changed = true;
  };
  switch (p.type) {
    case filters::ParamType::Integer: {
      int value = resolved.params.integer(p.name);
      const int max = p.is_size && support.max_size ? std::min(*support.max_size, int(p.max)) : int(p.max);
      if (ImGui::SliderInt(p.name.c_str(), &value, int(p.min), max)) set(std::to_string(value));
      break;
    }
    case filters::ParamType::Number: {
      // The default shows as such; dragging to the left end (0) returns to it.
      float value = float(resolved.params.number(p.name));
      const std::string shown = raw ? "%.3f" : p.derived ? "%.3f (derived)" : "%.3f (default)";
      const bool dragged = ImGui::DragFloat(p.name.c_str(), &value, 0.02f, 0.0f, float(p.max), shown.c_str(),
                                            p.log_scale ? ImGuiSliderFlags_Logarithmic : 0);
      if (p.derived && !raw && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.derived_text.c_str());
      if (dragged) {
        if (value >= p.min) {
          char text[32];
          std::snprintf(text, sizeof text, "%g", value);
          set(text);
        } else if (p.derived) {
          step.erase(p.name);
          changed = true;
        }
      }
      break;
    }
    case filters::ParamType::Choice: {
      const std::string current = resolved.params.choice(p.name);
      if (ImGui::BeginCombo(p.name.c_str(), current.c_str())) {
        for (const std::string& choice : p.choices)
          if (ImGui::Selectable(choice.c_str(), choice == current)) set(choice);
        ImGui::EndCombo();
      }
      if (!p.file_extensions.empty()) {
        // Or a file: typed, applied on Enter (the family reads it before anything changes).
        char path[512] = {};
        if (p.names_file(current)) std::snprintf(path, sizeof path, "%s", current.c_str());
        const std::string label = p.name + " file";
        if (ImGui::InputText(label.c_str(), path, sizeof path, ImGuiInputTextFlags_EnterReturnsTrue) &&
            path[0])
          set(path);
      }
      break;
    }
    case filters::ParamType::Region: {
      char text[64] = {};
      if (raw) std::snprintf(text, sizeof text, "%s", raw->c_str());
      if (ImGui::InputText(p.name.c_str(), text, sizeof text, ImGuiInputTextFlags_EnterReturnsTrue)) {
        if (text[0]) set(text);
        else step.erase(p.name), changed = true;
      }
      break;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", p.help.c_str(), p.range_text().c_str());
  return changed;
}

bool edit_step(filters::FilterStep& step, const vk::Context& ctx) {
  const filters::Family* family = filters::registry().find(step.filter);
  if (!family) return false;
  bool changed = false;
  if (family->methods.size() > 1) changed |= method_combo(step, *family, ctx);
  filters::ResolvedStep resolved;
  try {
    resolved = filters::resolve(step);
  } catch (const std::exception& e) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", e.what());
    return changed;
  }
  if (resolved.method->name == "auto") {  // what it runs here, and from which table
    try {
      const filters::AutoChoice choice = filters::choose_auto(*family, resolved.params, ctx);
      ImGui::TextDisabled("runs %s (table: %s)", choice.method->name.c_str(), choice.table.said().c_str());
    } catch (const std::exception& e) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", e.what());
    }
  }
  const filters::Support support = filters::device_support(resolved, ctx);
  for (const filters::Param& p : family->params)
    if (p.takes(resolved.method->name)) changed |= edit_param(step, p, resolved, support);
  return changed;
}

// The chain editor: enable, reorder, remove and edit steps; add a filter at the end.
bool edit_chain(const char* id, ChainConfig& chain, const vk::Context& ctx) {
  bool changed = false;
  ImGui::PushID(id);
  for (size_t i = 0; i < chain.entries.size(); ++i) {
    ChainEntry& e = chain.entries[i];
    ImGui::PushID(int(i));
    changed |= ImGui::Checkbox("##enabled", &e.enabled);
    ImGui::SameLine();
    const bool open =
        ImGui::TreeNodeEx("step", ImGuiTreeNodeFlags_DefaultOpen, "%zu. %s", i + 1, e.step.filter.c_str());
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - 60);
    if (ImGui::ArrowButton("up", ImGuiDir_Up) && i > 0) {
      std::swap(chain.entries[i], chain.entries[i - 1]);
      changed = true;
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("down", ImGuiDir_Down) && i + 1 < chain.entries.size()) {
      std::swap(chain.entries[i], chain.entries[i + 1]);
      changed = true;
    }
    ImGui::SameLine();
    const bool remove = ImGui::SmallButton("x");
    if (open) {
      if (i < chain.entries.size()) changed |= edit_step(chain.entries[i].step, ctx);
      ImGui::TreePop();
    }
    ImGui::PopID();
    if (remove) {
      chain.entries.erase(chain.entries.begin() + long(i));
      changed = true;
      break;
    }
  }
  if (ImGui::BeginCombo("add", "add a filter...")) {
    for (const filters::Family* f : filters::registry().families())
      if (ImGui::Selectable(f->name.c_str())) {
        filters::FilterStep step;
        step.filter = f->name;
        step.method = f->default_method.empty() ? f->methods.front().name : f->default_method;
        step.text = f->name;
        chain.entries.push_back({step, true});
        changed = true;
      }
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("%s", chain.spec().empty() ? "(no filter)" : chain.spec().c_str());
  ImGui::PopID();
  return changed;
}

void device_panel(const PanelInputs& in) {
  const vk::DeviceReport& d = in.ctx.report();
  ImGui::Text("%s", d.name.c_str());
  ImGui::Text("driver %s %s", d.driver_name.c_str(), d.driver_info.c_str());
  ImGui::Text("Vulkan %s, %s", vk::api_version_string(d.api_version).c_str(), d.device_type.c_str());
  std::string ops;
  for (const std::string& op : d.subgroup_operations) ops += (ops.empty() ? "" : " ") + op;
  ImGui::TextWrapped("subgroup size %u: %s", d.subgroup_size, ops.c_str());
  ImGui::Text("quad ops in all stages: %s", d.quad_operations_in_all_stages ? "yes" : "no (compute only)");
  ImGui::Text("shared memory %u KiB, timestamp period %.3g ns, %u valid bits",
              d.max_compute_shared_memory / 1024, d.timestamp_period_ns, d.timestamp_valid_bits);
  ImGui::Text("compute derivatives: %s",
              d.compute_shader_derivatives ? d.compute_derivatives_extension.c_str() : "no");
  ImGui::Text("viewport %ux%u, present mode %s", in.extent.width, in.extent.height, in.present_mode.c_str());
}

}  // namespace

PanelActions draw_panel(AppState& state, const PanelInputs& in) {
  PanelActions actions;
  const WindowLayout& layout = in.layout;
  if (!state.columns.controls_open) {
    collapsed_column("##controls", layout.controls, ">", state.columns.controls_open);
    draw_right_column(state, in);
    return actions;
  }
  begin_open_column("filterlab", layout.controls, state.columns.controls_width);
  if (ImGui::SmallButton("<< hide")) state.columns.controls_open = false;

  if (ImGui::CollapsingHeader("Chain A", ImGuiTreeNodeFlags_DefaultOpen))
    edit_chain("A", state.graph.chain_a, in.ctx);
  if (!in.chain_error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", in.chain_error.c_str());

  if (ImGui::CollapsingHeader("A/B compare", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("compare A with B", &state.graph.compare);
    if (state.graph.compare) {
      if (ImGui::SmallButton("B = A")) state.graph.chain_b = state.graph.chain_a;
      edit_chain("B", state.graph.chain_b, in.ctx);
      passes::CompareSettings& c = state.compare;
      int mode = int(c.mode);
      ImGui::RadioButton("split", &mode, 0);
      ImGui::SameLine();
      ImGui::RadioButton("side by side", &mode, 2);
      ImGui::SameLine();
      ImGui::RadioButton("|A-B| heat map", &mode, 1);
      ImGui::SameLine();
      ImGui::RadioButton("FLIP", &mode, 3);
      c.mode = passes::CompareSettings::Mode(mode);
      if (c.mode == passes::CompareSettings::Mode::Split)
        ImGui::SliderInt("divider", &c.divider_x, 0, int(in.extent.width));
      else if (c.mode == passes::CompareSettings::Mode::Difference)
        ImGui::DragFloat("gain", &c.gain, 1.0f, 0.0f, 1e6f, c.gain > 0 ? "%.1f" : "auto (max = white)");
      ImGui::Checkbox("magnifier", &c.magnifier);
      if (c.magnifier) {
        int source = int(c.magnifier_source);
        ImGui::SameLine();
        ImGui::Combo("##of", &source,
                     c.mode == passes::CompareSettings::Mode::Flip ? "A\0B\0FLIP\0" : "A\0B\0|A-B|\0");
        c.magnifier_source = passes::CompareSettings::Source(source);
        int zoom = int(c.zoom);
        ImGui::SliderInt("zoom", &zoom, 1, 16);
        c.zoom = uint32_t(zoom);
      }
      ImGui::TextDisabled("the A/B metrics are over the timings, on the right");
    }
  }

  if (ImGui::CollapsingHeader("Viewport")) {
    if (state.graph.compare) ImGui::TextDisabled("the A/B view is shown while compare is on");
    if (ImGui::BeginCombo("image", state.graph.viewport.c_str())) {
      for (const std::string& name : in.viewport_sources)
        if (ImGui::Selectable(name.c_str(), name == state.graph.viewport)) state.graph.viewport = name;
      ImGui::EndCombo();
    }
    // The curve and exposure that make "final" (and show any HDR image here).
    if (ImGui::BeginCombo("tonemap", passes::tonemapper_name(state.tonemapper))) {
      for (uint32_t i = 0; i < passes::kTonemapperCount; ++i)
        if (ImGui::Selectable(passes::tonemapper_name(passes::Tonemapper(i)),
                              uint32_t(state.tonemapper) == i))
          state.tonemapper = passes::Tonemapper(i);
      ImGui::EndCombo();
    }
    float stops = std::log2(state.exposure);
    if (ImGui::SliderFloat(state.graph.auto_exposure ? "EV compensation" : "EV", &stops, -8.0f, 8.0f,
                           "%+.2f"))
      state.exposure = std::exp2(stops);
    ImGui::SameLine();
    ImGui::TextDisabled("x%.3g", state.exposure);
    ImGui::Checkbox("auto exposure", &state.graph.auto_exposure);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("0.18 over the frame's geometric mean luminance, measured every frame");
  }

  if (ImGui::CollapsingHeader("Scene")) {
    // What the frame starts from: the built-in scene, a glTF scene, or a still image (no depth, no
    // motion). The file field opens either; a failure keeps what is shown.
    GraphConfig& g = state.graph;
    if (ImGui::RadioButton("built-in scene", !g.still && !g.scene_model)) {
      g.still.reset();
      g.still_file.clear();
      g.scene_model.reset();
      g.scene_file.clear();
    }
    ImGui::SameLine();
    ImGui::RadioButton("glTF", !g.still && g.scene_model);
    ImGui::SameLine();
    ImGui::RadioButton("image", bool(g.still));
    if (g.still) ImGui::TextDisabled("%s (%ux%u)", g.still_file.c_str(), g.still->width, g.still->height);
    else if (g.scene_model) ImGui::TextDisabled("%s", g.scene_model->name().c_str());
    const bool entered = input_text("##file", state.content_path, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("open") || entered) && !state.content_path.empty()) actions.open = state.content_path;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "a glTF scene (.gltf, .glb), or an image (.png, .jpg, .pfm, .exr) in place of the scene");
    if (!in.content_error.empty())
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", in.content_error.c_str());
    ImGui::Checkbox("pause", &state.paused);
    ImGui::SameLine();
    if (ImGui::Button("step") && state.paused) state.step_once = true;
    ImGui::SameLine();
    ImGui::Text("frame %llu", static_cast<unsigned long long>(state.animation_frame));
    ImGui::Checkbox("orbit", &state.scene.orbit_camera);
    ImGui::SameLine();
    ImGui::Checkbox("animate objects", &state.scene.animate_objects);
    ImGui::SameLine();
    ImGui::Checkbox("jitter", &state.scene.jitter);
    ImGui::SameLine();
    int length = int(state.scene.jitter_length);
    ImGui::RadioButton("8", &length, 8);
    ImGui::SameLine();
    ImGui::RadioButton("16", &length, 16);
    state.scene.jitter_length = uint32_t(length);
    // A cut at the frame shown next: the camera jumps, and temporal filters drop their history.
    if (ImGui::Button("camera cut")) state.scene.camera_cuts.push_back(state.animation_frame + 1);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("jump to another view; the camera input's history is invalid there");
    ImGui::SliderAngle("yaw", &state.scene.camera_yaw, -180.0f, 180.0f);
    ImGui::SliderAngle("pitch", &state.scene.camera_pitch, -30.0f, 60.0f);
    ImGui::SliderFloat("distance", &state.scene.camera_distance, 0.2f, 5.0f, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::TextDisabled("drag in the viewport to orbit, wheel to zoom");
  }

  if (ImGui::CollapsingHeader("Preset")) {
    // The chains (every parameter), the compare view, the content and the tonemap, as JSON; a
    // screenshot's sidecar loads too. A file that fails to load changes nothing.
    input_text("##preset", state.preset_path, 0);
    ImGui::SameLine();
    if (ImGui::Button("save") && !state.preset_path.empty()) actions.save_preset = state.preset_path;
    ImGui::SameLine();
    if (ImGui::Button("load") && !state.preset_path.empty()) actions.load_preset = state.preset_path;
    if (!in.preset_status.empty()) ImGui::TextWrapped("%s", in.preset_status.c_str());
  }

  if (ImGui::CollapsingHeader("Device")) device_panel(in);

  if (ImGui::CollapsingHeader("Shaders", in.shader_errors.empty() ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::TextDisabled(in.hot_reload ? "hot reload: watching shaders/ for edits" : "hot reload off");
    for (const vk::ShaderError& e : in.shader_errors) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s:%u: %s", e.file.c_str(), e.line, e.message.c_str());
      ImGui::TextDisabled("(%s keeps its last good pipeline)", e.pipeline.c_str());
      ImGui::PushID(e.pipeline.c_str());
      ImGui::InputTextMultiline("##log", const_cast<char*>(e.log.c_str()), e.log.size() + 1, ImVec2(-1, 80),
                                ImGuiInputTextFlags_ReadOnly);
      ImGui::PopID();
    }
  }

  ImGui::Separator();
  actions.screenshot = ImGui::Button("screenshot (F12)");
  if (!in.status.empty()) {
    ImGui::SameLine();
    ImGui::TextWrapped("%s", in.status.c_str());
  }
  ImGui::End();

  draw_right_column(state, in);
  return actions;
}

}  // namespace filterlab::app
