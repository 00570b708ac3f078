#pragma once
// A command of the command line: its name, its lines of the help, and prepare(), which reads its
// options and checks all it can before any device (a problem throws UsageError or an input error:
// exit 2) and returns the work, which opens the device and returns the exit code. A command is its
// file in app/commands/ and one line in app/commands/registry.cpp; the help, `help COMMAND`,
// `COMMAND --help` and the nearest command or option to a mistyped one come from the registry.
#include "args.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace filterlab::app {

using Work = std::function<int()>;

struct Command {
  // What the help says besides the command's own text.
  enum Trait : unsigned {
    kDeviceOptions = 1,  // takes --device, --validation, --shader-dir and --shader-source
    kFamilyParams = 2,   // takes a family's parameters as --KEY VALUE
    kNamesFilters = 4,   // its options name filters and methods (the help points at `filterlab filters`)
  };
  std::string_view name;
  std::string_view synopsis;  // its entries in the help's list of commands, continuation lines indented
  std::string_view options;   // its section(s) of the help, "NAME options:" first; empty: none
  unsigned traits = 0;
  Work (*prepare)(Args& args) = nullptr;
};

const std::vector<const Command*>& commands();  // in the help's order (app/commands/registry.cpp)
const Command* find_command(std::string_view name);

// What the command line (argv without argv[0]) asks for: a command and its arguments, its help
// (`help COMMAND`, `COMMAND --help`; an empty name: all of it) or the version. `filterlab` alone is
// `filterlab run`. An unknown command throws UsageError, with the nearest one.
struct Request {
  const Command* command = nullptr;  // null: the help or the version
  std::vector<std::string> args;     // after the command's name
  std::optional<std::string> help;   // the help of this command ("": all of it)
};
Request read_request(const std::vector<std::string>& argv);
// The request's work: the command's prepare(), or printing the help or the version.
Work prepare(const std::vector<std::string>& argv, const std::filesystem::path& exe_dir);

std::string usage_text();                            // the whole help, then every family
std::string command_help(std::string_view command);  // `filterlab COMMAND --help`
std::string families_text(bool method_lines);        // every family, its methods and parameters
std::string unknown_argument_text(std::string_view command, const std::string& argument);

// The exit code of an error that left a command: 2 bad input, 3 no device, 1 anything else; the one
// line that says it is written to stderr.
int exit_code_of(const std::exception& error);

}  // namespace filterlab::app
