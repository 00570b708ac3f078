// GPU tier: the graph executor with history images, single-mip access and graph buffers, under
// synchronization validation. The shaders are GLSL compiled at run time, which also exercises shaderc.
#include "gpu_test_util.h"

#include "graph/executor.h"
#include "runtime/capture.h"
#include "runtime/frame_ring.h"
#include "vk/shader_compiler.h"

#include <algorithm>
#include <cstring>
#include <fstream>

using namespace filterlab;

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

constexpr const char* kAccumulate = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D previous;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D current;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(current)))) return;
  imageStore(current, p, vec4(texelFetch(previous, p, 0).r + 1.0));
}
)";

constexpr const char* kFill = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D level0;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(level0)))) return;
  imageStore(level0, p, vec4(float(p.x + 100 * p.y)));
}
)";

// Box-downsamples one mip level into the next; both are single-level views.
constexpr const char* kDown = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D destination;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  float sum = 0.0;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) sum += texelFetch(source, 2 * p + ivec2(x, y), 0).r;
  imageStore(destination, p, vec4(sum * 0.25));
}
)";

constexpr const char* kCopyOut = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D destination;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, texelFetch(source, p, 0));
}
)";

// One invocation per 8x8 tile of the ramp: the tile's sum.
constexpr const char* kTileSums = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D ramp;
layout(set = 0, binding = 1, std430) writeonly buffer Tiles { float tiles[]; };
void main() {
  const ivec2 size = textureSize(ramp, 0), count = (size + 7) / 8, t = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(t, count))) return;
  float sum = 0.0;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const ivec2 p = t * 8 + ivec2(x, y);
      if (all(lessThan(p, size))) sum += texelFetch(ramp, p, 0).r;
    }
  tiles[t.y * count.x + t.x] = sum;
}
)";

// Every pixel shows its tile's sum.
constexpr const char* kSpread = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Tiles { float tiles[]; };
layout(set = 0, binding = 1, r32f) uniform writeonly image2D spread;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy), size = imageSize(spread);
  if (any(greaterThanEqual(p, size))) return;
  imageStore(spread, p, vec4(tiles[(p.y / 8) * ((size.x + 7) / 8) + p.x / 8]));
}
)";

// The sum of all tiles and the frame index, for the host.
constexpr const char* kTotal = R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) readonly buffer Tiles { float tiles[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Result { float total; uint frame; };
layout(push_constant) uniform Push { uint count; uint frame_index; };
void main() {
  float sum = 0.0;
  for (uint i = 0; i < count; ++i) sum += tiles[i];
  total = sum;
  frame = frame_index;
}
)";

}  // namespace

