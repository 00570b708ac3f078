#pragma once
// The right column: the A/B metrics (over the displayed images or the HDR outputs), the pixel
// inspector and the per-pass GPU timings; collapsed, a strip.
#include "ui/panel.h"

namespace filterlab::app {

void draw_right_column(AppState& state, const PanelInputs& in);

}  // namespace filterlab::app
