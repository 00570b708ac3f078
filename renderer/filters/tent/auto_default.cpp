// tent.auto's built-in table (filters/auto_method.h): what it picks on a device without a
// table of its own. Written by `filterlab bench --filter tent --tune` at 3840x2160, radius 1-32,
// on an NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-28; call e1 of
// bench/results/h100-2026-11-28-fft-sizes/, comp.running's strips as running_rows gives them): per
// precision and radius, the exact methods fastest first.
#include "filters/tent/tent.h"

namespace filterlab::filters::tent {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-28T00:49:04Z", "size": [3840, 2160], "families": {"tent": {"key": "radius",
  "fp16": {
    "1": ["comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared", "comp.running",
      "comp.separable_shared", "frag.full2d", "frag.quad_derivative"],
    "2": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "3": ["comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.running", "comp.separable_shared", "comp.quad_subgroup", "comp.quad_derivative",
      "comp.full2d_shared", "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.separable_shared", "comp.running", "comp.quad_derivative", "comp.quad_subgroup",
      "comp.full2d_shared", "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.running", "comp.separable_shared", "comp.quad_subgroup", "comp.quad_derivative",
      "frag.quad_derivative", "frag.full2d"]
  },
  "fp32": {
    "1": ["comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "2": ["comp.full2d_shared", "comp.quad_derivative", "comp.quad_subgroup", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "3": ["comp.full2d_shared", "comp.quad_derivative", "comp.quad_subgroup", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.quad_derivative", "comp.full2d_shared", "comp.quad_subgroup", "comp.running",
      "comp.separable_shared", "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.running", "comp.separable_shared", "comp.full2d_shared", "comp.quad_subgroup",
      "comp.quad_derivative", "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.separable_shared", "comp.running", "comp.quad_subgroup", "comp.quad_derivative",
      "comp.full2d_shared", "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.running", "comp.separable_shared", "comp.quad_derivative", "comp.quad_subgroup",
      "frag.quad_derivative", "frag.full2d"]
  }}}})";
}

}  // namespace filterlab::filters::tent
