// GPU tier: shader hot reload through vk::PipelineLibrary on lavapipe, validation on. Shaders live in
// a temporary folder the tests edit; every file edit moves the file's time explicitly (one second
// past its previous time) so that the library's mtime polling sees it without sleeping, whatever the
// file system's time granularity.
#include "gpu_test_util.h"

#include "filters/chain.h"
#include "graph/executor.h"
#include "passes/camera_feed.h"
#include "passes/compare_pass.h"
#include "passes/upload_pass.h"
#include "passes/view_pass.h"
#include "runtime/frame_graph.h"
#include "runtime/frame_ring.h"
#include "vk/pipeline_library.h"
#include "vk/resources.h"
#include "vk/shader_compiler.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace filterlab;
namespace fs = std::filesystem;

namespace {

// Writes the constant its include defines into a storage buffer. The include is quoted, so the
// compiler looks for it next to the shader (passes/common/value.glsl, absent) and then in the
// include folder (common/value.glsl).
constexpr const char* kValueShader = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "common/value.glsl"
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Result { uint value; } result;
void main() { result.value = VALUE; }
)";

std::string value_include(uint32_t value) {
  return "// The constant the test shader writes.\nconst uint VALUE = " + std::to_string(value) + "u;\n";
}

// Line 2 is the broken one: the error must point at common/value.glsl:2.
constexpr const char* kBrokenInclude = "// The constant the test shader writes.\nconst uint VALUE = 5u +;\n";

constexpr const char* kConstantShader = R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Result { uint value; } result;
void main() { result.value = 99u; }
)";

// Writes `text` and moves the file's time one second past its previous time (if it existed), so
// that even a same-size rewrite within the file system's time granularity reads as modified.
void write_file(const fs::path& path, const std::string& text) {
  std::optional<fs::file_time_type> before;
  if (fs::exists(path)) before = fs::last_write_time(path);
  fs::create_directories(path.parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    ASSERT_TRUE(out.good()) << path;
  }
  if (before) fs::last_write_time(path, *before + std::chrono::seconds(1));
}

void touch(const fs::path& path) {
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(1));
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A frame loop like the headless runner's (FrameRing: two frames in flight, a timeline semaphore):
// poll the library, dispatch one pipeline that writes a uint into a host-visible buffer, submit.
class Frames {
 public:
  Frames(const vk::Context& ctx, vk::PipelineLibrary& library)
      : ctx_(ctx),
        library_(library),
        ring_(ctx),
        buffer_(ctx, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "hot reload result") {}

  // Polls, records and submits frame `next()` with `pipeline`; does not wait for it.
  void submit(const vk::PipelineRef& pipeline) {
    VkCommandBuffer cmd = ring_.begin(frame_);
    last_poll_ = library_.poll(frame_);
    // Earlier frames wrote the same buffer: order their writes (and the host's read of them,
    // which happened before this submission) before this frame's write.
    vk::record_barriers(
        cmd, {vk::buffer_barrier(buffer_, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)});
    const vk::Pipeline& p = *pipeline;
    vkCmdBindPipeline(cmd, p.bind_point(), p.handle());
    vk::DescriptorPush().storage_buffer(0, buffer_.handle(), 4).push(ctx_, cmd, p);
    vkCmdDispatch(cmd, 1, 1, 1);
    vk::record_barriers(cmd, {vk::buffer_barrier(buffer_, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT)});
    ring_.submit(frame_);
    ++frame_;
  }

  // Waits for every submitted frame and returns what the last one wrote.
  uint32_t finish() {
    ring_.wait_for(frame_);
    return *static_cast<const uint32_t*>(buffer_.mapped());
  }

  uint32_t run(const vk::PipelineRef& pipeline) {
    submit(pipeline);
    return finish();
  }

  uint64_t next() const { return frame_; }
  const vk::PollReport& last_poll() const { return last_poll_; }

 private:
  const vk::Context& ctx_;
  vk::PipelineLibrary& library_;
  runtime::FrameRing ring_;
  vk::Buffer buffer_;
  uint64_t frame_ = 0;
  vk::PollReport last_poll_;
};

