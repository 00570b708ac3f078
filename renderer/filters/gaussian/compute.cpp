// The gaussian family's own compute methods (comp.full2d_shared and comp.separable_shared come from
// the window drivers): one dispatch each, separable sums staged in shared memory or passed between
// lanes.
//   comp.separable_fused      both passes in one dispatch over a staged tile
//   comp.separable_stream     one dispatch walking down strips, the vertical apron paid once a strip
//   comp.separable_stream_half  the same with its horizontal step in packed half arithmetic
//   comp.separable_shuffle    one dispatch, each subgroup walking down its own strip, horizontal taps
//                             by subgroup shuffles; no shared memory, no barriers
// Shaders: shaders/filters/gaussian/comp_separable_fused.comp, comp_separable_stream.comp and
// comp_separable_shuffle.comp, with a variant per method and format.
//
// All read the input with texelFetch (sampled image, nearest) and write a storage image of the
// chain's precision. Tile shapes depend on the radius only (the fused method's also on the
// device's shared memory, see there; its MethodCost is for 32 KiB; the shuffle method's strip width
// on the subgroup size, its MethodCost is for subgroups of 32), so MethodCost is a function of the
// radius; the device decides up to which radius the tiles fit (Support::limits).
#include "filters/gaussian/gaussian_config.h"
#include "filters/gaussian/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace filterlab::filters::gaussian {
namespace {

constexpr uint32_t kTexelBytes = 16;  // shared memory holds vec4 (fp32) whatever the image format
constexpr uint32_t kPreferredSharedBytes = 32 * 1024;  // what common desktop and software devices offer

uint32_t ceil_div(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}

// ---- comp.separable_fused -----------------------------------------------------------------------
// One dispatch: 32x8 threads own a tile of 32 x 8K outputs; the tile plus an apron of r is staged
// in shared memory (vec4, whatever the precision: no unpacking per read), the horizontal sums of
// its 8K + 2r rows are computed into registers and, once every staged texel has been read, written
// over the staged texels in the same array; the vertical sums (K per thread, down one column) are
// stored straight to the image. Rows are padded to an odd number of texels (see the shader):
//   (8K + 2r) (33 + 2r) 16 bytes.
// K is the largest of 8 .. 1 that fits the device's shared memory (maxComputeSharedMemorySize:
// 32 KiB on lavapipe and common desktop devices, 48 KiB on NVIDIA): a taller tile means fewer
// shared reads per output in the vertical pass (2r + K per K outputs) and a smaller apron share.
// At K = 1 the tile grows with r and the device's limit caps the radius: r <= 13 on 32 KiB, 18 on
// 48 KiB. On 32 KiB: 32x56 outputs at r = 1, 32x48 at r = 2, 32x40 to r = 4, 32x32 to r = 6,
// 32x24 to r = 8, 32x16 to r = 10, then 32x8; on 48 KiB: 32x64 to r = 4, 32x56 to r = 6, 32x48
// at r = 7, 32x40 to r = 9, ... 32x8 from r = 16.
// A horizontal task computes RUN adjacent sums of a row from 2r + RUN staged texels; RUN is picked
// per tile to keep the longest thread's work, rounds x (2r + RUN) reads, smallest.
struct FusedTile {
  uint32_t outputs_per_thread;  // K
  uint32_t run;                 // RUN
  uint32_t width, height;       // outputs
  uint32_t rows;                // staged rows: height + 2r
  uint32_t shared_bytes;
};

constexpr uint32_t kFusedWidth = FUSED_GROUP_X, kFusedThreadRows = FUSED_GROUP_Y,
                   kFusedThreads = kFusedWidth * kFusedThreadRows;
constexpr uint32_t kFusedMaxRowsPerThread = 8;  // K: the shader's accumulator array

// Rows per thread, by radius, as measured on the H100 (docs/families/gaussian-tried.md,
// "comp.separable_fused"): tall tiles pay for their register-held sums with occupancy at small radii, where
// the apron they save is small; from r ~ 8 the saved apron wins.
uint32_t fused_max_rows(int radius) {
  return radius <= 1 ? 1 : radius <= 4 ? 2 : kFusedMaxRowsPerThread;
}

FusedTile fused_tile(int radius, uint32_t shared_budget) {
  const uint32_t r = static_cast<uint32_t>(radius);
  FusedTile tile{};
  tile.width = kFusedWidth;
  for (uint32_t k = fused_max_rows(radius); k >= 1; --k) {
    tile.outputs_per_thread = k;
    tile.height = kFusedThreadRows * k;
    tile.rows = tile.height + 2 * r;
    tile.shared_bytes = tile.rows * (kFusedWidth + 2 * r + 1) * kTexelBytes;
    if (tile.shared_bytes <= shared_budget) break;
  }
  uint32_t best = ~0u;
  for (uint32_t run : {1u, 2u, 4u, 8u}) {
    const uint32_t rounds = ceil_div(tile.rows * (kFusedWidth / run), kFusedThreads);
    if (rounds * (2 * r + run) < best) {
      best = rounds * (2 * r + run);
      tile.run = run;
    }
  }
  return tile;
}

// For the 32 KiB tiles (lavapipe, common desktop devices); a device with more shared memory gets
// taller tiles at small radii, and cheaper ones.
MethodCost cost_separable_fused(const ParamValues& v) {
  const int r = v.integer("radius");
  const FusedTile t = fused_tile(r, kPreferredSharedBytes);
  const double outputs = double(t.width) * t.height;
  const double staged = double(t.width + 2 * r) * t.rows;
  const double sums_per_output = double(t.width) * t.rows / outputs;
  MethodCost c;
  c.fetches = staged / outputs;                                 // each staged texel fetched once
  c.shared_writes = staged / outputs + sums_per_output;         // stored once, and each sum once
  c.shared_reads = sums_per_output * (2.0 * r + t.run) / t.run  // 2r + RUN texels per RUN sums
                   + (2.0 * r + t.outputs_per_thread) / t.outputs_per_thread;  // 2r + K sums per K outputs
  return c;
}

int fused_max_radius(uint32_t shared_bytes) {
  int max_radius = 0;
  for (int r = 1; r <= kDesignMaxRadius; ++r) {
    if (fused_tile(r, shared_bytes).shared_bytes > shared_bytes) break;
    max_radius = r;
  }
  return max_radius;
}

// ---- comp.separable_stream ----------------------------------------------------------------------
// One dispatch; each group walks down a strip of 64 columns (two threads each, one per channel
// pair) in batches of 8 rows (see the shader): the texels of the next batch are fetched while the
// current one is filtered, the vertical apron of 2r rows is paid once per strip instead of once
// per tile, and each thread keeps its column's last 2r + 8 horizontal sums in registers. Shared
// memory holds 8 rows of 64 + 2r texels and 8 rows of 64 sums, rows padded to 1 mod 16 elements,
// in the image's precision (8 bytes per texel for fp16, 16 for fp32): at most 25 KiB (fp32,
// r = 32), so every radius fits on a device with 32 KiB. (The ring design also had strips of 32
// columns for devices where 64 did not fit; nothing tested them, and the window needs none.)
// The subgroup quad swap between a column's two threads needs quads in compute shaders and full
// subgroups tiling the group of 128.
// Why this shape, and the variants measured on the H100 and dropped (rings of sums in shared
// memory, fp32 staging, other strip widths and group counts, one barrier per batch, ...):
// docs/families/gaussian-tried.md.
// The strip height is set by the number of groups: one wave, kStreamGroupsPerCore groups per
// shader core where the driver reports its cores (vk::DeviceReport::shader_cores), else
// kStreamGroupsUnknown, rounded down over the columns (4K: 60 columns of 11 groups, strips of 200
// rows), with strips of at least kStreamMinRows. 5 per core is the H100's best measured count, at
// small and large radii alike (docs/families/gaussian-tried.md, "Group counts"); other GPUs are untested, and
// the H100's count serves where the cores are unknown.
constexpr uint32_t kStreamStrip = STREAM_STRIP, kStreamThreads = STREAM_THREADS;
constexpr uint32_t kStreamBatch = STREAM_BATCH, kStreamRun = STREAM_RUN, kStreamMinRows = 32;
constexpr uint32_t kStreamGroupsPerCore = 5, kStreamGroupsUnknown = 660;
constexpr uint32_t kStreamCostRows = 200;  // the 4K strip, for MethodCost

uint32_t stream_shared_bytes(int radius, bool fp32) {
  const uint32_t in_w = kStreamStrip + 2 * uint32_t(radius);
  const uint32_t stage_stride = STREAM_STAGE_STRIDE(in_w), sums_stride = kStreamStrip + 1;
  const uint32_t texel = fp32 ? 16 : 8;
  return kStreamBatch * (stage_stride + sums_stride) * texel;
}

// For strips of kStreamCostRows rows.
MethodCost cost_separable_stream(const ParamValues& v) {
  const int r = v.integer("radius");
  const double rows = kStreamCostRows, strip = kStreamStrip, run = kStreamRun;
  const double input_rows = (rows + 2 * r) / rows;  // input rows per output row
  MethodCost c;
  c.fetches = input_rows * (strip + 2 * r) / strip;
  c.shared_writes = c.fetches + input_rows;          // staged texels, and the sums
  c.shared_reads = input_rows * (2 * r + run) / run  // 2r + 8 texels per run of 8 sums
                   + input_rows;                     // each sum once, into its column's window
  return c;
}

int stream_max_radius(uint32_t shared_limit, bool fp32) {
  int max_radius = 0;
  for (int r = 1; r <= kDesignMaxRadius && stream_shared_bytes(r, fp32) <= shared_limit; ++r) max_radius = r;
  return max_radius;
}

// ---- comp.separable_shuffle ---------------------------------------------------------------------
// Groups of SHUFFLE_THREADS threads; each subgroup walks down a strip of SHUFFLE_ROWS rows, half the
// subgroup wide (so a group covers SHUFFLE_THREADS / 2 columns whatever its subgroup size), its lanes
// on two rows. A lane fetches a texel a row pair plus, in 2r lanes of each row, one of the strip's
// horizontal apron, and takes the horizontal taps from other lanes; every strip fetches its 2r rows
// of vertical apron again, in whole batches. The apron lives in the lanes of a row: 2r <= half the
// smallest subgroup the shader may run at.
constexpr uint32_t kShuffleThreads = SHUFFLE_THREADS, kShuffleRows = SHUFFLE_ROWS;
constexpr uint32_t kShuffleCostSegment = 16;  // NVIDIA's subgroups of 32, for MethodCost

MethodCost cost_separable_shuffle(const ParamValues& v) {
  const double r = v.integer("radius"), rows = kShuffleRows, segment = kShuffleCostSegment;
  const double batch = v.choice("precision") == "fp32" ? SHUFFLE_BATCH_FP32 : SHUFFLE_BATCH_FP16;
  const double fetched_rows = std::ceil((rows + 2 * r) / batch) * batch;
  MethodCost c;
  c.fetches = fetched_rows / rows * (segment + 2 * r) / segment;
  return c;
}

Support support_separable_shuffle(const vk::Context& device, const ParamValues&) {
  // Two rows of at least two lanes: subgroups of 4 or more.
  if (Support shuffles = subgroup_shuffles_in_compute(device, 4, kShuffleThreads); !shuffles.available())
    return shuffles;
  return {{}, std::min<int>(kDesignMaxRadius, int(device.report().min_subgroup_size / 4))};
}

// ---- support ------------------------------------------------------------------------------------
Support support_separable_fused(const vk::Context& device, const ParamValues&) {
  const uint32_t shared = device.report().max_compute_shared_memory;
  return shared_memory_support(device, fused_max_radius(shared), kFusedThreads,
                               fused_tile(1, 0).shared_bytes);
}

Support support_separable_stream(const vk::Context& device, const ParamValues& v) {
  if (Support quads = subgroup_quads_in_compute(device, kStreamThreads); !quads.available()) return quads;
  const bool fp32 = v.choice("precision") == "fp32";
  return shared_memory_support(device, stream_max_radius(device.report().max_compute_shared_memory, fp32),
                               kStreamThreads, stream_shared_bytes(1, fp32));
}

// Half arithmetic is for images that are half already: on fp32 images it would throw away the
// precision they were chosen for.
Support support_separable_stream_half(const vk::Context& device, const ParamValues& v) {
  if (v.choice("precision") != "fp16")
    return {"computes in half precision, so serves fp16 images only (fp32: comp.separable_stream)"};
  if (!device.report().shader_float16)
    return {"needs shaderFloat16 (half arithmetic in shaders), which the device lacks"};
  return support_separable_stream(device, v);
}

// ---- passes -------------------------------------------------------------------------------------
// Each method is one compute pass reading the previous image and the weights as a std140 uniform
// block, where the multiplies can take them as constant operands.
using GroupsFor = std::function<std::pair<uint32_t, uint32_t>(VkExtent2D)>;

GroupsFor groups_over(uint32_t tile_w, uint32_t tile_h) {
  return [=](VkExtent2D e) { return std::pair{ceil_div(e.width, tile_w), ceil_div(e.height, tile_h)}; };
}

class OneDispatch : public Filter {
 public:
  // shader: a comp_*.comp file and its variant before the precision ("half" of "half.fp16").
  OneDispatch(const FilterEnv& env, const std::string& shader, const std::string& variant,
              std::vector<uint32_t> constants, GroupsFor groups)
      : env_(env.pass_env),
        kernel_(env.pass_env.vk, kernel_spec(env.params)),
        format_(precision_format(env.params)),
        shader_("filters/gaussian/" + shader + "#" + (variant.empty() ? "" : variant + ".") +
                precision_variant(format_)),
        constants_(std::move(constants)),
        groups_(std::move(groups)) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass(env_, name, passes::ComputeShader{shader_, constants_})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name)
        .uniform(BINDING_WEIGHTS, kernel_.weights)
        .dispatch([name, groups = groups_](graph::PassContext& ctx) {
          const auto [x, y] = groups(ctx.image(name).extent);
          return std::array<uint32_t, 2>{x, y};
        })
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  KernelBuffers kernel_;
  VkFormat format_;
  std::string shader_;
  std::vector<uint32_t> constants_;
  GroupsFor groups_;
};

