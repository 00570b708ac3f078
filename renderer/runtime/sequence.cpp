#include "runtime/sequence.h"

#include "graph/readback.h"

namespace filterlab::runtime {

Sequence::Sequence(const passes::PassEnv& env, const scene::SceneSettings& settings,
                   const std::vector<filters::FilterStep>& chain, VkExtent2D extent,
                   std::vector<std::string> outputs, std::shared_ptr<const scene::SceneModel> model)
    : env_(env), executor_(env.vk, kFramesInFlight, false), ring_(env.vk), outputs_(std::move(outputs)) {
  RunOptions options;
  options.scene = settings;
  options.scene_model = std::move(model);
  objects_ = build_chain_graph(graph_, env_, options, chain);
  executor_.prepare(graph_, outputs_, extent);
}

void Sequence::resize(VkExtent2D extent) {
  ring_.wait_for(frame_);
  executor_.prepare(graph_, outputs_, extent);
}

void Sequence::run() {
  VkCommandBuffer cmd = ring_.begin(frame_);
  executor_.record(cmd, uint32_t(frame_ % kFramesInFlight), frame_);
  ring_.submit(frame_);
  ring_.wait_for(frame_ + 1);
  ++frame_;
}

io::ImageF Sequence::image(const std::string& name) {
  return graph::to_float_image(executor_.read_image(name));
}

}  // namespace filterlab::runtime
