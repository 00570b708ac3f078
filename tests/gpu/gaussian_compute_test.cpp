// GPU tier for the gaussian family's compute methods (renderer/filters/gaussian/compute.cpp:
// comp.full2d_shared, comp.separable_shared, comp.separable_fused, comp.separable_stream,
// comp.separable_shuffle): their registration, costs and shared-memory or subgroup limits, and
// exactness where their tiles and strips meet the image edges. Exactness at every test point, on
// odd sizes, in fp16 and on the HDR scene is registry_reference_test.cpp's. Validation on.
#include "gaussian_fixture.h"

#include "filters/gaussian/gaussian.h"
#include "vk/formats.h"

#include <algorithm>
#include <cmath>
#include <memory>

using namespace filterlab;

namespace {

class GaussianCompute : public test::GaussianFixture {};

const char* const kMethods[] = {"comp.full2d_shared", "comp.separable_shared", "comp.separable_fused",
                                "comp.separable_stream"};
const int kRadii[] = {1, 2, 3, 4, 7, 8, 16, 32};
constexpr int kDesignMaxRadius = 32;  // every gaussian method's limit by design (methods.h)

// Image sizes around tile, strip and subgroup edges: one texel more and less than 16, 32 and 64 in
// each direction, one-pixel lines, and sizes that fit no tile evenly.
const std::pair<uint32_t, uint32_t> kEdgeSizes[] = {{15, 17}, {17, 63}, {255, 65}, {256, 64}, {1, 70},
                                                    {300, 1}, {31, 33}, {33, 17},  {64, 48},  {65, 23},
                                                    {33, 41}, {63, 39}, {97, 25},  {3, 5}};

// Exact methods: fp32 rounding only. The bound is 1e-5 absolute for values in [0, 1).
constexpr double kExactTolerance = 1e-5;

const filters::Method& method(const char* name) {
  const filters::Method* m = filters::gaussian::family().find(name);
  if (!m) throw std::logic_error(std::string("no gaussian method ") + name);
  return *m;
}

filters::MethodCost cost(const char* name, int radius) {
  return method(name).cost(
      filters::resolve(
          filters::parse_chain(std::string("gaussian.") + name + ":radius=" + std::to_string(radius)).at(0))
          .params);
}

// Expects the family to refuse `name` at `radius` (with `extra` parameters) on this device, naming `limit`.
void expect_refused(const vk::Context& context, const vk::ShaderSource& shaders, const char* name, int radius,
                    int limit, const std::string& extra = "") {
  const filters::ResolvedStep step = filters::resolve(
      filters::parse_chain(std::string("gaussian.") + name + ":radius=" + std::to_string(radius) + extra)
          .at(0));
  passes::PassEnv env{context, shaders, 1};
  try {
    filters::build_filter(step, env);
    ADD_FAILURE() << name << " radius " << radius << extra << " was accepted";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("up to " + std::to_string(limit)), std::string::npos) << e.what();
  }
}

}  // namespace

TEST_F(GaussianCompute, MethodsAreRegisteredAsExactComputeMethods) {
  for (const char* name : kMethods) {
    const filters::Method& m = method(name);
    EXPECT_EQ(m.stage, filters::Stage::Compute) << name;
    EXPECT_TRUE(m.exact) << name;
    EXPECT_FALSE(filters::gaussian::family().param("src_roi")->takes(name)) << name;
    EXPECT_GT(m.description.size(), 0u);
  }
  EXPECT_EQ(method("comp.full2d_shared").passes, 1);
  EXPECT_EQ(method("comp.separable_shared").passes, 2);
  EXPECT_EQ(method("comp.separable_fused").passes, 1);
  EXPECT_EQ(method("comp.separable_stream").passes, 1);
}

