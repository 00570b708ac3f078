#include "passes/flip_pass.h"

#include "graph/executor.h"
#include "passes/compare_pass.h"
#include "passes/passes_config.h"
#include "passes/simple_pass.h"
#include "passes/upload_pass.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace filterlab::passes {
namespace {

// The taps as flip_rows.comp and flip_columns.comp read them: for the rows, tap t (offset
// t - radius) is (Y's, Cx's, Cz's two Gaussians) and (G, G', G'', 0); for the columns, the same
// Gaussians times their scale (the channel's weight and 2D normalization) and (G, G', G, G'').
// A filter shorter than the radius is 0 past its own.
std::vector<float> kernel_taps(const common::FlipFilters& f, uint32_t radius) {
  const int r = int(radius), taps = 2 * r + 1;
  auto at = [](const std::vector<double>& k, int offset) {
    const int own = int(k.size() / 2);
    return std::abs(offset) > own ? 0.0 : k[size_t(offset + own)];
  };
  std::vector<float> out;
  for (const bool columns : {false, true})
    for (int t = 0; t < taps; ++t) {
      const int i = t - r;
      for (size_t k = 0; k < 4; ++k) out.push_back(float(at(f.csf[k], i) * (columns ? f.csf_scale[k] : 1.0)));
      const double g = at(f.g, i), dg = at(f.dg, i), ddg = at(f.ddg, i);
      const std::array<double, 4> features =
          columns ? std::array<double, 4>{g, dg, g, ddg} : std::array<double, 4>{g, dg, ddg, 0};
      for (double v : features) out.push_back(float(v));
    }
  return out;
}

void check_same_size(const graph::PassContext& ctx, const std::string& a, const std::string& b) {
  const VkExtent2D x = ctx.extent(a), y = ctx.extent(b);
  if (x.width != y.width || x.height != y.height)
    throw graph::GraphError("FLIP: '" + a + "' is " + std::to_string(x.width) + "x" +
                            std::to_string(x.height) + " but '" + b + "' is " + std::to_string(y.width) +
                            "x" + std::to_string(y.height));
}

// One intermediate buffer: a vec4 a pixel.
VkDeviceSize intermediate_bytes(VkExtent2D extent) {
  return VkDeviceSize(extent.width) * extent.height * 4 * sizeof(float);
}

uint32_t groups(uint32_t size, uint32_t group) {
  return (size + group - 1) / group;
}

}  // namespace

std::optional<std::string> flip_does_not_fit(const vk::Context& vk, VkExtent2D extent) {
  const VkDeviceSize bytes = intermediate_bytes(extent), limit = vk.properties().limits.maxStorageBufferRange;
  if (bytes <= limit) return std::nullopt;
  return "FLIP on the GPU: " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
         " needs " + std::to_string(bytes >> 20) + " MiB buffers; " + vk.report().name + " binds at most " +
         std::to_string(limit >> 20) + " MiB (" + std::to_string(limit / 16) + " pixels)";
}

FlipPass::FlipPass(const PassEnv& env, double ppd) : env_(env), ppd_(ppd) {
  if (!(ppd > 0 && ppd <= common::kMaxPixelsPerDegree))
    throw std::invalid_argument("FLIP: pixels per degree must be above 0 and at most 1000");
  if (env.frames_in_flight == 0) throw std::invalid_argument("FlipPass: frames_in_flight must be at least 1");
  const common::FlipFilters filters = common::flip_filters(ppd);
  radius_ = uint32_t(std::max(filters.csf_radius, filters.feature_radius));
  cmax_ = float(common::flip_cmax());
  kernels_ = vk::Buffer::holding(env.vk, kernel_taps(filters, radius_), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 "flip kernels");
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    results_.emplace_back(env.vk, kReductionResultBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                          "flip result " + std::to_string(i));
    std::memset(results_.back().mapped(), 0, kReductionResultBytes);
    exposures_.emplace_back(env.vk, sizeof(shader::FlipExposuresGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            true, "flip exposures " + std::to_string(i));
  }
  recorded_.assign(env.frames_in_flight, 0);
}