const vk::ComputePipelineDesc kValueDesc{"passes/value.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, {}};
const vk::ComputePipelineDesc kConstantDesc{
    "passes/constant.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, {}};

class HotReload : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    vk::ContextOptions options;
    options.validation = true;
    context_ = std::make_unique<vk::Context>(options);
  }
  static void TearDownTestSuite() { context_.reset(); }

  void SetUp() override {
    dir_ = test::temp_dir(std::string("hot-reload-") +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_file(dir_ / "passes/value.comp", kValueShader);
    write_file(dir_ / "common/value.glsl", value_include(7));
    write_file(dir_ / "passes/constant.comp", kConstantShader);
    write_file(dir_ / "common/unrelated.glsl", "const uint UNRELATED = 1u;\n");
  }
  void TearDown() override {
    EXPECT_EQ(context_->validation_messages(), 0u);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Looks at the files on every poll: the tests decide when files change.
  vk::PipelineLibrary make_library() const { return make_library({2, std::chrono::milliseconds(0), true}); }
  vk::PipelineLibrary make_library(vk::PipelineLibraryOptions options) const {
    return vk::PipelineLibrary(*context_, vk::ShaderSource{FILTERLAB_SHADER_DIR, dir_}, options);
  }

  static inline std::unique_ptr<vk::Context> context_;
  fs::path dir_;
};

}  // namespace

TEST(HotReloadLog, ParsesTheFirstErrorsFileAndLine) {
  const vk::ShaderError e = vk::parse_compiler_log(
      "shader /s/passes/a.comp failed to compile:\n/s/common/b.glsl:12: error: 'x' : undeclared identifier\n"
      "/s/passes/a.comp:3: error: '' : compilation terminated\n2 errors generated.\n");
  EXPECT_EQ(e.file, "/s/common/b.glsl");
  EXPECT_EQ(e.line, 12u);
  EXPECT_EQ(e.message, "'x' : undeclared identifier");
  const vk::ShaderError missing = vk::parse_compiler_log("cannot read shader /s/passes/gone.comp");
  EXPECT_EQ(missing.file, "/s/passes/gone.comp");
  EXPECT_EQ(missing.line, 0u);
  const vk::ShaderError spirv = vk::parse_compiler_log("cannot read SPIR-V /b/x.comp.spv (set --shader-dir)");
  EXPECT_EQ(spirv.file, "/b/x.comp.spv");
  // As the loaders say it, through the file gate (io/input_file.h): the reason after the file.
  EXPECT_EQ(
      vk::parse_compiler_log("cannot read SPIR-V /b/y.comp.spv: No such file or directory (set --shader-dir)")
          .file,
      "/b/y.comp.spv");
  EXPECT_EQ(vk::parse_compiler_log(
                "cannot read shader /s/common/c.glsl: it is a FIFO (a named pipe), not a regular file")
                .file,
            "/s/common/c.glsl");
  const vk::ShaderError other = vk::parse_compiler_log("vkCreateComputePipelines failed\nmore");
  EXPECT_EQ(other.file, "");
  EXPECT_EQ(other.message, "vkCreateComputePipelines failed");
}

TEST_F(HotReload, EditingAnIncludedFileRebuildsThePipelineAndTheNextDispatchUsesIt) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  const auto& deps = library.dependencies(value.handle());
  EXPECT_TRUE(deps.count((dir_ / "passes/value.comp").lexically_normal()));
  EXPECT_TRUE(deps.count((dir_ / "common/value.glsl").lexically_normal()));
  // Looked for first, absent: creating it would change what the shader includes.
  EXPECT_TRUE(deps.count((dir_ / "passes/common/value.glsl").lexically_normal()));
  EXPECT_FALSE(deps.count((dir_ / "common/unrelated.glsl").lexically_normal()));

  Frames frames(*context_, library);
  EXPECT_EQ(frames.run(value), 7u);
  EXPECT_EQ(frames.last_poll().rebuilt, 0u);
  const VkPipeline before = value->handle();

  write_file(dir_ / "common/value.glsl", value_include(11));
  EXPECT_EQ(frames.run(value), 11u);
  EXPECT_EQ(frames.last_poll().changed_files, 1u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);
  EXPECT_EQ(library.status(value.handle()).revision, 1u);
  EXPECT_TRUE(library.status(value.handle()).ok());
  EXPECT_NE(value->handle(), before);

  // Nothing changed since: no rebuild, same pipeline.
  const VkPipeline after = value->handle();
  EXPECT_EQ(frames.run(value), 11u);
  EXPECT_EQ(frames.last_poll().rebuilt, 0u);
  EXPECT_EQ(value->handle(), after);

  // The stage file itself.
  std::string shader = kValueShader;
  shader.replace(shader.find("= VALUE;"), 8, "= VALUE + 100u;");
  write_file(dir_ / "passes/value.comp", shader);
  EXPECT_EQ(frames.run(value), 111u);
  EXPECT_EQ(library.status(value.handle()).revision, 2u);
}

