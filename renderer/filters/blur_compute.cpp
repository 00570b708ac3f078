// comp.full2d_shared, comp.separable_shared: not written yet.
#include "filters/blur_methods.h"

namespace filterlab::filters {

std::vector<BlurMethod> compute_blur_methods() { return {}; }

}  // namespace filterlab::filters
