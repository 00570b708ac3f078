// filterlab: real-time image filtering methods on Vulkan, measured and checked. The command line's
// commands are in app/commands/ (app/command.h); an error that leaves one is its exit code here.
#include "command.h"

#include <filesystem>
#include <string>
#include <vector>

namespace {

std::filesystem::path exe_dir(const char* argv0) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.parent_path();
  return std::filesystem::absolute(argv0).parent_path();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const filterlab::app::Work work =
        filterlab::app::prepare(std::vector<std::string>(argv + 1, argv + argc), exe_dir(argv[0]));
    return work();
  } catch (const std::exception& e) {
    return filterlab::app::exit_code_of(e);
  }
}
