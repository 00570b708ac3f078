// GPU tier, run alone (RUN_SERIAL): per-pass timestamps on a CPU device measure the pass they
// bracket. Before the stamps were flushed (graph/gpu_timer.h), a compute pass that followed another
// compute pass read ~0 ms and its work was billed to nobody, so the same pass read 0.08 or 118 ms
// depending on its position in the chain.
#include "gpu_test_util.h"

#include <algorithm>

using namespace filterlab;

namespace {

// The median GPU time of pass `name`.
double pass_ms(const runtime::RunResult& r, const std::string& name) {
  for (const runtime::PassStats& p : r.passes)
    if (p.name == name) return p.gpu_ms.median;
  ADD_FAILURE() << "no pass " << name;
  return 0;
}

double sum_of_passes(const runtime::RunResult& r) {
  double sum = 0;
  for (const runtime::PassStats& p : r.passes) sum += p.gpu_ms.median;
  return sum;
}

}  // namespace

TEST(LavapipeTimings, APassTakesTheSameTimeWhereverItStandsAndThePassesAddUpToTheFrame) {
  auto o = test::validated_run(2560, 1440);
  o.frames = 20;  // medians over 20 frames
  o.warmup = 2;
  {
    vk::ContextOptions options;
    if (vk::Context(options).report().device_type != "cpu")
      GTEST_SKIP() << "checks the CPU device's timestamps; a GPU's are taken as they come";
  }
  // Two compute passes reading the scene, each at least 10 ms on lavapipe at this size (about 20 and
  // 40 ms on a 2-core machine). Each chain holds one of them twice, first after the scene's graphics
  // pass and again after the other compute pass, so both positions are timed in the same frames and a
  // neighbour's load on a shared CI machine moves both alike (two separate runs, one per order,
  // differed by 1.37x once for that reason alone).
  const std::string copy = "copy", blur = "gaussian.comp.tiled:radius=2";
  o.chain = copy + "," + blur + "," + copy;
  const runtime::RunResult copies = runtime::run_headless(o);
  o.chain = blur + "," + copy + "," + blur;
  const runtime::RunResult blurs = runtime::run_headless(o);
  EXPECT_EQ(copies.validation_messages + blurs.validation_messages, 0u);

  for (const auto& [r, pass] : {std::pair{&copies, "copy"}, std::pair{&blurs, "gaussian"}}) {
    const double a = pass_ms(*r, pass), b = pass_ms(*r, std::string(pass) + ".2");
    EXPECT_GE(std::min(a, b), 10.0) << pass << ": the check needs passes of at least 10 ms";
    EXPECT_LE(std::max(a, b), 1.3 * std::min(a, b)) << pass << " " << a << " ms first, " << b << " ms second";
  }
  for (const runtime::RunResult* r : {&copies, &blurs}) {
    const double sum = sum_of_passes(*r);
    EXPECT_GE(sum, 0.8 * r->frame_wall_ms) << "passes " << sum << " ms, frame " << r->frame_wall_ms << " ms";
    EXPECT_LE(sum, 1.2 * r->frame_wall_ms) << "passes " << sum << " ms, frame " << r->frame_wall_ms << " ms";
  }
}