TEST(GraphGpu, HistoryImagesAccumulateAndMipLevelsChain) {
  const std::filesystem::path dir = test::temp_dir("graph-gpu");
  write_file(dir / "accumulate.comp", kAccumulate);
  write_file(dir / "fill.comp", kFill);
  write_file(dir / "down.comp", kDown);
  write_file(dir / "copy_out.comp", kCopyOut);

  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  vk::ShaderSource shaders{{}, dir};
  const vk::PipelineLayoutDesc sampled_to_storage{
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0};
  vk::Pipeline accumulate(ctx, shaders, vk::ComputePipelineDesc{"accumulate.comp", sampled_to_storage, {}});
  vk::Pipeline fill(ctx, shaders,
                    vk::ComputePipelineDesc{"fill.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0}, {}});
  vk::Pipeline down(ctx, shaders, vk::ComputePipelineDesc{"down.comp", sampled_to_storage, {}});
  vk::Pipeline copy_out(ctx, shaders, vk::ComputePipelineDesc{"copy_out.comp", sampled_to_storage, {}});

  using graph::Usage;
  graph::RenderGraph g;
  g.declare_image("acc", {VK_FORMAT_R32_SFLOAT});
  g.declare_image("pyramid", {VK_FORMAT_R32_SFLOAT, graph::SizeRule::absolute(16, 12), 3});
  g.declare_image("level2", {VK_FORMAT_R32_SFLOAT, graph::SizeRule::relative_to("pyramid", 0.25f)});
  g.add_pass("accumulate", graph::PassKind::Compute)
      .read_history("acc", Usage::SampledCompute)
      .write("acc", Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) {
        c.bind(accumulate)
            .sampled_history(0, "acc", graph::Sampling::Nearest)
            .storage(1, "acc")
            .dispatch_over("acc", 8, 8);
      });
  g.add_pass("fill", graph::PassKind::Compute)
      .write("pyramid", Usage::StorageWriteCompute, graph::mip(0))
      .execute(
          [&](graph::PassContext& c) { c.bind(fill).storage(0, "pyramid").dispatch_over("pyramid", 8, 8); });
  for (uint32_t level = 1; level < 3; ++level)
    g.add_pass("down" + std::to_string(level), graph::PassKind::Compute)
        .read("pyramid", Usage::SampledCompute, graph::mip(level - 1))
        .write("pyramid", Usage::StorageWriteCompute, graph::mip(level))
        .execute([&, level](graph::PassContext& c) {
          c.bind(down)
              .sampled(0, "pyramid", graph::Sampling::Nearest, level - 1)
              .storage(1, "pyramid", level)
              .dispatch_over(c.image("pyramid", level).extent, 8, 8);
        });
  g.add_pass("read_level2", graph::PassKind::Compute)
      .read("pyramid", Usage::SampledCompute, graph::mip(2))
      .write("level2", Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) {
        c.bind(copy_out)
            .sampled(0, "pyramid", graph::Sampling::Nearest)
            .storage(1, "level2")
            .dispatch_over("level2", 8, 8);
      });

  graph::Executor executor(ctx, 2, true);
  executor.prepare(g, {"acc", "level2"}, {24, 20});
  ASSERT_TRUE(executor.compiled().images[*executor.compiled().find_image("acc")].history);
  vk::OneShotCommands commands(ctx);
  constexpr uint64_t kFrames = 5;
  for (uint64_t frame = 0; frame < kFrames; ++frame) {
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, frame % 2, frame); });
    auto timings = executor.timings(frame % 2);
    ASSERT_TRUE(timings.has_value());
    EXPECT_EQ(timings->size(), 5u);
  }

  // History: cleared to zero on creation, +1 per frame.
  io::ImageF acc = graph::to_float_image(executor.read_image("acc"));
  ASSERT_EQ(acc.width, 24u);
  for (float v : acc.pixels) ASSERT_EQ(v, float(kFrames));

  // Mips: level 2 (4x3) of the 16x12 ramp is the mean of each 4x4 block.
  io::ImageF level2 = graph::to_float_image(executor.read_image("level2"));
  ASSERT_EQ(level2.width, 4u);
  ASSERT_EQ(level2.height, 3u);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      double sum = 0;
      for (uint32_t j = 0; j < 4; ++j)
        for (uint32_t i = 0; i < 4; ++i) sum += (4 * x + i) + 100.0 * (4 * y + j);
      EXPECT_FLOAT_EQ(level2.at(x, y, 0), float(sum / 16)) << x << "," << y;
    }

  // Resizing the output recreates output-relative images and keeps the absolute ones.
  executor.prepare(g, {"acc", "level2"}, {30, 10});
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, kFrames); });
  io::ImageF resized = graph::to_float_image(executor.read_image("acc"));
  EXPECT_EQ(resized.width, 30u);
  for (float v : resized.pixels) ASSERT_EQ(v, 1.0f);  // a fresh history starts from zero again
  EXPECT_EQ(ctx.validation_messages(), 0u);
  std::filesystem::remove_all(dir);
}

