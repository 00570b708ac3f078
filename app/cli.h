#pragma once
// Command-line parsing. Any problem throws UsageError, which main() turns into one line and
// exit code 2.
#include "headless/headless_runner.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::app {

class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Command { Help, Version, Run, Info, ListFilters };

struct CliOptions {
  Command command = Command::Help;
  bool headless = false;
  headless::RunOptions run;
  std::string info_device;
  bool info_validation = false;
  std::optional<std::filesystem::path> info_json;
};

// args excludes argv[0]. exe_dir locates the SPIR-V next to the binary by default.
CliOptions parse_cli(const std::vector<std::string>& args, const std::filesystem::path& exe_dir);
std::string usage_text();

// Value parsers, exposed for tests.
VkExtent2D parse_size(const std::string& text);
uint32_t parse_count(const std::string& flag, const std::string& text, uint32_t min, uint32_t max);

}  // namespace filterlab::app
