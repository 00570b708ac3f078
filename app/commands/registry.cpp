// The commands, in the order the help lists them. A command is its file in app/commands/ (its
// options, its checks before the device, its work) and its line here (docs/contributing.md).
#include "command.h"

namespace filterlab::app {

#define FILTERLAB_COMMANDS(X) \
  X(run)                      \
  X(info)                     \
  X(filters)                  \
  X(methods)                  \
  X(filter)                   \
  X(bench)                    \
  X(tune)                     \
  X(quality)                  \
  X(evaluate)                 \
  X(report)                   \
  X(compare)

#define FILTERLAB_DECLARE(name) const Command& name##_command();
FILTERLAB_COMMANDS(FILTERLAB_DECLARE)

const std::vector<const Command*>& commands() {
#define FILTERLAB_ENTRY(name) &name##_command(),
  static const std::vector<const Command*> all = {FILTERLAB_COMMANDS(FILTERLAB_ENTRY)};
  return all;
}

}  // namespace filterlab::app
