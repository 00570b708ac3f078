#pragma once
// The commands that drive the filters directly (no scene loop): each returns the exit code.
#include "cli.h"
#include "vk/context.h"

#include <filesystem>
#include <string>

namespace filterlab::app {

int list_methods(const CliOptions& options);    // filterlab methods [--json]
int filter_file(const CliOptions& options);     // filterlab filter --input ... --output ...
int run_benchmark(const CliOptions& options);   // filterlab bench
int quality_tables(const CliOptions& options);  // filterlab quality
int evaluate(const CliOptions& options);        // filterlab evaluate (app/evaluate.cpp)
int compare_files(const CliOptions& options);   // filterlab compare A B
int write_report(const CliOptions& options);    // filterlab report A.json ... --out F.html

// Shared by the commands: the device (compute-shader derivatives enabled where it has them), exit
// code 4 after validation messages, a file written whole or not at all.
vk::Context make_context(const DeviceOptions& gpu);
int validation_exit_code(const vk::Context& ctx);
void write_text(const std::filesystem::path& path, const std::string& text);

}  // namespace filterlab::app
