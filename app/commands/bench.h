#pragma once
// `filterlab bench`: methods timed beside the memory floor's copy (renderer/bench/bench.h).
#include "args.h"
#include "bench/bench.h"

namespace filterlab::app {

struct BenchRequest {
  bench::BenchOptions bench;  // with the device options
  std::optional<std::filesystem::path> json, csv;
  bool quiet = false;
};

BenchRequest parse_bench(Args& args);  // every case's step checked against the schema

}  // namespace filterlab::app
