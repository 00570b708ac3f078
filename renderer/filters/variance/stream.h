#pragma once
// variance comp.stream: sliding box sums down strips (shaders/filters/variance/variance_stream.comp).
#include "filters/family.h"

namespace filterlab::filters::variance {

Method stream_method();

}  // namespace filterlab::filters::variance