void FlipPass::add_ldr(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
                       const std::string& name, common::FlipInput input, std::function<bool()> needed) {
  begin(graph, name);
  for (vk::Buffer& b : exposures_) {
    const shader::FlipExposuresGpu none{0, 0, 1, 0};  // not read
    std::memcpy(b.mapped(), &none, sizeof none);
  }
  add(graph, reference, test, name, input == common::FlipInput::Srgb ? FLIP_INPUT_SRGB : FLIP_INPUT_LINEAR, 1,
      std::move(needed));
}

void FlipPass::add_hdr(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
                       const std::string& name, const std::optional<common::FlipExposures>& exposures,
                       std::function<bool()> needed) {
  if (exposures && (exposures->count < 1 || exposures->count > FLIP_MAX_EXPOSURES))
    throw std::invalid_argument("HDR-FLIP: 1 to 64 exposures");
  begin(graph, name);
  hdr_ = true;
  range_on_gpu_ = !exposures;
  // Given: the same in every slot. Found on the GPU: "not yet" (every exposure recorded) until then.
  const shader::FlipExposuresGpu e =
      exposures
          ? shader::FlipExposuresGpu{float(exposures->start), float(exposures->stop), exposures->count, 0}
          : shader::FlipExposuresGpu{0, 0, FLIP_MAX_EXPOSURES, 1};
  for (vk::Buffer& b : exposures_) std::memcpy(b.mapped(), &e, sizeof e);
  if (!needed) needed = [] { return true; };
  if (range_on_gpu_) add_range(graph, reference, name, needed);
  add(graph, reference, test, name, FLIP_INPUT_HDR, exposures ? exposures->count : FLIP_MAX_EXPOSURES,
      std::move(needed));
}

void FlipPass::begin(graph::RenderGraph& graph, const std::string& name) {
  if (added_) throw std::logic_error("FlipPass: one map per FlipPass");
  added_ = true;
  graph.import_buffer(name + " exposures", per_slot(exposures_), graph::BufferUsage::HostRead);
}

uint32_t FlipPass::planned_exposures(uint32_t slot) const {
  shader::FlipExposuresGpu e;
  std::memcpy(&e, exposures_.at(slot).mapped(), sizeof e);
  return std::clamp(e.count, 1u, uint32_t(FLIP_MAX_EXPOSURES));
}

void FlipPass::add_range(graph::RenderGraph& graph, const std::string& reference, const std::string& name,
                         std::function<bool()> needed) {
  auto idle = [needed](graph::PassContext&) { return !needed(); };
  const std::string range = name + " range";
  constexpr VkDeviceSize kRangeBytes = (2 * FLIP_RANGE_BINS + 4) * sizeof(uint32_t);
  graph.declare_buffer(range, {graph::BufferSize::fixed(kRangeBytes)});
  struct Step {
    const char* pass;
    uint32_t step;
    graph::BufferUsage usage;
    bool over_image;
  };
  const Step steps[] = {
      {" clear", FLIP_RANGE_CLEAR, graph::BufferUsage::StorageWriteCompute, false},
      {" high", FLIP_RANGE_HIGH, graph::BufferUsage::StorageReadWriteCompute, true},
      {" select", FLIP_RANGE_SELECT_HIGH, graph::BufferUsage::StorageReadWriteCompute, false},
      {" low", FLIP_RANGE_LOW, graph::BufferUsage::StorageReadWriteCompute, true}};
  for (const Step& step : steps) {
    SimplePass pass(env_, range + step.pass, ComputeShader{"passes/flip_range.comp", {step.step}});
    pass.sample(BINDING_FLIP_REFERENCE, reference)
        .graph_buffer(BINDING_FLIP_RANGE, range, step.usage)
        .constants(shader::FlipPush{FLIP_INPUT_HDR, 0, cmax_, 0})
        .skip_when(idle);
    if (step.over_image) pass.dispatch_over(reference, 16, 16);
    else
      pass.dispatch([clear = step.step == FLIP_RANGE_CLEAR](graph::PassContext&) {
        return std::array<uint32_t, 2>{clear ? uint32_t(FLIP_RANGE_BINS / 256) : 1u, 1u};
      });
    pass.add_to(graph);
  }
  SimplePass(env_, range + " exposures", ComputeShader{"passes/flip_range_exposures.comp"})
      .sample(BINDING_FLIP_REFERENCE, reference)
      .graph_buffer(BINDING_FLIP_RANGE, range, graph::BufferUsage::StorageReadCompute)
      .graph_buffer(BINDING_FLIP_EXPOSURES, name + " exposures", graph::BufferUsage::StorageWriteCompute)
      .constants(shader::FlipPush{FLIP_INPUT_HDR, 0, cmax_, float(common::flip_aces_white())})
      .skip_when(idle)
      .dispatch([](graph::PassContext&) {
        return std::array<uint32_t, 2>{1, 1};
      })
      .add_to(graph);
}

