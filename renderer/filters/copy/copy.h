#pragma once
// The copy family: a plain compute copy of the previous step's image, the memory floor every filter
// pass is measured against (`bench` measures each method and takes the fastest as the floor).
#include "filters/family.h"

namespace filterlab::filters::copy {

const Family& family();

}  // namespace filterlab::filters::copy
