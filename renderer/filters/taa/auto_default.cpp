// taa.auto's built-in table (filters/auto_method.h): the resolve's ways of computing the 3x3
// statistics, fastest first. The family has no size parameter: one key, 0. Measured by bench on a
// 3840x2160 scene frame (the defaults: variance clipping, YCoCg, Catmull-Rom history) on an NVIDIA
// H100 80GB HBM3 (driver 580.159.04, 2026-11-27; the times are in
// bench/results/h100-2026-11-27-auto-fxaa-tonemap/ and docs/families/taa.md). The fragment methods
// run on few units there and come last.
#include "filters/taa/taa.h"

namespace filterlab::filters::taa {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-27", "size": [3840, 2160], "families": {"taa": {"key": "none",
  "fp16": {
    "0": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d",
      "frag.quad_derivative", "frag.full2d"]
  },
  "fp32": {
    "0": ["comp.full2d_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d",
      "frag.quad_derivative", "frag.full2d"]
  }}}})";
}

}  // namespace filterlab::filters::taa
