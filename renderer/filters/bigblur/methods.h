#pragma once
// The bigblur family's methods, one list per file.
#include "filters/family.h"

namespace filterlab::filters::bigblur {

std::vector<Method> line_methods();     // bigblur.cpp: comp.exact, comp.recursive
std::vector<Method> pyramid_methods();  // pyramid.cpp: comp.mip_poisson, comp.dual_filter, comp.cod13

}  // namespace filterlab::filters::bigblur
