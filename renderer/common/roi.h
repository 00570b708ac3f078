#pragma once
// A rectangle of pixels (AMD's region of interest): the tiled blur reads only inside its source ROI
// and writes only inside its target ROI; compare() measures error over one.
#include <cstdint>
#include <optional>
#include <string>

namespace filterlab::common {

struct Roi {
  uint32_t x = 0, y = 0, width = 0, height = 0;
  bool operator==(const Roi&) const = default;
  bool fits_in(uint32_t image_width, uint32_t image_height) const {
    return uint64_t(x) + width <= image_width && uint64_t(y) + height <= image_height;
  }
};

// `x,y,w,h` or `WxH+X+Y` (X11 geometry, which fits inside a --chain step), with w, h >= 1.
std::optional<Roi> parse_roi(const std::string& text);
// As `WxH+X+Y`: the spelling that fits inside a --chain step.
std::string roi_text(const Roi& roi);

}  // namespace filterlab::common
