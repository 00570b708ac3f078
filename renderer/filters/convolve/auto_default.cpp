// convolve.auto's built-in table (filters/auto_method.h), keyed on the kernel's half side ((side - 1)
// / 2: a generated kernel's radius, a file's from its size). From the H100 sittings on
// docs/families/convolve.md (NVIDIA H100 80GB HBM3, driver 580.159.04, 3840x2160, disk kernels,
// fp32, where the times are): direct.full2d grows as the kernel's area and fft.vkfft stays flat, and
// they cross between radius 6 and 7 (measured 2026-11-28). direct.separable is last: its time
// grows with the kernel's rank, which the side does not tell (a disk takes many terms). fp16 takes
// the fp32 ranking (not measured apart).
#include "filters/convolve/convolve.h"

namespace filterlab::filters::convolve {

const char* auto_default_table() {
  return R"({"schema": "filterlab.tune/1", "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
  "date": "2026-11-26", "size": [3840, 2160], "families": {"convolve": {"key": "kernel half side",
  "fp16": {
    "6": ["direct.full2d", "fft.vkfft", "direct.separable"],
    "127": ["fft.vkfft", "direct.full2d", "direct.separable"]
  },
  "fp32": {
    "6": ["direct.full2d", "fft.vkfft", "direct.separable"],
    "127": ["fft.vkfft", "direct.full2d", "direct.separable"]
  }}}})";
}

}  // namespace filterlab::filters::convolve