TEST_F(GaussianCompute, CostsCountTheApronAndTheSharedTraffic) {
  // full2d, r = 1: 16x64 outputs per group (4 per thread), cache 18 x 66.
  filters::MethodCost c = cost("comp.full2d_shared", 1);
  EXPECT_DOUBLE_EQ(c.fetches, 18.0 * 66 / (16 * 64));
  EXPECT_DOUBLE_EQ(c.shared_writes, c.fetches);
  EXPECT_DOUBLE_EQ(c.shared_reads, 6.0 * 3 / 4);  // (2r + K)(2r + 1) / K
  // r = 16: 16x16 outputs, cache 48 x 48, one output per thread: every tap is a shared read.
  c = cost("comp.full2d_shared", 16);
  EXPECT_DOUBLE_EQ(c.fetches, 48.0 * 48 / 256);
  EXPECT_DOUBLE_EQ(c.shared_reads, 33.0 * 33);
  // separable, r = 8: horizontal 256 outputs per row segment, vertical 64 per column segment,
  // 4 outputs per thread in both; the horizontal pass stages its outputs through shared memory
  // (one more write and read per pixel).
  c = cost("comp.separable_shared", 8);
  EXPECT_DOUBLE_EQ(c.fetches, 272.0 / 256 + 80.0 / 64);
  EXPECT_DOUBLE_EQ(c.shared_writes, c.fetches + 1);
  EXPECT_DOUBLE_EQ(c.shared_reads, 2 * 20.0 / 4 + 1);
  // fused, r = 4: 2 outputs per thread down a column (the measured best for 2 <= r <= 4), so
  // 32 x 16 outputs per group, 16 + 8 staged rows of 40 texels, 24 rows of 32 horizontal sums in
  // runs of 4 (192 tasks: one per thread, 12 staged texels read each; runs of 8 read 16, runs of 2
  // need two rounds of 10); the vertical pass reads K + 2r = 10 sums per 2 outputs.
  c = cost("comp.separable_fused", 4);
  const double staged = 40.0 * 24 / (32 * 16), sums = 32.0 * 24 / (32 * 16);
  EXPECT_DOUBLE_EQ(c.fetches, staged);
  EXPECT_DOUBLE_EQ(c.shared_writes, staged + sums);
  EXPECT_DOUBLE_EQ(c.shared_reads, sums * (8.0 + 4) / 4 + (8.0 + 2) / 2);
  // Fetches from device memory always beat the fragment baselines' 2(2r+1) and (2r+1)^2.
  for (int r : kRadii) {
    EXPECT_LT(cost("comp.separable_shared", r).fetches, (4.0 * r + 2)) << r;
    EXPECT_LT(cost("comp.full2d_shared", r).fetches, double((2 * r + 1) * (2 * r + 1))) << r;
    EXPECT_LT(cost("comp.separable_fused", r).fetches, (4.0 * r + 2)) << r;
  }
}

TEST_F(GaussianCompute, SupportFollowsTheDevicesSharedMemory) {
  const uint32_t shared = context_->report().max_compute_shared_memory;
  const int full2d = max_radius("comp.full2d_shared");
  const int separable = max_radius("comp.separable_shared");
  std::printf(
      "device shared memory %u bytes: comp.full2d_shared serves r <= %d, comp.separable_shared r <= %d\n",
      shared, full2d, separable);
  // The separable method serves every radius on any device with 32 KiB (lavapipe, NVIDIA 48 KiB).
  if (shared >= 32 * 1024) {
    EXPECT_EQ(separable, kDesignMaxRadius);
    // full2d's 16x16 tile at r = 14 needs (16 + 28)^2 vec4 = 30976 bytes; r = 19, 46656 bytes.
    EXPECT_GE(full2d, 14);
  }
  if (shared >= 48 * 1024) {
    EXPECT_GE(full2d, 19);
  }
  if (shared < 64 * 1024) {
    EXPECT_LT(full2d, kDesignMaxRadius);
  }

  // A radius past the limit is refused when the filter is created, naming the limit.
  if (full2d < kDesignMaxRadius)
    expect_refused(*context_, *shaders_, "comp.full2d_shared", full2d + 1, full2d);
}

