// fxaa.auto's built-in table (filters/auto_method.h). The family has no size parameter: one key,
// 0. Measured by bench at 3840x2160 on an NVIDIA H100 80GB HBM3 (driver 580.159.04, 2026-11-27;
// the times are in bench/results/h100-2026-11-27-auto-fxaa-tonemap/): the fragment path runs on
// few units there.
#include "filters/fxaa/fxaa.h"

namespace filterlab::filters::fxaa {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-27", "size": [3840, 2160], "families": {"fxaa": {"key": "none",
  "fp16": {"0": ["comp.fxaa", "frag.fxaa"]},
  "fp32": {"0": ["comp.fxaa", "frag.fxaa"]}}}})";
}

}  // namespace filterlab::filters::fxaa
