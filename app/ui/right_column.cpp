#include "ui/right_column.h"

#include "ui/column.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace filterlab::app {
namespace {

// Mean FLIP (B against A), saying which FLIP and how it viewed them.
void flip_line(const std::optional<passes::FlipResult>& f) {
  if (!f) return;
  if (f->hdr && f->exposures.count == 0) {
    ImGui::TextWrapped("FLIP    n/a (A's median luminance is 0: HDR-FLIP has no exposure range)");
    return;
  }
  ImGui::Text("FLIP    %.5f (mean, %s)", f->mean, f->kind());
  if (f->hdr)
    ImGui::TextDisabled("        %u exposures, %+.2f to %+.2f stops%s, %.1f px/degree", f->exposures.count,
                        f->exposures.start, f->exposures.stop, f->complete ? "" : " (not all this frame)",
                        f->ppd);
  else ImGui::TextDisabled("        %.1f px/degree (a 0.7 m 4K monitor at 0.7 m)", f->ppd);
}

// The A/B metrics, each line saying what it is taken over: the displayed images by default (what
// the user looks at: 8-bit sRGB values, the difference in levels), the HDR outputs on request.
void metrics_table(AppState& state, const PanelInputs& in) {
  ImGui::Checkbox("metrics on the HDR outputs", &state.metrics_on_hdr);
  const bool hdr = state.metrics_on_hdr;
  const std::optional<passes::CompareMetrics>& m = hdr ? in.metrics : in.displayed_metrics;
  if (!m) {
    ImGui::TextDisabled("metrics: waiting for the first frame");
    return;
  }
  ImGui::TextWrapped(
      "A vs B, frame %llu, %ux%u, RGB of %s", static_cast<unsigned long long>(m->frame), m->extent.width,
      m->extent.height,
      hdr ? "the HDR outputs (linear radiance)" : "the displayed images (tonemapped, sRGB, 8 bits, in 0..1)");
  ImGui::Text("MSE     %.6g", m->values.mse);
  if (std::isinf(m->values.psnr)) ImGui::Text("PSNR    inf dB (identical)");
  else ImGui::Text("PSNR    %.2f dB%s", m->values.psnr, hdr ? " (peak 1: HDR values pass it)" : "");
  if (m->values.ssim) ImGui::Text("SSIM    %.5f (11x11, mean of R, G, B)", *m->values.ssim);
  flip_line(m->flip);
  if (hdr) ImGui::Text("max |A-B| %.6g", m->values.max_abs);
  else ImGui::TextWrapped("max |A-B| %ld levels of 255", std::lround(m->values.max_abs * 255));
}

// Passes that recorded nothing this frame have no time to show: named apart, not as 0.000 rows.
void idle_passes_line(const TimingHistory& t) {
  if (t.idle_passes().empty()) return;
  std::string names;
  for (const std::string& pass : t.idle_passes()) names += (names.empty() ? "" : ", ") + pass;
  ImGui::TextWrapped("idle this frame (nothing recorded): %s", names.c_str());
}

void timings_table(AppState& state, const TimingHistory& t, const vk::DeviceReport& device) {
  ImGui::Checkbox("GPU timing", &state.gpu_timing);
  if (device.device_type == "cpu") {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.3f, 1));
    ImGui::TextWrapped("%s is a CPU device: these are CPU timings", device.name.c_str());
    ImGui::PopStyleColor();
  }
  const RollingStats total = t.gpu_total(), cpu = t.cpu_frame();
  ImGui::TextWrapped("GPU frame %.3f ms (mean of %zu), CPU frame %.2f ms", total.mean, total.count, cpu.mean);
  // A narrow column (the default at 960 wide) shows the mean and the history; a wider one also min
  // and max.
  const bool wide = ImGui::GetContentRegionAvail().x >= 340;
  if (!ImGui::BeginTable(
          "timings", wide ? 5 : 3,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit))
    return;
  // The pass column keeps one width, whatever the names: a long one is elided in the middle.
  const size_t kPassChars = wide ? 22 : 14;
  ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthFixed,
                          ImGui::CalcTextSize(std::string(kPassChars, 'm').c_str()).x);
  ImGui::TableSetupColumn("mean ms");
  if (wide) {
    ImGui::TableSetupColumn("min");
    ImGui::TableSetupColumn("max");
  }
  ImGui::TableSetupColumn("history", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const std::string& pass : t.pass_order()) {
    const RollingStats s = t.pass_stats(pass);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string shown = elide_middle(pass, kPassChars);
    ImGui::TextUnformatted(shown.c_str());
    if (shown != pass && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", pass.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", s.mean);
    if (wide) {
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.min);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.max);
    }
    ImGui::TableNextColumn();
    const std::vector<float> h = t.pass_history(pass);
    ImGui::PushID(pass.c_str());
    ImGui::PlotLines("##h", h.data(), int(h.size()), 0, nullptr, 0.0f, float(s.max) * 1.1f + 1e-6f,
                     ImVec2(std::max(ImGui::GetContentRegionAvail().x, 24.0f), 16));
    ImGui::PopID();
  }
  ImGui::EndTable();
  idle_passes_line(t);
  if (!state.gpu_timing) ImGui::TextDisabled("GPU timing is off: the table shows zeros");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("'present' includes the wait for the swapchain copy; with FIFO it follows vsync");
  ImGui::PopStyleColor();
}