void FlipPass::add(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
                   const std::string& name, uint32_t source, uint32_t passes, std::function<bool()> needed) {
  if (!needed) needed = [] { return true; };
  graph.declare_image(name, {VK_FORMAT_R32_SFLOAT, graph::SizeRule::relative_to(reference)});
  const std::string rc = name + " reference colour", rf = name + " reference features";
  const std::string tc = name + " test colour", tf = name + " test features";
  // Row-major vec4 per pixel: the rows' stores and the columns' loads are whole cache lines.
  for (const std::string& buffer : {rc, rf, tc, tf})
    graph.declare_buffer(buffer, {graph::BufferSize::of(reference, intermediate_bytes)});
  const std::string exposures = name + " exposures";  // the GPU's (the range writes them) or the given ones
  for (uint32_t e = 0; e < passes; ++e) {
    const std::string suffix = passes > 1 || source == FLIP_INPUT_HDR ? " " + std::to_string(e + 1) : "";
    // Recorded while the count the slot last found reaches it (always for given exposures).
    auto idle = [this, needed, e](graph::PassContext& ctx) {
      if (!needed()) return true;
      if (e == 0) recorded_.at(ctx.slot) = planned_exposures(ctx.slot);
      return e >= recorded_.at(ctx.slot);
    };
    const shader::FlipPush push{source, e, cmax_, 0};
    SimplePass(env_, name + " rows" + suffix, ComputeShader{"passes/flip_rows.comp", {radius_}})
        .sample(BINDING_FLIP_REFERENCE, reference)
        .sample(BINDING_FLIP_TEST, test)
        .storage_buffer(BINDING_FLIP_KERNELS, kernels_)
        .graph_buffer(BINDING_FLIP_EXPOSURES, exposures, graph::BufferUsage::StorageReadCompute)
        .graph_buffer(BINDING_FLIP_REFERENCE_COLOUR, rc, graph::BufferUsage::StorageWriteCompute)
        .graph_buffer(BINDING_FLIP_REFERENCE_FEATURES, rf, graph::BufferUsage::StorageWriteCompute)
        .graph_buffer(BINDING_FLIP_TEST_COLOUR, tc, graph::BufferUsage::StorageWriteCompute)
        .graph_buffer(BINDING_FLIP_TEST_FEATURES, tf, graph::BufferUsage::StorageWriteCompute)
        .constants_from<shader::FlipPush>([this, push, reference, test](graph::PassContext& ctx) {
          check_same_size(ctx, reference, test);
          if (const std::optional<std::string> why = flip_does_not_fit(env_.vk, ctx.extent(reference)))
            throw graph::GraphError(*why);
          return push;
        })
        .skip_when(idle)
        .dispatch([reference](graph::PassContext& ctx) {
          const VkExtent2D extent = ctx.extent(reference);
          return std::array<uint32_t, 2>{groups(extent.width, FLIP_ROW_GROUP), extent.height};
        })
        .add_to(graph);
    SimplePass columns(env_, name + " columns" + suffix,
                       ComputeShader{"passes/flip_columns.comp", {radius_, e > 0 ? 1u : 0u}});
    columns.graph_buffer(BINDING_FLIP_REFERENCE_COLOUR, rc, graph::BufferUsage::StorageReadCompute)
        .graph_buffer(BINDING_FLIP_REFERENCE_FEATURES, rf, graph::BufferUsage::StorageReadCompute)
        .graph_buffer(BINDING_FLIP_TEST_COLOUR, tc, graph::BufferUsage::StorageReadCompute)
        .graph_buffer(BINDING_FLIP_TEST_FEATURES, tf, graph::BufferUsage::StorageReadCompute)
        .storage_buffer(BINDING_FLIP_KERNELS, kernels_)
        .graph_buffer(BINDING_FLIP_EXPOSURES, exposures, graph::BufferUsage::StorageReadCompute)
        .constants(push)
        .skip_when(idle)
        .dispatch_over(name, FLIP_COLUMN_GROUP_X, FLIP_COLUMN_GROUP_Y * FLIP_COLUMN_ROWS);
    if (e > 0) columns.store_part(BINDING_FLIP_MAP, name);  // the larger of this exposure's and the map's
    else columns.store(BINDING_FLIP_MAP, name);
    columns.add_to(graph);
  }
  const std::string result = name + " result";
  graph.import_buffer(result, per_slot(results_), graph::BufferUsage::HostRead);
  graph.declare_buffer(name + " partials", {graph::BufferSize::per_tile(
                                               name, FLIP_REDUCE_TILE, FLIP_REDUCE_TILE, 4 * sizeof(float))});
  auto idle = [needed](graph::PassContext&) { return !needed(); };
  SimplePass(env_, name + " reduce", ComputeShader{"passes/flip_reduce.comp"})
      .load(BINDING_FLIP_MAP, name)
      .graph_buffer(BINDING_FLIP_PARTIALS, name + " partials", graph::BufferUsage::StorageWriteCompute)
      .skip_when(idle)
      .dispatch_over(name, FLIP_REDUCE_TILE, FLIP_REDUCE_TILE)
      .add_to(graph);
  add_reduction_finish(
      env_, graph, name, name,
      [](VkExtent2D extent) {
        return groups(extent.width, FLIP_REDUCE_TILE) * groups(extent.height, FLIP_REDUCE_TILE);
      },
      [needed](graph::PassContext&) { return needed(); });
}