std::vector<uint32_t> radius_constant(const FilterEnv& env) {
  return vk::Specialization().set(GAUSSIAN_RADIUS_ID, env.params.integer("radius")).words();
}

std::unique_ptr<Filter> create_separable_fused(const FilterEnv& env) {
  const int r = env.params.integer("radius");
  const FusedTile tile = fused_tile(r, env.pass_env.vk.report().max_compute_shared_memory);
  return std::make_unique<OneDispatch>(env, "comp_separable_fused.comp", "",
                                       vk::Specialization()
                                           .set(GAUSSIAN_RADIUS_ID, r)
                                           .set(GAUSSIAN_FUSED_K_ID, tile.outputs_per_thread)
                                           .set(GAUSSIAN_FUSED_RUN_ID, tile.run)
                                           .words(),
                                       groups_over(tile.width, tile.height));
}

// comp.separable_stream and its half-arithmetic version: the same dispatch, another variant.
std::unique_ptr<Filter> stream_dispatch(const FilterEnv& env, const char* variant) {
  auto groups = [cores = env.pass_env.vk.report().shader_cores](VkExtent2D e) {
    return separable_stream_groups(e, cores);
  };
  return std::make_unique<OneDispatch>(env, "comp_separable_stream.comp", variant, radius_constant(env),
                                       groups);
}

