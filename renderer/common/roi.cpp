#include "common/roi.h"

#include <charconv>
#include <string_view>
#include <vector>

namespace filterlab::common {
namespace {

bool parse_uint(std::string_view text, uint32_t& value) {
  if (text.empty() || text.size() > 9) return false;  // keeps x + w far from overflow
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<Roi> parse_roi(const std::string& text) {
  Roi roi;
  std::string_view rest = text;
  if (text.find(',') != std::string::npos) {  // x,y,w,h
    std::vector<std::string_view> parts;
    while (true) {
      size_t comma = rest.find(',');
      parts.push_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (parts.size() != 4 || !parse_uint(parts[0], roi.x) || !parse_uint(parts[1], roi.y) ||
        !parse_uint(parts[2], roi.width) || !parse_uint(parts[3], roi.height))
      return std::nullopt;
  } else {  // WxH+X+Y
    const size_t times = rest.find('x'), plus1 = rest.find('+');
    const size_t plus2 = plus1 == std::string_view::npos ? plus1 : rest.find('+', plus1 + 1);
    if (times == std::string_view::npos || plus2 == std::string_view::npos || times > plus1 ||
        !parse_uint(rest.substr(0, times), roi.width) ||
        !parse_uint(rest.substr(times + 1, plus1 - times - 1), roi.height) ||
        !parse_uint(rest.substr(plus1 + 1, plus2 - plus1 - 1), roi.x) ||
        !parse_uint(rest.substr(plus2 + 1), roi.y))
      return std::nullopt;
  }
  if (roi.width < 1 || roi.height < 1) return std::nullopt;
  return roi;
}

std::string roi_text(const Roi& r) {
  return std::to_string(r.width) + "x" + std::to_string(r.height) + "+" + std::to_string(r.x) + "+" +
         std::to_string(r.y);
}

}  // namespace filterlab::common
