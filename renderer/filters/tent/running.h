#pragma once
// tent comp.running: box and ramp sums that slide down strips and are prefix-summed along the rows,
// so a pixel costs the same at every radius (shaders/filters/tent/tent_running.comp).
#include "filters/family.h"

namespace filterlab::filters::tent {

Method running_method();

}  // namespace filterlab::filters::tent
