// `filterlab filters`: every family, its methods (one a line, with what each does) and parameters.
#include "command.h"

#include <iostream>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    "  filters             list the filters and methods usable in --chain\n";

Work prepare(Args& args) {
  if (args.next()) throw UsageError("filters takes no options, got '" + args.flag() + "'");
  return [] {
    std::cout << families_text(true);
    return 0;
  };
}

}  // namespace

const Command& filters_command() {
  static const Command command{"filters", kSynopsis, "", 0, prepare};
  return command;
}

}  // namespace filterlab::app