// Buffers as graph resources: a transient buffer sized per tile of an output-sized image, read by
// two passes, and an imported host-visible buffer per slot that the host reads after each frame.
// Two frames in flight, and the output resized between frames without waiting for the device:
// the buffers follow the size, and the ones replaced stay alive until their frames are done.
TEST(GraphGpu, BuffersFollowTheOutputSizeWithFramesInFlight) {
  const std::filesystem::path dir = test::temp_dir("graph-gpu-buffers");
  write_file(dir / "fill.comp", kFill);
  write_file(dir / "tile_sums.comp", kTileSums);
  write_file(dir / "spread.comp", kSpread);
  write_file(dir / "total.comp", kTotal);

  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  vk::ShaderSource shaders{{}, dir};
  constexpr VkDescriptorType kStorageBuffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  vk::Pipeline fill(ctx, shaders,
                    vk::ComputePipelineDesc{"fill.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0}, {}});
  vk::Pipeline tile_sums(
      ctx, shaders,
      vk::ComputePipelineDesc{
          "tile_sums.comp", {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kStorageBuffer}, 0}, {}});
  vk::Pipeline spread(
      ctx, shaders,
      vk::ComputePipelineDesc{"spread.comp", {{kStorageBuffer, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0}, {}});
  vk::Pipeline total(ctx, shaders,
                     vk::ComputePipelineDesc{"total.comp", {{kStorageBuffer, kStorageBuffer}, 8}, {}});

  struct Result {
    float total;
    uint32_t frame;
  };
  constexpr uint32_t kSlots = runtime::kFramesInFlight;
  std::vector<vk::Buffer> results;
  for (uint32_t i = 0; i < kSlots; ++i) {
    results.emplace_back(ctx, sizeof(Result), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                         "result " + std::to_string(i));
    std::memset(results.back().mapped(), 0, sizeof(Result));
  }

  using graph::Usage;
  graph::RenderGraph g;
  g.declare_image("ramp", {VK_FORMAT_R32_SFLOAT});
  g.declare_image("spread", {VK_FORMAT_R32_SFLOAT});
  g.declare_buffer("tiles", {graph::BufferSize::per_tile("ramp", 8, 8, sizeof(float))});
  g.import_buffer(
      "result",
      [&](uint32_t slot) {
        return graph::ExternalBuffer{results.at(slot).handle(), results.at(slot).size()};
      },
      graph::BufferUsage::HostRead);
  g.add_pass("fill", graph::PassKind::Compute)
      .write("ramp", Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) { c.bind(fill).storage(0, "ramp").dispatch_over("ramp", 8, 8); });
  g.add_pass("tile sums", graph::PassKind::Compute)
      .read("ramp", Usage::SampledCompute)
      .write_buffer("tiles")
      .execute([&](graph::PassContext& c) {
        const VkExtent2D e = c.image("ramp").extent;
        c.bind(tile_sums)
            .sampled(0, "ramp", graph::Sampling::Nearest)
            .storage_buffer(1, "tiles")
            .dispatch_over(VkExtent2D{(e.width + 7) / 8, (e.height + 7) / 8}, 8, 8);
      });
  g.add_pass("spread", graph::PassKind::Compute)
      .read_buffer("tiles")
      .write("spread", Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) {
        c.bind(spread).storage_buffer(0, "tiles").storage(1, "spread").dispatch_over("spread", 8, 8);
      });
  g.add_pass("total", graph::PassKind::Compute)
      .read_buffer("tiles")
      .write_buffer("result")
      .execute([&](graph::PassContext& c) {
        const uint32_t push[2] = {uint32_t(c.buffer("tiles").size / sizeof(float)), uint32_t(c.frame)};
        c.bind(total).storage_buffer(0, "tiles").storage_buffer(1, "result").constants(push).dispatch(1, 1);
      });

  auto ramp_total = [](VkExtent2D e) {
    double sum = 0;
    for (uint32_t y = 0; y < e.height; ++y)
      for (uint32_t x = 0; x < e.width; ++x) sum += x + 100.0 * y;
    return sum;
  };
  graph::Executor executor(ctx, kSlots, false);
  std::vector<VkExtent2D> sizes;  // per frame
  size_t checked = 0;
  auto check = [&](uint64_t frame) {
    Result r;
    std::memcpy(&r, results[frame % kSlots].mapped(), sizeof r);
    EXPECT_EQ(r.frame, frame);
    EXPECT_EQ(r.total, ramp_total(sizes[frame])) << "frame " << frame;
    ++checked;
  };
  uint64_t frame = 0;
  {
    runtime::FrameRing ring(ctx);
    for (VkExtent2D size : {VkExtent2D{24, 20}, VkExtent2D{40, 33}, VkExtent2D{9, 9}}) {
      executor.prepare(g, {"spread"}, size);  // the frames in flight still use the previous buffers
      EXPECT_EQ(executor.compiled().buffers[*executor.compiled().find_buffer("tiles")].size,
                VkDeviceSize((size.width + 7) / 8) * ((size.height + 7) / 8) * sizeof(float));
      for (int i = 0; i < 3; ++i, ++frame) {
        sizes.push_back(size);
        VkCommandBuffer cmd = ring.begin(frame);
        if (frame >= kSlots) check(frame - kSlots);
        executor.record(cmd, uint32_t(frame % kSlots), frame);
        ring.submit(frame);
      }
    }
    ring.wait_for(frame);
    for (uint64_t f = frame - kSlots; f < frame; ++f) check(f);
  }
  EXPECT_EQ(checked, frame);

  // Each pixel of the last frame's 9x9 image holds its 8x8 tile's sum.
  io::ImageF spread_image = graph::to_float_image(executor.read_image("spread"));
  ASSERT_EQ(spread_image.width, 9u);
  for (uint32_t y = 0; y < 9; ++y)
    for (uint32_t x = 0; x < 9; ++x) {
      double tile = 0;
      for (uint32_t ty = y / 8 * 8; ty < std::min(y / 8 * 8 + 8, 9u); ++ty)
        for (uint32_t tx = x / 8 * 8; tx < std::min(x / 8 * 8 + 8, 9u); ++tx) tile += tx + 100.0 * ty;
      EXPECT_EQ(spread_image.at(x, y, 0), float(tile)) << x << "," << y;
    }
  EXPECT_EQ(ctx.validation_messages(), 0u);
  std::filesystem::remove_all(dir);
}