// The pixel inspector: the pixel's coordinates, A's and B's values as stored (linear) and as shown
// (sRGB, 0-255), and |A-B| of each.
void inspector_section(AppState& state, const PanelInputs& in) {
  Inspector& i = state.inspector;
  if (!ImGui::CollapsingHeader("Pixel", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (i.pinned) {
    if (ImGui::SmallButton("unpin")) i.pinned = false;
  } else {
    ImGui::TextDisabled("under the cursor; right click pins one");
  }
  if (!in.pixel) {
    ImGui::TextDisabled("waiting for the first frame");
    return;
  }
  const passes::PixelValues& p = *in.pixel;
  ImGui::Text("(%d, %d)%s", p.x, p.y, i.pinned ? " pinned" : "");
  const bool two = state.graph.compare;
  auto linear = [](const char* label, const std::array<float, 4>& v) {
    ImGui::Text("%s %.4g %.4g %.4g %.4g", label, v[0], v[1], v[2], v[3]);
  };
  auto shown = [](const char* label, const std::array<float, 4>& v) {
    ImGui::Text("%s %ld %ld %ld", label, std::lround(v[0] * 255), std::lround(v[1] * 255),
                std::lround(v[2] * 255));
  };
  linear(two ? "A linear" : "linear", p.rgba[0]);
  if (two) linear("B linear", p.rgba[1]);
  shown(two ? "A shown " : "shown ", p.rgba[2]);
  if (two) {
    shown("B shown ", p.rgba[3]);
    float d = 0, levels = 0;
    for (int c = 0; c < 3; ++c) {
      d = std::max(d, std::abs(p.rgba[0][c] - p.rgba[1][c]));
      levels = std::max(levels, std::abs(std::round(p.rgba[2][c] * 255) - std::round(p.rgba[3][c] * 255)));
    }
    ImGui::Text("|A-B| %.4g linear, %.0f levels", d, levels);
  }
}

}  // namespace

// The right column: the A/B metrics first (a long chain cannot push them out of sight), then the
// timings table, which scrolls past the column's height.
void draw_right_column(AppState& state, const PanelInputs& in) {
  if (!state.columns.timings_open) {
    collapsed_column("##timings", in.layout.timings, "<", state.columns.timings_open);
    return;
  }
  begin_open_column("GPU timings", in.layout.timings, state.columns.timings_width);
  if (ImGui::SmallButton("hide >>")) state.columns.timings_open = false;
  if (state.graph.compare) {
    metrics_table(state, in);
    ImGui::Separator();
  }
  inspector_section(state, in);
  ImGui::Separator();
  timings_table(state, in.timings, in.ctx.report());
  ImGui::End();
}

}  // namespace filterlab::app
