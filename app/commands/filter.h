#pragma once
// `filterlab filter`: one image file through one method of one family, with no window.
#include "args.h"
#include "io/image_files.h"

namespace filterlab::app {

struct FilterRequest {
  std::filesystem::path input, output;
  filters::FilterStep step;  // what --filter, --method, --param and the shorthands spell
  bool raw = false;
  // --png-format: the PNG outputs' channels and bits; unset: the input's (a gray 16-bit PNG stays one)
  std::optional<io::PngLayout> png;
  // --capture NAME=FILE: more images of the step's graph (a second output beside the first), each
  // written like the output.
  std::vector<runtime::Capture> captures;
  DeviceOptions gpu;
};

FilterRequest parse_filter(Args& args);  // checked against the family's schema

}  // namespace filterlab::app
