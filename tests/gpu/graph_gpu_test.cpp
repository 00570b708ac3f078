// GPU tier: the graph executor with history images and single-mip access, under synchronization
// validation. The shaders are GLSL compiled at run time, which also exercises shaderc.
#include "gpu_test_util.h"

#include "graph/executor.h"
#include "headless/capture.h"
#include "vk/shader_compiler.h"

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
  vk::Pipeline fill(ctx, shaders, vk::ComputePipelineDesc{"fill.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0}, {}});
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
        c.bind(accumulate).sampled_history(0, "acc", graph::Filter::Nearest).storage(1, "acc").dispatch_over("acc", 8, 8);
      });
  g.add_pass("fill", graph::PassKind::Compute)
      .write("pyramid", Usage::StorageWriteCompute, graph::mip(0))
      .execute([&](graph::PassContext& c) { c.bind(fill).storage(0, "pyramid").dispatch_over("pyramid", 8, 8); });
  for (uint32_t level = 1; level < 3; ++level)
    g.add_pass("down" + std::to_string(level), graph::PassKind::Compute)
        .read("pyramid", Usage::SampledCompute, graph::mip(level - 1))
        .write("pyramid", Usage::StorageWriteCompute, graph::mip(level))
        .execute([&, level](graph::PassContext& c) {
          c.bind(down)
              .sampled(0, "pyramid", graph::Filter::Nearest, level - 1)
              .storage(1, "pyramid", level)
              .dispatch_over(c.image("pyramid", level).extent, 8, 8);
        });
  g.add_pass("read_level2", graph::PassKind::Compute)
      .read("pyramid", Usage::SampledCompute, graph::mip(2))
      .write("level2", Usage::StorageWriteCompute)
      .execute([&](graph::PassContext& c) {
        c.bind(copy_out).sampled(0, "pyramid", graph::Filter::Nearest).storage(1, "level2").dispatch_over("level2", 8, 8);
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
  io::ImageF acc = headless::to_float_image(executor.read_image("acc"));
  ASSERT_EQ(acc.width, 24u);
  for (float v : acc.pixels) ASSERT_EQ(v, float(kFrames));

  // Mips: level 2 (4x3) of the 16x12 ramp is the mean of each 4x4 block.
  io::ImageF level2 = headless::to_float_image(executor.read_image("level2"));
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
  io::ImageF resized = headless::to_float_image(executor.read_image("acc"));
  EXPECT_EQ(resized.width, 30u);
  for (float v : resized.pixels) ASSERT_EQ(v, 1.0f);  // a fresh history starts from zero again
  EXPECT_EQ(ctx.validation_messages(), 0u);
  std::filesystem::remove_all(dir);
}

TEST(GraphGpu, ShaderCompileErrorsNameTheFileAndLine) {
  const std::filesystem::path dir = test::temp_dir("bad-shader");
  write_file(dir / "broken.comp", "#version 460\nlayout(local_size_x = 1) in;\nvoid main() { undefined_call(); }\n");
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
