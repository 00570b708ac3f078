#pragma once
// The commands that drive the filters directly (no scene loop): each returns the exit code.
#include "cli.h"

namespace filterlab::app {

int list_methods(const CliOptions& options);    // filterlab methods [--json]
int filter_file(const CliOptions& options);     // filterlab filter --input ... --output ...
int run_benchmark(const CliOptions& options);   // filterlab bench
int quality_tables(const CliOptions& options);  // filterlab quality
int compare_files(const CliOptions& options);   // filterlab compare A B
int write_report(const CliOptions& options);    // filterlab report A.json ... --out F.html

}  // namespace filterlab::app