TEST_F(HotReload, ACompileErrorKeepsTheLastGoodPipelineAndNamesFileAndLineUntilFixed) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  Frames frames(*context_, library);
  EXPECT_EQ(frames.run(value), 7u);
  const VkPipeline good = value->handle();

  write_file(dir_ / "common/value.glsl", kBrokenInclude);
  EXPECT_EQ(frames.run(value), 7u) << "the last good pipeline keeps running";
  EXPECT_EQ(frames.last_poll().failed, 1u);
  EXPECT_EQ(frames.last_poll().rebuilt, 0u);
  EXPECT_EQ(value->handle(), good);
  const vk::PipelineStatus& status = library.status(value.handle());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.failed_builds, 1u);
  EXPECT_EQ(status.revision, 0u);
  const std::vector<vk::ShaderError> errors = library.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].pipeline, "passes/value.comp");
  EXPECT_TRUE(ends_with(errors[0].file, "common/value.glsl")) << errors[0].file;
  EXPECT_EQ(errors[0].line, 2u) << errors[0].log;
  EXPECT_NE(errors[0].message.find("syntax error"), std::string::npos) << errors[0].log;
  EXPECT_NE(errors[0].log.find("value.glsl:2"), std::string::npos) << errors[0].log;

  // A broken file is not rebuilt again until it changes.
  EXPECT_EQ(frames.run(value), 7u);
  EXPECT_EQ(frames.last_poll().failed, 0u);
  EXPECT_EQ(library.status(value.handle()).failed_builds, 1u);

  write_file(dir_ / "common/value.glsl", value_include(13));
  EXPECT_EQ(frames.run(value), 13u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);
  EXPECT_TRUE(library.status(value.handle()).ok());
  EXPECT_TRUE(library.errors().empty());
  EXPECT_EQ(library.status(value.handle()).revision, 1u);
}

TEST_F(HotReload, EditsToOtherFilesAndSavesWithoutChangesRebuildNothing) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  vk::PipelineRef constant = library.add(kConstantDesc);
  Frames frames(*context_, library);
  EXPECT_EQ(frames.run(value), 7u);
  EXPECT_EQ(frames.run(constant), 99u);

  write_file(dir_ / "common/unrelated.glsl", "const uint UNRELATED = 2u;\n");  // included by nothing
  write_file(dir_ / "passes/other.comp", kConstantShader);                     // not in the library
  touch(dir_ / "common/value.glsl");                                           // saved, not changed
  EXPECT_EQ(frames.run(value), 7u);
  EXPECT_TRUE(frames.last_poll().checked);
  EXPECT_EQ(frames.last_poll().changed_files, 0u);
  EXPECT_EQ(frames.last_poll().rebuilt, 0u);

  // An edit rebuilds only the pipelines that include the file.
  write_file(dir_ / "common/value.glsl", value_include(8));
  EXPECT_EQ(frames.run(constant), 99u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);
  EXPECT_EQ(library.status(value.handle()).revision, 1u);
  EXPECT_EQ(library.status(constant.handle()).revision, 0u);
  EXPECT_EQ(frames.run(value), 8u);
}

