// bilateral.auto's built-in table (filters/auto_method.h): what it picks on a device without a
// table of its own. Written by `filterlab bench --filter bilateral --tune` at 3840x2160, radius 1-32,
// on an NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-27; sitting 2 of
// bench/results/h100-2026-11-27-pyramid-running/): per precision and radius, the exact methods
// fastest first.
#include "filters/bilateral/bilateral.h"

namespace filterlab::filters::bilateral {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-27T09:12:51Z", "size": [3840, 2160], "families": {"bilateral": {"key": "radius",
  "fp16": {
    "1": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.full2d",
      "frag.quad_derivative"],
    "2": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.full2d",
      "frag.quad_derivative"],
    "3": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.full2d",
      "frag.quad_derivative"],
    "4": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.full2d",
      "frag.quad_derivative"],
    "8": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.full2d",
      "frag.quad_derivative"],
    "16": ["comp.full2d_shared", "comp.quad_derivative", "comp.quad_subgroup", "frag.full2d",
      "frag.quad_derivative"],
    "32": ["comp.quad_derivative", "comp.quad_subgroup", "frag.full2d", "frag.quad_derivative"]
  },
  "fp32": {
    "1": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"],
    "2": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"],
    "3": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"],
    "4": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"],
    "8": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "frag.quad_derivative",
      "frag.full2d"],
    "16": ["comp.full2d_shared", "comp.quad_derivative", "comp.quad_subgroup", "frag.quad_derivative",
      "frag.full2d"],
    "32": ["comp.quad_derivative", "comp.quad_subgroup", "frag.quad_derivative", "frag.full2d"]
  }}}})";
}

}  // namespace filterlab::filters::bilateral
