// variance.auto's built-in table (filters/auto_method.h): what it picks on a device without a
// table of its own. Written by `filterlab bench --filter variance --tune` at 3840x2160, radius 1-32,
// on an NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-27; call c5 of
// bench/results/h100-2026-11-27-running-stores/): per precision and radius, the exact methods
// fastest first. comp.stream and comp.separable_shared were taken out when they became inexact
// (issue #54: their fp32 sums cancel in flat windows); the others keep their measured order.
// comp.running's place was measured with its fp32 sums; its sums are doubles now, 2.3-3.1x its
// fp32 time on an H200: this table is due for a new measurement (issue #58).
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
    "3": ["comp.quad_derivative", "comp.running", "comp.quad_subgroup", "comp.full2d_shared",
      "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.running", "comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared",
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
    "3": ["comp.running", "comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative",
      "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.running", "comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative",
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
