#include "runtime/frame_graph.h"

namespace filterlab::runtime {

filters::FilterInputs scene_inputs(const passes::ScenePass& scene) {
  return {passes::ScenePass::kColor, passes::ScenePass::kDepth, passes::ScenePass::kMotion, &scene.camera()};
}

ChainGraph build_chain_graph(graph::RenderGraph& graph, const passes::PassEnv& env, const RunOptions& options,
                             const std::vector<filters::FilterStep>& steps) {
  ChainGraph out;
  scene::SceneSettings settings = options.scene;
  settings.jitter = settings.jitter || filters::chain_needs(steps, filters::Input::Jitter);
  out.scene = std::make_unique<passes::ScenePass>(env, settings);
  out.scene->add_to(graph);
  const std::string current =
      filters::add_chain(graph, env, scene_inputs(*out.scene), steps, "", out.filters);
  out.tonemap = std::make_unique<passes::TonemapPass>(env);
  out.tonemap->exposure = options.exposure;
  out.tonemap->add_to(graph, current);
  return out;
}

void check_images_exist(const graph::RenderGraph& graph, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (!graph.has_image(name)) {
      std::string all;
      for (const std::string& n : graph.image_names()) all += " " + n;
      throw UnknownImageError("no image named '" + name + "' (images:" + all + ")");
    }
}

std::vector<std::string> frame_image_names(const std::vector<filters::FilterStep>& steps) {
  std::vector<std::string> names = {passes::ScenePass::kColor, passes::ScenePass::kDepth,
                                    passes::ScenePass::kMotion};
  for (const std::string& step : filters::step_image_names(steps)) names.push_back(step);
  names.push_back(passes::TonemapPass::kOutput);
  return names;
}

void check_image_names_before_device(const std::vector<filters::FilterStep>& steps,
                                     const std::vector<std::string>& names, const std::vector<std::string>& also) {
  std::vector<std::string> known = frame_image_names(steps);
  known.insert(known.end(), also.begin(), also.end());
  for (const std::string& name : names) {
    bool possible = false;
    for (const std::string& k : known)
      possible = possible || name == k || (name.size() > k.size() + 1 && name.starts_with(k + "."));
    if (possible) continue;
    std::string all;
    for (const std::string& k : known) all += " " + k;
    throw UnknownImageError("no image named '" + name + "' (images:" + all +
                            ", and each step's own images under its name: run --headless --list-images)");
  }
}

}  // namespace filterlab::runtime