TEST_F(GaussianCompute, FusedLimitFollowsSharedMemoryAndPrecision) {
  const uint32_t shared = context_->report().max_compute_shared_memory;
  const int fp16 = max_radius("comp.separable_fused");
  const int fp32 = max_radius("comp.separable_fused", "fp32");
  std::printf("device shared memory %u bytes: comp.separable_fused serves r <= %d in fp16, r <= %d in fp32\n",
              shared, fp16, fp32);
  // At its limit the tile is 32 x 8 outputs: (8 + 2r) staged rows of 33 + 2r vec4 (odd stride),
  // whatever the precision (the horizontal sums go over the staged texels).
  int largest = 0;
  while (largest < kDesignMaxRadius &&
         uint32_t(8 + 2 * (largest + 1)) * (33 + 2 * (largest + 1)) * 16 <= shared)
    ++largest;
  EXPECT_EQ(fp16, largest);
  EXPECT_EQ(fp32, largest);
  // Stated: on 32 KiB (lavapipe) r <= 13 (32096 bytes; r = 14 needs 35136); on 48 KiB (H100,
  // H200) r <= 18 (48576 bytes; r = 19 needs 52256).
  if (shared == 32 * 1024) {
    EXPECT_EQ(fp16, 13);
  }
  if (shared == 48 * 1024) {
    EXPECT_EQ(fp16, 18);
  }
  ASSERT_GT(fp32, 0);
  if (fp16 < kDesignMaxRadius) expect_refused(*context_, *shaders_, "comp.separable_fused", fp16 + 1, fp16);
  if (fp32 < kDesignMaxRadius)
    expect_refused(*context_, *shaders_, "comp.separable_fused", fp32 + 1, fp32, ":precision=fp32");
  // The largest served radius runs, exact, on an image several tiles wide and tall, with interior
  // groups (unclamped fetches) as well as edge groups: at r = 13, group (1, 2) reads x 19 .. 76,
  // y 3 .. 36.
  const io::ImageF image = common::random_image(160, 90, 4, 21);
  EXPECT_LE(run("comp.separable_fused", fp32, image).max_abs, kExactTolerance) << "r=" << fp32;
  EXPECT_LE(run("comp.separable_fused", fp16, image, "").max_abs, 2 * std::ldexp(1.0, -11))
      << "fp16 r=" << fp16;
}

TEST_F(GaussianCompute, FusedInteriorAndEdgeGroupsAreExact) {
  // Interior groups (tile and apron inside the image) fetch without clamping, the others clamp.
  // At each radius the image is sized so that the last group's apron ends one texel past the
  // image on the right and at the bottom (so it must clamp), while groups further in are
  // interior. The tile is 32 x 8K with K as stated in compute.cpp: the largest of 8 .. 1
  // whose (8K + 2r) rows of 33 + 2r vec4 fit the device's shared memory. A smooth ramp plus noise
  // makes a texel read from the wrong place differ from the right one.
  const uint32_t shared = context_->report().max_compute_shared_memory;
  const int limit = max_radius("comp.separable_fused", "fp32");
  double worst = 0;
  for (int r = 1; r <= limit; ++r) {
    int k = 8;
    while (k > 1 && uint32_t(8 * k + 2 * r) * (33 + 2 * r) * 16 > shared) --k;
    const int tile_h = 8 * k;
    const uint32_t w = uint32_t(32 * 4 + r - 1),
                   h = uint32_t(tile_h * (3 + (2 * r + tile_h - 1) / tile_h) + r - 1);
    io::ImageF image = common::random_image(w, h, 4, 31 + r);
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t c = 0; c < 4; ++c) {
          float& v = image.pixels[(size_t(y) * w + x) * 4 + c];
          v = 0.5f * v + 0.5f * float(x + 3 * y) / 1000;
        }
    const common::ErrorStats e = run("comp.separable_fused", r, image);
    EXPECT_LE(e.max_abs, kExactTolerance)
        << "r=" << r << " " << w << "x" << h << " worst at " << e.worst_x << "," << e.worst_y;
    worst = std::max(worst, e.max_abs);
  }
  std::printf(
      "comp.separable_fused fp32, groups at and next to the edges: max abs error %.3g over r = 1 .. %d\n",
      worst, limit);
}

TEST_F(GaussianCompute, SizesAroundTheTileEdges) {
  // One texel more and less than a tile or line segment in each direction (the fused method's tiles
  // are 32 wide and 8K tall: on 32 KiB 40 at r = 3 and 24 at r = 8, on 48 KiB 64 and 40), and
  // one-pixel lines.
  for (const char* method : kMethods)
    for (auto [w, h] : kEdgeSizes) {
      const io::ImageF image = common::random_image(w, h, 4, w * 1000 + h);
      for (int r : {3, 8}) {
        const common::ErrorStats e = run(method, r, image);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " r=" << r << " " << w << "x" << h;
      }
    }
}

