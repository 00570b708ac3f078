// gaussian.auto's built-in table (filters/auto_method.h): what it picks on a device without a table of
// its own. Written by `filterlab bench --tune --sizes 3840x2160` on an NVIDIA H100 80GB HBM3
// (driver 580.159.04, 2026-11-26, sitting e of bench/results/h100-2026-11-26-floor/): per precision and
// radius, the exact methods fastest first.
#include "filters/gaussian/methods.h"

namespace filterlab::filters::gaussian {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-26T05:42:10Z", "size": [3840, 2160], "families": {"gaussian": {"key": "radius",
  "fp16": {
    "1": ["comp.separable_shuffle", "comp.separable_stream", "comp.separable_fused", "comp.quad_subgroup",
      "comp.quad_derivative", "comp.full2d_shared", "comp.tiled", "comp.separable_shared",
      "frag.quad_derivative", "frag.full2d", "frag.separable"],
    "2": ["comp.separable_stream", "comp.separable_shuffle", "comp.separable_fused", "comp.quad_derivative",
      "comp.quad_subgroup", "comp.full2d_shared", "comp.tiled", "comp.separable_shared",
      "frag.quad_derivative", "frag.separable", "frag.full2d"],
    "3": ["comp.separable_stream", "comp.separable_shuffle", "comp.separable_fused", "comp.quad_derivative",
      "comp.quad_subgroup", "comp.tiled", "comp.separable_shared", "comp.full2d_shared", "frag.separable",
      "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.separable_stream", "comp.separable_shuffle", "comp.separable_fused",
      "comp.separable_shared", "comp.quad_subgroup", "comp.tiled", "comp.quad_derivative",
      "comp.full2d_shared", "frag.separable", "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.separable_stream", "comp.separable_shared", "comp.separable_fused",
      "comp.separable_shuffle", "comp.tiled", "comp.quad_subgroup", "comp.quad_derivative",
      "comp.full2d_shared", "frag.separable", "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.separable_stream", "comp.separable_shared", "comp.separable_fused", "comp.tiled",
      "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared", "frag.separable",
      "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.separable_stream", "comp.separable_shared", "comp.tiled", "comp.quad_derivative",
      "comp.quad_subgroup", "frag.separable", "frag.quad_derivative", "frag.full2d"]
  },
  "fp32": {
    "1": ["comp.separable_shuffle", "comp.separable_fused", "comp.quad_subgroup", "comp.quad_derivative",
      "comp.separable_stream", "comp.tiled", "comp.full2d_shared", "comp.separable_shared",
      "frag.quad_derivative", "frag.full2d", "frag.separable"],
    "2": ["comp.separable_shuffle", "comp.separable_fused", "comp.separable_stream", "comp.full2d_shared",
      "comp.tiled", "comp.quad_derivative", "comp.quad_subgroup", "comp.separable_shared",
      "frag.quad_derivative", "frag.separable", "frag.full2d"],
    "3": ["comp.separable_shuffle", "comp.separable_stream", "comp.separable_fused", "comp.tiled",
      "comp.full2d_shared", "comp.separable_shared", "comp.quad_derivative", "comp.quad_subgroup",
      "frag.separable", "frag.quad_derivative", "frag.full2d"],
    "4": ["comp.separable_shuffle", "comp.separable_stream", "comp.separable_fused", "comp.tiled",
      "comp.separable_shared", "comp.quad_subgroup", "comp.quad_derivative", "comp.full2d_shared",
      "frag.separable", "frag.quad_derivative", "frag.full2d"],
    "8": ["comp.separable_stream", "comp.separable_shuffle", "comp.separable_fused",
      "comp.separable_shared", "comp.tiled", "comp.quad_derivative", "comp.quad_subgroup",
      "comp.full2d_shared", "frag.separable", "frag.quad_derivative", "frag.full2d"],
    "16": ["comp.separable_stream", "comp.separable_shared", "comp.separable_fused", "comp.tiled",
      "comp.quad_derivative", "comp.quad_subgroup", "comp.full2d_shared", "frag.separable",
      "frag.quad_derivative", "frag.full2d"],
    "32": ["comp.separable_shared", "comp.separable_stream", "comp.tiled", "comp.quad_derivative",
      "comp.quad_subgroup", "frag.separable", "frag.quad_derivative", "frag.full2d"]
  }}}})";
}

}  // namespace filterlab::filters::gaussian
