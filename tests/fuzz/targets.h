#pragma once
// The fuzz targets: one function per parser of untrusted input, each taking one input of any bytes.
// Every error filterlab reports for bad input (io::IoError, filters::ChainError, the report's
// ReportInputError) is caught; anything else escapes, and a crash, a sanitizer report, a hang or an
// escaping exception is a finding. The same functions run under libFuzzer (tests/fuzz/main.cpp,
// FILTERLAB_FUZZ) and over the seed corpora and every finding kept (tests/fuzz/corpus/,
// tests/fuzz/regressions/) in the normal unit tests (tests/unit/fuzz_regression_test.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::fuzz {

struct Target {
  std::string name;  // the folder of its corpus and regressions
  void (*run)(const uint8_t* data, size_t size);
  size_t max_len;  // the largest input worth trying (libFuzzer's -max_len)
};

const std::vector<Target>& targets();
const Target* find_target(const std::string& name);

}  // namespace filterlab::fuzz