TEST_F(HotReload, AReplacedPipelineIsDestroyedOnlyAfterTheFramesThatMayUseItHaveFinished) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  Frames frames(*context_, library);
  frames.submit(value);  // frame 0 uses the first build and is not waited for
  write_file(dir_ / "common/value.glsl", value_include(21));
  frames.submit(value);  // frame 1: poll swaps in the new build while frame 0 may still run
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);
  EXPECT_EQ(library.pending_destruction(), 1u);
  // Destroying it now would be a use-after-free that validation reports: it must survive until
  // poll(1 + frames_in_flight).
  frames.submit(value);  // frame 2
  EXPECT_EQ(library.pending_destruction(), 1u);
  frames.submit(value);  // frame 3 = 1 + 2
  EXPECT_EQ(frames.last_poll().destroyed, 1u);
  EXPECT_EQ(library.pending_destruction(), 0u);
  EXPECT_EQ(frames.finish(), 21u);

  // Released pipelines are deferred the same way, and their handles stop resolving.
  const vk::PipelineHandle handle = value.handle();
  frames.submit(value);  // frame 4
  value.reset();
  EXPECT_EQ(library.size(), 0u);
  EXPECT_EQ(library.pending_destruction(), 1u);
  EXPECT_THROW(library.get(handle), std::logic_error);
  EXPECT_TRUE(library.watched_files().empty());
  vk::PipelineRef constant = library.add(kConstantDesc);
  frames.submit(constant);  // frame 5
  frames.submit(constant);  // frame 6
  EXPECT_EQ(library.pending_destruction(), 1u);
  frames.submit(constant);  // frame 7 = 5 + 2: frame 4 was the last that could use it
  EXPECT_EQ(frames.last_poll().destroyed, 1u);
  EXPECT_EQ(library.pending_destruction(), 0u);
  EXPECT_EQ(frames.finish(), 99u);
}

TEST_F(HotReload, DependenciesFollowTheIncludesAsTheyChange) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  Frames frames(*context_, library);
  EXPECT_EQ(frames.run(value), 7u);

  // A new include, itself including a file by <name> from the include folder.
  write_file(dir_ / "passes/offset.glsl", "#include <common/unrelated.glsl>\nconst uint OFFSET = 1000u;\n");
  std::string shader = kValueShader;
  shader.replace(shader.find("#include \"common/value.glsl\""), 28,
                 "#include \"common/value.glsl\"\n#include \"offset.glsl\"");
  shader.replace(shader.find("= VALUE;"), 8, "= VALUE + OFFSET + UNRELATED;");
  write_file(dir_ / "passes/value.comp", shader);
  EXPECT_EQ(frames.run(value), 1008u);
  EXPECT_TRUE(library.dependencies(value.handle()).count((dir_ / "passes/offset.glsl").lexically_normal()));
  write_file(dir_ / "common/unrelated.glsl", "const uint UNRELATED = 2u;\n");
  EXPECT_EQ(frames.run(value), 1009u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);

  // A file created earlier in the search order than the one included now takes over.
  write_file(dir_ / "passes/common/value.glsl", value_include(30));
  EXPECT_EQ(frames.run(value), 1032u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);

  // Dropping the include stops watching it.
  write_file(dir_ / "passes/value.comp", kValueShader);
  EXPECT_EQ(frames.run(value), 30u);
  const auto watched = library.watched_files();
  EXPECT_EQ(std::count(watched.begin(), watched.end(), (dir_ / "passes/offset.glsl").lexically_normal()), 0);
  write_file(dir_ / "passes/offset.glsl", "const uint OFFSET = 5u;\n");
  EXPECT_EQ(frames.run(value), 30u);
  EXPECT_EQ(frames.last_poll().changed_files, 0u);
}

TEST_F(HotReload, ADeletedIncludeKeepsThePipelineAndItsReturnRestoresIt) {
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef value = library.add(kValueDesc);
  Frames frames(*context_, library);
  EXPECT_EQ(frames.run(value), 7u);

  fs::remove(dir_ / "common/value.glsl");
  EXPECT_EQ(frames.run(value), 7u);
  EXPECT_EQ(frames.last_poll().failed, 1u);
  ASSERT_EQ(library.errors().size(), 1u);
  EXPECT_NE(library.errors()[0].log.find("common/value.glsl"), std::string::npos) << library.errors()[0].log;

  write_file(dir_ / "common/value.glsl", value_include(17));
  EXPECT_EQ(frames.run(value), 17u);
  EXPECT_TRUE(library.errors().empty());

  // The stage file itself going away (an editor's save by rename, caught half way) and back.
  const fs::path stage = dir_ / "passes/value.comp";
  fs::rename(stage, dir_ / "passes/value.comp.tmp");
  EXPECT_EQ(frames.run(value), 17u);
  ASSERT_EQ(library.errors().size(), 1u);
  EXPECT_TRUE(ends_with(library.errors()[0].file, "passes/value.comp")) << library.errors()[0].log;
  fs::rename(dir_ / "passes/value.comp.tmp", stage);
  EXPECT_EQ(frames.run(value), 17u);
  EXPECT_EQ(frames.last_poll().rebuilt, 1u);
  EXPECT_TRUE(library.errors().empty());
}

