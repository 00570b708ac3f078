#pragma once
// Everything a command reads, checked before any Vulkan call (the instance included): the shader
// folder against the build's list, the tune table $FILTERLAB_TUNE names, the chains, and the image
// names captures and the viewport ask for. A problem throws what main() turns into one line and
// exit 2. Checks that need the device (its limits, its memory) run right after it is chosen, before
// any upload.
#include "cli.h"

namespace filterlab::app {

void check_before_device(const CliOptions& options);

}  // namespace filterlab::app
