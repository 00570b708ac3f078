#pragma once
// What the viewport itself draws over the picture, in every layout (the columns shown or not): the
// A/B labels and the pinned pixel's marker. Nothing else goes over the picture.
#include "app_state.h"
#include "ui/layout.h"

#include <vulkan/vulkan.h>

namespace filterlab::app {

// "A" and "B" near the viewport's bottom edge, where the compare view puts each chain; "|A-B|" over
// the heat map. `image`: the graph's image, shown 1:1 in `viewport`.
void draw_compare_labels(const passes::CompareSettings& c, VkExtent2D image, const Rect& viewport,
                         const ViewZoom& zoom);
// The pinned pixel's marker: a one-pixel outline around it (none when zoomed away from it).
void draw_pinned_marker(const Inspector& inspector, const Rect& viewport, VkExtent2D image,
                        const ViewZoom& zoom);

}  // namespace filterlab::app