TEST_F(HotReload, AFirstBuildThatFailsThrowsAndRegistersNothing) {
  vk::PipelineLibrary library = make_library();
  write_file(dir_ / "common/value.glsl", kBrokenInclude);
  EXPECT_THROW(library.add(kValueDesc), vk::ShaderCompileError);
  EXPECT_EQ(library.size(), 0u);
  EXPECT_TRUE(library.watched_files().empty());
  EXPECT_THROW(library.add(vk::ComputePipelineDesc{
                   "passes/missing.comp", {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, {}}),
               vk::ShaderCompileError);
}

TEST_F(HotReload, PollLooksAtFilesAtMostOncePerInterval) {
  vk::PipelineLibrary library = make_library({2, std::chrono::hours(1), true});
  vk::PipelineRef value = library.add(kValueDesc);
  EXPECT_TRUE(library.poll(0).checked);
  write_file(dir_ / "common/value.glsl", value_include(9));
  const vk::PollReport second = library.poll(1);
  EXPECT_FALSE(second.checked);
  EXPECT_EQ(second.rebuilt, 0u);

  vk::PipelineLibrary off = make_library({2, std::chrono::milliseconds(0), false});
  vk::PipelineRef other = off.add(kValueDesc);
  write_file(dir_ / "common/value.glsl", value_include(10));
  EXPECT_FALSE(off.poll(0).checked);
  EXPECT_TRUE(off.watched_files().empty());
}

TEST_F(HotReload, AGraphicsPipelineWatchesBothStages) {
  write_file(dir_ / "passes/tri.vert", R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "tri_vertex.glsl"
void main() { gl_Position = vec4(POSITIONS[gl_VertexIndex], 0.0, 1.0); }
)");
  write_file(dir_ / "passes/tri_vertex.glsl",
             "const vec2 POSITIONS[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));\n");
  write_file(dir_ / "passes/tri.frag", R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "../common/value.glsl"
layout(location = 0) out vec4 color;
void main() { color = vec4(float(VALUE)); }
)");
  vk::PipelineLibrary library = make_library();
  vk::PipelineRef tri = library.add(vk::GraphicsPipelineDesc{"passes/tri.vert",
                                                             "passes/tri.frag",
                                                             {{}, 0},
                                                             {VK_FORMAT_R8G8B8A8_UNORM},
                                                             VK_FORMAT_UNDEFINED,
                                                             {},
                                                             {}});
  EXPECT_EQ(library.status(tri.handle()).name, "passes/tri.vert+passes/tri.frag");

  write_file(dir_ / "passes/tri_vertex.glsl",
             "const vec2 POSITIONS[3] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1));\n");
  EXPECT_EQ(library.poll(0).rebuilt, 1u);
  write_file(dir_ / "common/value.glsl", value_include(1));
  EXPECT_EQ(library.poll(1).rebuilt, 1u);
  write_file(dir_ / "passes/tri.frag", "#version 460\nvoid main() { undefined_call(); }\n");
  EXPECT_EQ(library.poll(2).failed, 1u);
  ASSERT_EQ(library.errors().size(), 1u);
  EXPECT_TRUE(ends_with(library.errors()[0].file, "passes/tri.frag")) << library.errors()[0].log;
  EXPECT_EQ(library.errors()[0].line, 2u);
  EXPECT_EQ(library.status(tri.handle()).revision, 2u);
}

TEST_F(HotReload, WithoutGlslTheBuildsSpirvIsWatched) {
  // The build's .spv of the copy shader's fp16 variant in a folder of its own, replaced as `make`
  // would.
  const fs::path spirv = dir_ / "spv";
  fs::create_directories(spirv / "filters/copy");
  const fs::path file = spirv / "filters/copy/copy.comp.fp16.spv";
  fs::copy_file(fs::path(FILTERLAB_SHADER_DIR) / "filters/copy/copy.comp.fp16.spv", file);
  vk::PipelineLibrary library(*context_, vk::ShaderSource{spirv, std::nullopt},
                              {2, std::chrono::milliseconds(0), true});
  vk::PipelineRef copy = library.add(vk::ComputePipelineDesc{
      "filters/copy/copy.comp#fp16",
      {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0},
      {}});
  ASSERT_EQ(library.watched_files().size(), 1u);
  EXPECT_EQ(library.watched_files()[0], file.lexically_normal());

  write_file(file, "not SPIR-V");  // a half-written file
  EXPECT_EQ(library.poll(0).failed, 1u);
  ASSERT_EQ(library.errors().size(), 1u);
  EXPECT_TRUE(ends_with(library.errors()[0].file, "copy.comp.fp16.spv")) << library.errors()[0].log;

  std::ifstream in(fs::path(FILTERLAB_SHADER_DIR) / "filters/copy/copy.comp.fp32.spv", std::ios::binary);
  ASSERT_TRUE(in) << "the build's fp32 variant";
  write_file(file, std::string(std::istreambuf_iterator<char>(in), {}));
  EXPECT_EQ(library.poll(1).rebuilt, 1u);
  EXPECT_TRUE(library.errors().empty());
}

TEST_F(HotReload, MakePipelineUsesTheLibraryWhenThereIsOneAndOwnsThePipelineOtherwise) {
  const vk::ShaderSource source{FILTERLAB_SHADER_DIR, dir_};
  vk::PipelineLibrary library = make_library();
  Frames frames(*context_, library);
  vk::PipelineRef owned = vk::make_pipeline(nullptr, *context_, source, kValueDesc);
  EXPECT_TRUE(owned);
  EXPECT_EQ(owned.library(), nullptr);
  EXPECT_FALSE(owned.handle().valid());
  vk::PipelineRef shared = vk::make_pipeline(&library, *context_, source, kValueDesc);
  EXPECT_EQ(shared.library(), &library);
  EXPECT_EQ(library.size(), 1u);
  EXPECT_EQ(frames.run(owned), 7u);
  EXPECT_EQ(frames.run(shared), 7u);

  write_file(dir_ / "common/value.glsl", value_include(4));
  EXPECT_EQ(frames.run(shared), 4u);
  EXPECT_EQ(frames.run(owned), 7u) << "a pipeline built without the library does not reload";

  // Moving a ref moves what it refers to; the moved-from ref is empty.
  vk::PipelineRef moved = std::move(owned);
  EXPECT_FALSE(owned);
  EXPECT_THROW(*owned, std::logic_error);
  EXPECT_EQ(frames.run(moved), 7u);
}

// ---- passes and filters through a library -------------------------------------------------------

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// 1-based number of the first line containing `needle`, 0 when none.
uint32_t line_of(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  for (uint32_t n = 1; std::getline(lines, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return 0;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// An RGBA32F graph image read back as floats.
std::vector<float> read_floats(graph::Executor& executor, const std::string& name) {
  const graph::Readback r = executor.read_image(name);
  EXPECT_EQ(r.format, VK_FORMAT_R32G32B32A32_SFLOAT);
  std::vector<float> out(r.bytes.size() / 4);
  std::memcpy(out.data(), r.bytes.data(), out.size() * 4);
  return out;
}

}  // namespace

// The copy filter in a graph, its pipeline from a library over a copy of the shader tree: a broken
// shader keeps the last good pipeline (same output, the error located), an edit changes the output
// as the CPU predicts, restoring the files restores the output.
TEST_F(HotReload, ACopyFilterInAGraphFollowsItsShaderFiles) {
  const fs::path tree = dir_ / "shaders";
  fs::copy(FILTERLAB_SHADER_SOURCE_DIR, tree, fs::copy_options::recursive);
  const fs::path config = tree / "config.h", stage = tree / "filters/copy/copy.comp";
  const std::string original_config = read_text(config), original_stage = read_text(stage);
  const std::string store = "imageStore(destination, p, texels[i]);";
  const std::string config_end = "#endif  // FILTERLAB_CONFIG_H";
  ASSERT_NE(original_stage.find(store), std::string::npos) << "the test edits this line";
  ASSERT_NE(original_config.find(config_end), std::string::npos) << "the test edits this line";

  vk::PipelineLibrary library(*context_, vk::ShaderSource{FILTERLAB_SHADER_DIR, tree},
                              {2, std::chrono::milliseconds(0), true});
  const passes::PassEnv env{*context_, library.source(), 1, &library};

  const uint32_t w = 37, h = 23;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  io::ImageF input{w, h, 3, std::vector<float>(size_t(w) * h * 3)};
  for (float& v : input.pixels) v = dist(rng);
  // What the copy writes, scaled: RGB and the alpha of 1 the upload adds.
  auto expected = [&](float scale) {
    std::vector<float> out(size_t(w) * h * 4);
    for (size_t p = 0; p < size_t(w) * h; ++p)
      for (uint32_t c = 0; c < 4; ++c) out[p * 4 + c] = (c < 3 ? input.pixels[p * 3 + c] : 1.0f) * scale;
    return out;
  };

  graph::RenderGraph graph;
  passes::UploadPass upload(env, input, VK_FORMAT_R32G32B32A32_SFLOAT);
  upload.add_to(graph, "input");
  const std::unique_ptr<filters::Filter> copy = filters::build_filter(
      filters::resolve(filters::parse_chain("copy.comp.fetch:precision=fp32").at(0)), env);
  const passes::CameraFeed camera;
  ASSERT_EQ(copy->add_to(graph, filters::FilterInputs{"input", {}, {}, &camera}, "copy"), "copy");
  EXPECT_EQ(library.size(), 1u);
  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"copy"}, {w, h});

  uint64_t frame = 0;
  vk::PollReport report;
  auto render = [&] {
    report = library.poll(frame);
    vk::OneShotCommands(*context_).run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, frame); });
    ++frame;
    return read_floats(executor, "copy");
  };
  EXPECT_EQ(render(), expected(1.0f));
  EXPECT_EQ(report.rebuilt, 0u);

  {
    SCOPED_TRACE("(a) a syntax error in the included config.h");
    write_file(config, replace_once(original_config, config_end, "int oops = ;\n" + config_end));
    EXPECT_EQ(render(), expected(1.0f)) << "the last good pipeline keeps rendering";
    EXPECT_EQ(report.failed, 1u);
    EXPECT_EQ(report.rebuilt, 0u);
    const std::vector<vk::ShaderError> errors = library.errors();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].pipeline, "filters/copy/copy.comp#fp32");
    EXPECT_TRUE(ends_with(errors[0].file, "config.h")) << errors[0].log;
    EXPECT_EQ(errors[0].line, line_of(original_config, config_end)) << errors[0].log;
    EXPECT_EQ(render(), expected(1.0f));
    EXPECT_EQ(report.failed, 0u) << "not rebuilt again until it changes";
  }
  {
    SCOPED_TRACE("(b) the stage file scales what it stores");
    write_file(config, original_config);
    EXPECT_EQ(render(), expected(1.0f));
    EXPECT_EQ(report.rebuilt, 1u);
    EXPECT_TRUE(library.errors().empty());
    write_file(stage, replace_once(original_stage, store, "imageStore(destination, p, texels[i] * 2.0);"));
    EXPECT_EQ(render(), expected(2.0f));
    EXPECT_EQ(report.rebuilt, 1u);
  }
  {
    SCOPED_TRACE("(c) the original files");
    write_file(stage, original_stage);
    EXPECT_EQ(render(), expected(1.0f));
    EXPECT_EQ(report.changed_files, 1u);
    EXPECT_EQ(report.rebuilt, 1u);
    EXPECT_TRUE(library.errors().empty());
  }
  // A few more frames retire the replaced pipelines while the graph keeps rendering.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(render(), expected(1.0f));
  EXPECT_EQ(library.pending_destruction(), 0u);
}