TEST(GraphGpu, ShaderCompileErrorsNameTheFileAndLine) {
  const std::filesystem::path dir = test::temp_dir("bad-shader");
  write_file(dir / "broken.comp",
             "#version 460\nlayout(local_size_x = 1) in;\nvoid main() { undefined_call(); }\n");
  try {
    vk::compile_glsl_file(dir / "broken.comp", dir);
    FAIL();
  } catch (const vk::ShaderCompileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("broken.comp:3"), std::string::npos) << message;
    EXPECT_NE(message.find("undefined_call"), std::string::npos) << message;
  }
  EXPECT_THROW(vk::compile_glsl_file(dir / "missing.comp", dir), vk::ShaderCompileError);
  std::filesystem::remove_all(dir);
}

namespace {

// A graph of passes that record nothing but the barriers the executor derives: enough for the
// executor's bookkeeping (generations, retirement, the barrier tracker) under validation.
void clear_pass(graph::RenderGraph& g, const std::string& image) {
  g.add_pass("clear " + image, graph::PassKind::Graphics)
      .color(image, VkClearColorValue{})
      .execute([](graph::PassContext&) {});
}

}  // namespace

// Every physical image an executor creates gets a generation no other image ever had, in this
// executor or another: kept images keep theirs, recreated ones get a new one. PassContext::extent
// gives a pass the size of an image it does not access.
TEST(GraphGpu, ImageGenerationsAreNeverReusedAndPassesSeeImageSizesThroughTheGraph) {
  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  graph::RenderGraph g;
  g.declare_image("image", {VK_FORMAT_R8G8B8A8_UNORM});
  g.declare_image("half", {VK_FORMAT_R8G8B8A8_UNORM, graph::SizeRule::output(0.5f)});
  clear_pass(g, "image");
  uint64_t generation = 0;
  VkExtent2D half{};
  std::string unknown_size_error;
  g.add_pass("look", graph::PassKind::Compute)
      .read("image", graph::Usage::SampledCompute)
      .write("half", graph::Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) {
        generation = c.image("image").generation;
        half = c.extent("half");
        try {
          c.extent("nothing");
        } catch (const graph::GraphError& e) {
          unknown_size_error = e.what();
        }
      });

  std::vector<uint64_t> seen;  // per prepare
  {
    runtime::FrameRing ring(ctx);
    uint64_t frame = 0;
    auto run = [&](graph::Executor& executor, VkExtent2D size) {
      executor.prepare(g, {"half"}, size);
      executor.record(ring.begin(frame), uint32_t(frame % runtime::kFramesInFlight), frame);
      ring.submit(frame);
      ++frame;
      seen.push_back(generation);
      EXPECT_EQ(half.width, (size.width + 1) / 2);
      EXPECT_EQ(half.height, (size.height + 1) / 2);
    };
    auto first = std::make_unique<graph::Executor>(ctx, runtime::kFramesInFlight, false);
    run(*first, {16, 12});
    run(*first, {16, 12});  // kept
    run(*first, {20, 12});  // recreated
    first.reset();          // a new executor starts its images afresh
    graph::Executor second(ctx, runtime::kFramesInFlight, false);
    run(second, {20, 12});
    ring.wait_for(frame);
  }
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[1], seen[0]);
  EXPECT_NE(seen[2], seen[0]);
  EXPECT_NE(seen[3], seen[0]);
  EXPECT_NE(seen[3], seen[2]);
  EXPECT_NE(unknown_size_error.find("'nothing'"), std::string::npos) << unknown_size_error;
  EXPECT_EQ(ctx.validation_messages(), 0u);
}

// An executor destroyed while frames that use its images run, replaced images among them, waits
// for them: validation reports an image destroyed in use otherwise.
TEST(GraphGpu, AnExecutorDestroyedWithFramesInFlightWaitsForThem) {
  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  graph::RenderGraph g;
  g.declare_image("image", {VK_FORMAT_R8G8B8A8_UNORM});
  clear_pass(g, "image");
  runtime::FrameRing ring(ctx);
  uint64_t frame = 0;
  {
    graph::Executor executor(ctx, runtime::kFramesInFlight, false);
    for (VkExtent2D size : {VkExtent2D{16, 16}, VkExtent2D{24, 16}}) {
      executor.prepare(g, {"image"}, size);  // the second retires the first image
      for (int i = 0; i < 2; ++i, ++frame) {
        executor.record(ring.begin(frame), uint32_t(frame % runtime::kFramesInFlight), frame);
        ring.submit(frame);
      }
    }
  }  // frames 2 and 3 may still run, and frame 1 used the retired image
  ring.wait_for(frame);
  EXPECT_EQ(ctx.validation_messages(), 0u);
}

