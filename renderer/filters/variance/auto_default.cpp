// variance.auto's built-in table (filters/auto_method.h): what it picks on a device without a
// table of its own. Written by `filterlab bench --filter variance --tune` at 3840x2160, radius 1-32,
// on an NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-27; call c5 of
// bench/results/h100-2026-11-27-running-stores/): per precision and radius, the exact methods
// fastest first. comp.stream and comp.separable_shared were taken out when they became inexact
// (issue #54: their fp32 sums cancel in flat windows); the others keep their measured order.
// comp.running's places were measured with its fp32 sums; its sums are doubles now, 2.3-3.1x its
// fp32 time. On an NVIDIA H200 (2026-12-02, the same compute methods within 1% of the H100's times
// here) it took 459 / 467 us fp16 at r = 3 / 4 against 184-265 / 253-406 for the quad and tile
// methods, and stays the fastest from r = 8 (485 against 847): it moved behind them at r = 3 and 4,
// in fp32 alike (not measured). A new table per device is issue #58.
#include "filters/variance/variance.h"

namespace filterlab::filters::variance {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-27T23:47:16Z", "size": [3840, 2160], "families": {"variance": {"key": "radius",
  "fp16": {
    "1": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "2": ["comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "3": ["comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.running", "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared",
      "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.running", "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared",
      "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.running", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"]
  },
  "fp32": {
    "1": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "2": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "3": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.running", "comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative",
      "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.running", "comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative",
      "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.running", "comp.quad_derivative", "comp.quad_subgroup", "frag.quad_derivative",
      "frag.full2d"]
  }}}})";
}

}  // namespace filterlab::filters::variance
