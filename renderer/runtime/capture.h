#pragma once
// Turns a read-back graph image into files: .pfm and .exr with exact values (.exr keeps every
// channel, half where the image is 16-bit float), .png for viewing (HDR tonemapped, depth as gray,
// motion as color, RGBA8 images as stored). An HDR image's PNG goes through the run's display
// settings; with automatic exposure, from that image's own geometric mean luminance.
#include "graph/executor.h"
#include "io/image_io.h"
#include "passes/tonemap_curves.h"

#include <filesystem>

namespace filterlab::runtime {

void write_capture(const graph::Readback& readback, const std::filesystem::path& path,
                   const passes::Display& display);
bool capture_extension_supported(const std::filesystem::path& path);

}  // namespace filterlab::runtime
