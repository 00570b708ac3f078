// frag.quad_derivative, frag.quad_derivative_coarse, comp.quad_subgroup, comp.quad_derivative: not written yet.
#include "filters/blur_methods.h"

namespace filterlab::filters {

std::vector<BlurMethod> quad_blur_methods() { return {}; }

}  // namespace filterlab::filters