std::optional<FlipResult> FlipPass::result(uint32_t slot) const {
  if (slot >= results_.size())
    throw std::out_of_range("FlipPass::result: slot " + std::to_string(slot) + " but only " +
                            std::to_string(results_.size()) + " frames in flight");
  const std::optional<ReductionTotals> r = read_reduction(results_[slot]);
  if (!r) return std::nullopt;
  FlipResult out;
  out.extent = r->extent;
  out.frame = r->frame;
  out.mean = r->sums[0] / (double(r->extent.width) * r->extent.height);
  out.max = r->sums[3];
  out.hdr = hdr_;
  out.ppd = ppd_;
  if (hdr_) {
    shader::FlipExposuresGpu e;
    std::memcpy(&e, exposures_[slot].mapped(), sizeof e);
    out.exposures = {e.start, e.stop, e.count};
    out.complete = recorded_[slot] >= e.count;
  }
  return out;
}

FlipOfImages flip_images(const PassEnv& env, const io::ImageF& reference, const io::ImageF& test, double ppd,
                         bool hdr, common::FlipInput input,
                         const std::optional<common::FlipExposures>& exposures, VkFormat format) {
  if (reference.width != test.width || reference.height != test.height)
    throw std::invalid_argument("FLIP: the images' sizes differ");
  const PassEnv one_frame{env.vk, env.shaders, 1, env.pipelines};
  graph::RenderGraph graph;
  UploadPass upload_reference(one_frame, reference, format), upload_test(one_frame, test, format);
  upload_reference.add_to(graph, "reference");
  upload_test.add_to(graph, "test");
  FlipPass flip(one_frame, ppd);
  if (hdr) flip.add_hdr(graph, "reference", "test", "flip", exposures);
  else flip.add_ldr(graph, "reference", "test", "flip", input);
  graph::Executor executor(env.vk, 1, false);
  executor.prepare(graph, {"flip"}, {reference.width, reference.height});
  vk::OneShotCommands commands(env.vk);
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
  const graph::Readback map = executor.read_image("flip");
  FlipOfImages out;
  out.map.resize(size_t(map.extent.width) * map.extent.height);
  std::memcpy(out.map.data(), map.bytes.data(), out.map.size() * sizeof(float));
  out.result = flip.result(0).value();
  return out;
}

}  // namespace filterlab::passes
