#pragma once
// variance comp.running: box sums that slide down strips and are prefix-summed along the rows, so a
// pixel costs the same at every radius (shaders/filters/variance/variance_running.comp).
#include "filters/family.h"

namespace filterlab::filters::variance {

Method running_method();

}  // namespace filterlab::filters::variance
