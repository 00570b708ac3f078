#pragma once
// `filterlab run`: the scene and chain in the window, or headless (--headless): frames rendered,
// images captured, every pass timed.
#include "args.h"
#include "runtime/headless_runner.h"
#include "window_options.h"

namespace filterlab::app {

struct RunRequest {
  bool headless = false;
  runtime::RunOptions run;
  WindowOptions window;  // without --headless
};

// The options, the preset --load-chain names and $FILTERLAB_WINDOW_SCRIPT (the window's, for tests),
// read and checked as far as they go without the shader folder.
RunRequest parse_run(Args& args);

}  // namespace filterlab::app
