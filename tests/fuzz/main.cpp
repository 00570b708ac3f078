// One libFuzzer binary per target: FILTERLAB_FUZZ_TARGET names it (tests/fuzz/CMakeLists.txt).
#include "targets.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const filterlab::fuzz::Target* target = filterlab::fuzz::find_target(FILTERLAB_FUZZ_TARGET);
  if (!target) std::abort();
  target->run(data, size);
  return 0;
}