// An imported buffer the graph stops using is forgotten by the barrier tracker once the frames
// that used it are done (its owner may destroy it, and a new buffer take its handle): when a later
// graph imports it again, its first access waits for nothing of the old frames.
TEST(GraphGpu, ImportedBuffersAreForgottenOnceTheGraphStopsUsingThem) {
  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  vk::Buffer shared(ctx, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "imported");
  auto source = [&](uint32_t) { return graph::ExternalBuffer{shared.handle(), shared.size()}; };
  graph::RenderGraph writes, other, reads;
  writes.import_buffer("shared", source, graph::BufferUsage::HostRead);
  writes.add_pass("write", graph::PassKind::Compute).write_buffer("shared").execute([](graph::PassContext&) {
  });
  for (graph::RenderGraph* g : {&writes, &other, &reads}) {
    g->declare_image("image", {VK_FORMAT_R8G8B8A8_UNORM});
    clear_pass(*g, "image");
  }
  reads.import_buffer("shared", source);
  reads.add_pass("read", graph::PassKind::Compute)
      .read_buffer("shared")
      .write("image", graph::Usage::StorageWriteCompute)
      .execute([](graph::PassContext&) {});

  runtime::FrameRing ring(ctx);
  graph::Executor executor(ctx, runtime::kFramesInFlight, false);
  uint64_t frame = 0;
  auto run = [&](const graph::RenderGraph& g, int frames) {
    executor.prepare(g, {"image"}, {8, 8});
    for (int i = 0; i < frames; ++i, ++frame) {
      executor.record(ring.begin(frame), uint32_t(frame % runtime::kFramesInFlight), frame);
      ring.submit(frame);
    }
  };
  run(writes, 2);
  run(other, runtime::kFramesInFlight + 1);
  run(reads, 1);
  ring.wait_for(frame);
  const std::string dot = executor.dot();
  EXPECT_NE(dot.find("read (compute)"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("barrier buffer shared"), std::string::npos) << dot;
  EXPECT_EQ(ctx.validation_messages(), 0u);
}

// A pass that calls PassContext::skip records nothing in that frame: the frame's timings mark it
// idle with no GPU time, with timestamps on or off, and only in the frames where it skipped.
TEST(GraphGpu, PassesThatSkipAreIdleInThatFramesTimings) {
  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  graph::RenderGraph g;
  g.declare_image("image", {VK_FORMAT_R8G8B8A8_UNORM});
  g.declare_buffer("value", {graph::BufferSize::fixed(16)});
  clear_pass(g, "image");
  g.add_pass("sometimes", graph::PassKind::Transfer)
      .write_buffer("value", graph::BufferUsage::TransferDst)
      .side_effect()
      .execute([](graph::PassContext& c) {
        if (c.frame % 2 == 1) return c.skip();
        vkCmdFillBuffer(c.cmd, c.buffer("value").handle, 0, VK_WHOLE_SIZE, 7u);
      });
  vk::OneShotCommands commands(ctx);
  for (bool gpu_timing : {true, false}) {
    SCOPED_TRACE(gpu_timing ? "GPU timing on" : "GPU timing off");
    graph::Executor executor(ctx, 2, gpu_timing);
    executor.prepare(g, {"image"}, {8, 8});
    for (uint64_t frame = 0; frame < 4; ++frame) {
      commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, frame % 2, frame); });
      const std::optional<std::vector<graph::PassTiming>> timings = executor.timings(frame % 2);
      ASSERT_TRUE(timings.has_value());
      ASSERT_EQ(timings->size(), 2u);
      EXPECT_EQ((*timings)[0].name, "clear image");
      EXPECT_FALSE((*timings)[0].idle) << "frame " << frame;
      EXPECT_EQ((*timings)[1].name, "sometimes");
      EXPECT_EQ((*timings)[1].idle, frame % 2 == 1) << "frame " << frame;
      if ((*timings)[1].idle) {
        EXPECT_EQ((*timings)[1].gpu_ms, 0.0);
      }
    }
  }
  EXPECT_EQ(ctx.validation_messages(), 0u);
}
