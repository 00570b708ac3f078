#pragma once
// What the viewport itself draws over the picture, in every layout (the columns shown or not): the
// A/B labels, the pinned pixel's marker and the magnifier's values. Nothing else goes over the picture.
#include "app_state.h"
#include "passes/pixel_probe.h"
#include "ui/layout.h"

#include <optional>

#include <vulkan/vulkan.h>

namespace filterlab::app {

// "A" and "B" near the viewport's bottom edge, where the compare view puts each chain; "|A-B|" over
// the heat map. `image`: the graph's image, shown 1:1 in `viewport`.
void draw_compare_labels(const passes::CompareSettings& c, VkExtent2D image, const Rect& viewport,
                         const ViewZoom& zoom);
// The pinned pixel's marker: a one-pixel outline around it (none when zoomed away from it).
void draw_pinned_marker(const Inspector& inspector, const Rect& viewport, VkExtent2D image,
                        const ViewZoom& zoom);
// With the magnifier on: the values of the pixel at its centre (the cursor's, read one or two frames
// ago) in a caption under its square (over it where the viewport ends first): the coordinates, A's
// and B's linear RGB and displayed sRGB levels.
void draw_magnifier_values(const passes::CompareSettings& c, const std::optional<passes::PixelValues>& cursor,
                           const Rect& viewport, VkExtent2D image, const ViewZoom& zoom);

}  // namespace filterlab::app
