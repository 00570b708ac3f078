// tier: smoke
// GPU tier: what a family reads beyond the previous step's image (filters::Input): the scene's
// depth and motion, the camera, and its own previous output. A probe family, registered in a
// registry of the test's own beside the built-in families, writes what it sees
// (shaders/tests/input_probe.comp), frame by frame through a real scene: its history counts up
// from the first frame, drops at a camera cut and at a resize; its depth and motion are the
// scene's; a still image, which has neither, refuses it with the reason. Validation on.
#include "gpu_test_util.h"

#include "config.h"
#include "filters/apply.h"
#include "filters/copy/copy.h"
#include "filters/gaussian/gaussian.h"
#include "graph/executor.h"
#include "passes/camera_feed.h"
#include "passes/simple_pass.h"
#include "runtime/frame_graph.h"
#include "runtime/frame_ring.h"

using namespace filterlab;

namespace {

class Probe : public filters::Filter {
 public:
  explicit Probe(const filters::FilterEnv& env) : env_(env.pass_env) {}
  std::string add_to(graph::RenderGraph& graph, const filters::FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::relative_to(inputs.color)});
    const passes::CameraFeed* camera = inputs.camera;
    passes::SimplePass(env_, name, passes::ComputeShader{"tests/input_probe.comp"})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name)
        .sample(BINDING_DEPTH, inputs.depth)
        .sample(BINDING_MOTION, inputs.motion)
        .sample_history(BINDING_HISTORY, name, graph::Sampling::Nearest)
        .constants_from<shader::FilterCamera>(
            [camera](graph::PassContext&) { return passes::camera_constants(*camera); })
        .dispatch_over(name, 8, 8)
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
};

filters::Family make_probe() {
  filters::Family f;
  f.name = "probe";
  f.description = "reads depth, motion, the camera and its history, and writes what it saw";
  f.inputs = {filters::Input::Depth, filters::Input::Motion, filters::Input::Camera, filters::Input::History};
  filters::Method m;
  m.name = "comp.probe";
  m.description = "the probe";
  m.cost = [](const filters::ParamValues&) { return filters::MethodCost{4}; };
  m.create = [](const filters::FilterEnv& env) -> std::unique_ptr<filters::Filter> {
    return std::make_unique<Probe>(env);
  };
  f.methods = {m};
  f.default_method = m.name;
  f.reference = [](const io::ImageF& input, const filters::ParamValues&) {
    return common::ImageD{input.width, input.height, input.channels,
                          std::vector<double>(input.pixels.size(), 0.0)};
  };
  f.test_points = {""};
  return f;
}

const filters::Family& probe_family() {
  static const filters::Family f = make_probe();
  return f;
}

// The built-in families and the probe: a registry a test may make of its own.
const filters::Registry& registry_with_probe() {
  static const filters::Registry r({&filters::copy::family(), &filters::gaussian::family(), &probe_family()});
  return r;
}

class FilterInputs : public test::ValidatedSuite {};

}  // namespace

TEST_F(FilterInputs, AStepReadsTheScenesDepthMotionCameraAndItsOwnHistory) {
  const passes::PassEnv env{*context_, *shaders_, runtime::kFramesInFlight};
  scene::SceneSettings settings;  // the camera orbits (motion is not zero); objects stand still
  settings.animate_objects = false;
  settings.camera_cuts = {3};
  graph::RenderGraph graph;
  passes::ScenePass scene(env, settings);
  scene.add_to(graph);
  std::vector<std::unique_ptr<filters::Filter>> built;
  const std::string output =
      filters::add_chain(graph, env, runtime::scene_inputs(scene), filters::parse_chain("probe"), "", built,
                         registry_with_probe());
  ASSERT_EQ(output, "probe");
  graph::Executor executor(*context_, runtime::kFramesInFlight, false);
  const std::vector<std::string> outputs = {"probe", passes::ScenePass::kDepth, passes::ScenePass::kMotion};

  // Frames 0-2 count up from the first frame; 3 is a camera cut; 5 comes at a new size.
  const float expected_count[] = {1, 2, 3, 1, 2, 1, 2};
  runtime::FrameRing ring(*context_);
  for (uint64_t frame = 0; frame < 7; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    if (frame == 0) executor.prepare(graph, outputs, {48, 32});
    if (frame == 5) {
      ring.wait_for(frame);
      executor.prepare(graph, outputs, {40, 24});
    }
    VkCommandBuffer cmd = ring.begin(frame);
    executor.record(cmd, uint32_t(frame % runtime::kFramesInFlight), frame);
    ring.submit(frame);
    ring.wait_for(frame + 1);
    EXPECT_EQ(scene.camera().frame, frame);
    EXPECT_EQ(scene.camera().history_invalid, expected_count[frame] == 1.0f);
    const io::ImageF seen = graph::to_float_image(executor.read_image("probe"));
    const io::ImageF depth = graph::to_float_image(executor.read_image(passes::ScenePass::kDepth));
    const io::ImageF motion = graph::to_float_image(executor.read_image(passes::ScenePass::kMotion));
    ASSERT_EQ(seen.width, depth.width);
    size_t moving = 0;
    for (size_t p = 0; p < size_t(seen.width) * seen.height; ++p) {
      ASSERT_EQ(seen.pixels[p * 4 + 0], expected_count[frame]) << "pixel " << p;
      ASSERT_EQ(seen.pixels[p * 4 + 1], depth.pixels[p]) << "pixel " << p;
      ASSERT_EQ(seen.pixels[p * 4 + 2], motion.pixels[p * 2]) << "pixel " << p;
      ASSERT_EQ(seen.pixels[p * 4 + 3], float(frame));
      moving += motion.pixels[p * 2] != 0.0f;
    }
    // The camera moves on its orbit, except across the cut, where the previous pose is the current one.
    if (frame == 3) {
      EXPECT_EQ(moving, 0u) << "no camera motion across a cut";
    } else if (frame > 0) {
      EXPECT_GT(moving, 0u);
    }
  }
}

TEST_F(FilterInputs, AStillImageRefusesAFamilyThatReadsTheScene) {
  const io::ImageF image = common::random_image(16, 8, 4, 1);
  try {
    filters::apply_filter(*context_, *shaders_, image, filters::parse_chain("probe").at(0),
                          VK_FORMAT_R32G32B32A32_SFLOAT, registry_with_probe());
    ADD_FAILURE() << "a still image gave the probe depth";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "probe.comp.probe reads the scene's depth, which a still image has none of"),
              std::string::npos)
        << e.what();
  }
  // The built-in registry does not know the probe: it stays the test's.
  EXPECT_THROW(filters::resolve(filters::parse_chain("probe").at(0)), filters::ChainError);
}