TEST_F(GaussianCompute, FusedFp16StagingIsExactForHalfInputs) {
  // comp.separable_fused stages texels as fp32: an input that is already half (what a chain of fp16
  // images feeds it) goes through unchanged, so the only rounding left is the
  // output's: under one half step (2^-11 below 1; Vulkan lets the store round either way), where
  // the general fp16 bound allows two, at every radius it serves.
  io::ImageF image = common::random_image(75, 41, 4, 23);
  for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
  const int limit = max_radius("comp.separable_fused");
  double worst = 0;
  for (int r : kRadii) {
    if (r > limit) continue;
    const common::ErrorStats e = run("comp.separable_fused", r, image, "");
    EXPECT_LE(e.max_abs, std::ldexp(1.0, -11) + kExactTolerance) << "r=" << r;
    worst = std::max(worst, e.max_abs);
  }
  std::printf("comp.separable_fused fp16, half input: max abs error %.3g (bound %.3g)\n", worst,
              std::ldexp(1.0, -11));
}

TEST_F(GaussianCompute, StreamStripsShareTheHeightExactly) {
  // comp.separable_stream: groups of 64 columns (128 threads) walk down strips (the groups of a column split
  // the height evenly, in batches of 8 rows: about 660 groups in all, strips of at least 32 rows, so these
  // images get strips of 32 to 40 rows and some groups past the bottom that have nothing to do), fetching 2r
  // rows ahead plus up to 7 of padding. Short last strips, strips whose lag crosses both image edges, a width
  // of one strip plus one column, and radii whose lag is and is not a whole number of batches.
  const int limit = max_radius("comp.separable_stream", "fp32");
  double worst = 0;
  for (auto [w, h] : {std::pair{65u, 521u}, {130u, 300u}, {64u, 129u}, {3u, 385u}, {71u, 17u}}) {
    const io::ImageF image = common::random_image(w, h, 4, w * 7 + h);
    for (int r : {1, 3, 4, 5, 8, 13, limit}) {
      if (r > limit) continue;
      const common::ErrorStats e = run("comp.separable_stream", r, image);
      EXPECT_LE(e.max_abs, kExactTolerance)
          << "r=" << r << " " << w << "x" << h << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
    }
  }
  std::printf("comp.separable_stream fp32, several strips per column: max abs error %.3g up to r = %d\n",
              worst, limit);
}

TEST_F(GaussianCompute, ShuffleStripsAndSegmentsMeetTheEdgesExactly) {
  // comp.separable_shuffle: each subgroup covers half its size in columns and SHUFFLE_ROWS rows, a
  // group SHUFFLE_THREADS / 2 columns; its apron lives in the lanes, so it serves r up to a quarter
  // of the subgroup (2 on lavapipe's subgroups of 8) and refuses one more, naming the limit. On the
  // edge sizes (one off the segment, the group and the strip, one-pixel lines, short last strips), in
  // both precisions (fp16: the texels and horizontal sums as halves, two half-ulps).
  const int limit = max_radius("comp.separable_shuffle", "fp32");
  if (limit == 0) GTEST_SKIP() << "comp.separable_shuffle is not available here";
  EXPECT_EQ(limit, std::min(kDesignMaxRadius, int(context_->report().min_subgroup_size / 4)));
  expect_refused(*context_, *shaders_, "comp.separable_shuffle", limit + 1, limit);
  double worst = 0;
  for (auto [w, h] : kEdgeSizes) {
    const io::ImageF image = common::random_image(w, h, 4, w * 31 + h);
    io::ImageF halves = image;
    for (float& v : halves.pixels) v = vk::half_to_float(vk::float_to_half(v));
    for (int r : {1, limit}) {
      const common::ErrorStats e = run("comp.separable_shuffle", r, image);
      EXPECT_LE(e.max_abs, kExactTolerance)
          << "fp32 r=" << r << " " << w << "x" << h << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
      const common::ErrorStats e16 = run("comp.separable_shuffle", r, halves, ":precision=fp16");
      EXPECT_LE(e16.max_abs, 2 * std::ldexp(1.0, -11))
          << "fp16 r=" << r << " " << w << "x" << h << " worst at " << e16.worst_x << "," << e16.worst_y;
    }
  }
  std::printf("comp.separable_shuffle fp32 at the edges: max abs error %.3g up to r = %d\n", worst, limit);
}