// Every pass and filter takes its pipelines from PassEnv::pipelines when there is one, with the
// specialization constants the methods compute from the device and the kernel: each blur method
// renders the scene exactly as the same filter built without a library does, and so does the
// viewport's ViewPass showing the chain's output and the scene's depth.
TEST_F(HotReload, EveryPassAndFilterBuildsItsPipelinesThroughTheLibrary) {
  const vk::ShaderSource spirv{FILTERLAB_SHADER_DIR, std::nullopt};
  vk::PipelineLibrary library(*context_, spirv, {2, std::chrono::milliseconds(0), false});
  const passes::PassEnv owned{*context_, spirv, 1, nullptr};
  const passes::PassEnv shared{*context_, spirv, 1, &library};

  // What the pass builds into a graph comes from the library while the graph holds it, and goes
  // back with the graph and the pass object.
  auto adds = [&](const char* what, auto add) {
    const size_t before = library.size();
    {
      graph::RenderGraph graph;
      graph.declare_image("hdr", {VK_FORMAT_R16G16B16A16_SFLOAT});
      graph.declare_image("depth", {VK_FORMAT_D32_SFLOAT});
      auto object = add(graph);
      EXPECT_GT(library.size(), before) << what;
    }
    EXPECT_EQ(library.size(), before) << what << " hands its pipelines back";
  };
  scene::SceneSettings scene_settings;
  adds("scene", [&](graph::RenderGraph&) { return passes::ScenePass(shared, scene_settings); });
  adds("tonemap", [&](graph::RenderGraph& graph) {
    auto tonemap = std::make_unique<passes::TonemapPass>(shared);
    tonemap->add_to(graph, "hdr");
    return tonemap;
  });
  adds("compare", [&](graph::RenderGraph& graph) {  // the reduction, its finish and the display
    auto compare = std::make_unique<passes::ComparePass>(shared);
    compare->add_metrics(graph, "hdr", "hdr", "metrics");
    compare->add_display(graph, "hdr", "hdr", "compare");
    return compare;
  });
  const passes::CameraFeed camera;
  adds("copy", [&](graph::RenderGraph& graph) {
    auto copy = filters::build_filter(filters::resolve(filters::parse_chain("copy").at(0)), shared);
    copy->add_to(graph, filters::FilterInputs{"hdr", {}, {}, &camera}, "copy");
    return copy;
  });
  adds("view", [&](graph::RenderGraph& graph) {  // a pipeline per kind: HDR, and depth with its range step
    auto view = std::make_unique<passes::ViewPass>(shared);
    view->add_to(graph, "hdr", "hdr view");
    view->add_to(graph, "depth", "depth view", "view depth");
    return view;
  });

  // Every method of every family that this device runs, at radius 3 where the family has one (or the
  // largest the method serves here, where that is less).
  std::vector<std::string> chains;
  for (const filters::Family* f : filters::registry().families())
    for (const filters::Method& m : f->methods) {
      const std::string name = f->name + "." + m.name;
      std::string chain = name + (f->param("radius") ? ":radius=3" : "");
      const filters::Support support =
          filters::device_support(filters::resolve(filters::parse_chain(chain).at(0)), *context_);
      if (!support.available()) continue;
      if (support.max_size && *support.max_size < 3)
        chain = name + ":radius=" + std::to_string(*support.max_size);
      chains.push_back(chain);
    }
  ASSERT_GE(chains.size(), 10u);
  chains.push_back("gaussian.comp.tiled:radius=2:src_roi=40x20+0+0:dst_roi=40x20+8+6:outside=poison");
  chains.push_back("gaussian.frag.separable:radius=5:precision=fp32:kernel=box");
  chains.push_back("copy:precision=fp32");

  runtime::RunOptions options;
  options.scene.jitter = true;
  // The chain's output, the tonemapped image, and the views of the chain's output and of depth.
  auto render = [&](const passes::PassEnv& env, const std::string& chain) {
    graph::RenderGraph graph;
    const std::vector<filters::FilterStep> steps = filters::parse_chain(chain);
    const size_t before = library.size();
    runtime::ChainGraph objects = runtime::build_chain_graph(graph, env, options, steps);
    passes::ViewPass view(env);
    view.add_to(graph, steps[0].filter, "filtered view", "view filtered");
    view.add_to(graph, passes::ScenePass::kDepth, "depth view", "view depth");
    // Scene, tonemap, the filter's pipelines (two for separable and ROI methods) and the view's
    // (HDR, depth and its range step) in the library.
    if (env.pipelines) {
      EXPECT_GE(library.size(), before + 6);
    }
    const std::vector<std::string> images = {steps[0].filter, passes::TonemapPass::kOutput, "filtered view",
                                             "depth view"};
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, images, {64, 48});
    vk::OneShotCommands(*context_).run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 5); });
    std::map<std::string, std::vector<uint8_t>> bytes;
    for (const std::string& image : images) bytes[image] = executor.read_image(image).bytes;
    return bytes;
  };
  for (const std::string& chain : chains) {
    SCOPED_TRACE(chain);
    const size_t before = library.size();
    const auto through_library = render(shared, chain);
    EXPECT_EQ(library.size(), before) << "released with the chain's objects";
    const auto owned_pipelines = render(owned, chain);
    for (const auto& [image, bytes] : through_library) EXPECT_EQ(bytes, owned_pipelines.at(image)) << image;
  }
}
