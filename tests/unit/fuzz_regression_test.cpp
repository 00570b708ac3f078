// The fuzz targets (tests/fuzz/targets.cpp) over their seed corpora (tests/fuzz/corpus/TARGET) and
// every input a fuzzer found a problem with (tests/fuzz/regressions/TARGET): each must come back
// without a crash, a hang or an escaping exception, here in the normal build (and under ASan and
// UBSan in scripts/test.sh --sanitize). A finding is copied there before it is fixed.
#include "../fuzz/targets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace filterlab {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const std::string& target, const char* kind) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(FILTERLAB_SOURCE_DIR) / "tests" / "fuzz" / kind / target;
  if (fs::is_directory(dir))
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class FuzzInputs : public testing::TestWithParam<fuzz::Target> {};

TEST_P(FuzzInputs, EverySeedAndEveryFindingIsHandled) {
  const fuzz::Target& target = GetParam();
  const std::vector<fs::path> seeds = inputs_of(target.name, "corpus");
  EXPECT_FALSE(seeds.empty()) << "no seed corpus for " << target.name << " (scripts/make-fuzz-seeds.py)";
  std::vector<fs::path> all = seeds;
  for (const fs::path& p : inputs_of(target.name, "regressions")) all.push_back(p);
  for (const fs::path& path : all) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto start = std::chrono::steady_clock::now();
    EXPECT_NO_THROW(target.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())) << path;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0) << path << ": a hang (the fuzzer's limit is 1 s an input, with sanitizers)";
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzInputs, testing::ValuesIn(fuzz::targets()),
                         [](const testing::TestParamInfo<fuzz::Target>& info) { return info.param.name; });

}  // namespace
}  // namespace filterlab
