#pragma once
// The gaussian family: one linear kernel definition (common/kernel.h: Gaussian, box or binomial, of
// radius r), many methods, each checked against the same double-precision reference with a
// clamp-to-edge border. `--chain gaussian.<method>:radius=R[:sigma=S][:kernel=K][:precision=P]`.
// The methods live beside this file, one file per kind (fragment.cpp, compute.cpp, tiled.cpp,
// quad.cpp); methods.h is what they share.
#include "filters/family.h"

namespace filterlab::filters::gaussian {

const Family& family();

}  // namespace filterlab::filters::gaussian
