// comp.tiled: not written yet.
#include "filters/blur_methods.h"

namespace filterlab::filters {

std::vector<BlurMethod> tiled_blur_methods() { return {}; }

}  // namespace filterlab::filters