std::unique_ptr<Filter> create_separable_shuffle(const FilterEnv& env) {
  return std::make_unique<OneDispatch>(env, "comp_separable_shuffle.comp", "", radius_constant(env),
                                       groups_over(kShuffleThreads / 2, kShuffleRows));
}

Method compute_method(const char* name, bool exact, int passes, const char* description,
                      MethodCost (*cost)(const ParamValues&),
                      Support (*support)(const vk::Context&, const ParamValues&),
                      std::function<std::unique_ptr<Filter>(const FilterEnv&)> create) {
  Method m;
  m.name = name;
  m.exact = exact;
  m.passes = passes;
  m.description = description;
  m.cost = cost;
  m.support = support;
  m.create = std::move(create);
  return m;
}

}  // namespace

std::pair<uint32_t, uint32_t> separable_stream_groups(VkExtent2D extent, uint32_t shader_cores) {
  const uint32_t columns = ceil_div(extent.width, kStreamStrip);
  const uint32_t wave = shader_cores ? shader_cores * kStreamGroupsPerCore : kStreamGroupsUnknown;
  return {columns, std::clamp(wave / columns, 1u, std::max(1u, extent.height / kStreamMinRows))};
}

std::vector<Method> compute_methods() {
  std::vector<Method> methods = {
      compute_method(
          "comp.separable_fused", true, 1,
          "one dispatch: tile plus apron staged once in shared memory (unclamped for interior groups), "
          "horizontal "
          "sums in registers then over the staged texels, vertical sums stored directly, weights as uniform "
          "operands (32 x 8K outputs per group, K <= 8 as tall as shared memory allows: 32x56 at r = 1 on 32 "
          "KiB, "
          "32x64 on 48 KiB)",
          cost_separable_fused, support_separable_fused, create_separable_fused),
      compute_method("comp.separable_stream", true, 1,
                     "one dispatch: each group walks down a strip of 64 columns, two threads a column (two "
                     "channels each), in "
                     "batches of 8 rows, fetching the next batch while it filters this one; horizontal runs "
                     "of 8 sums into "
                     "shared memory, then each thread keeps its column's last 2r + 8 sums in registers and "
                     "filters 8 outputs "
                     "from them (the vertical apron paid once per strip, one wave of groups)",
                     cost_separable_stream, support_separable_stream,
                     [](const FilterEnv& e) { return stream_dispatch(e, ""); }),
      compute_method(
          "comp.separable_stream_half", false, 1,
          "comp.separable_stream for fp16 images with its horizontal step in packed half arithmetic (one FMA "
          "for "
          "two channels, each sum in two chains: the taps up to the centre, then the rest); the vertical "
          "step stays "
          "fp32. Not exact: within 3 half-ulps at 1.0 on random images, where the exact method keeps 2",
          cost_separable_stream, support_separable_stream_half,
          [](const FilterEnv& e) { return stream_dispatch(e, "half"); }),
      compute_method(
          "comp.separable_shuffle", true, 1,
          "one dispatch, no shared memory, no barriers: each subgroup walks down a strip half its size "
          "wide and 16 rows tall, its lanes on two rows, in batches of 4 rows (fp16) or 8 (fp32); "
          "horizontal taps come from the lanes that fetched them (subgroup shuffles, the apron held by "
          "2r lanes of a row), the two lanes of a column trade channel pairs, and each keeps its "
          "column's last 2r + batch sums of two channels in registers (r <= a quarter of the "
          "subgroup)",
          cost_separable_shuffle, support_separable_shuffle, create_separable_shuffle),
  };
  // Half arithmetic: 3 half-ulps at 1.0, a bound that holds where each half product and sum is
  // rounded apart (lavapipe) as well as where they are fused (docs/families/gaussian-tried.md has both).
  for (Method& m : methods)
    if (m.name == "comp.separable_stream_half") m.bound_fp16 = 3 * std::ldexp(1.0, -11);
  return methods;
}

}  // namespace filterlab::filters::gaussian
