#include "runtime/frame_graph.h"

#include "graph/readback.h"
#include "io/image_files.h"
#include "scene/gltf_scene.h"
#include "vk/formats.h"

#include <cstdio>

#include <stdexcept>

namespace filterlab::runtime {

filters::FilterInputs scene_inputs(const passes::ScenePass& scene) {
  return {passes::ScenePass::kColor, passes::ScenePass::kDepth, passes::ScenePass::kMotion, &scene.camera()};
}

filters::FilterInputs still_inputs(const passes::StillImagePass& still) {
  return {passes::ScenePass::kColor, {}, {}, &still.camera()};
}

void load_content(RunOptions& options) {
  if (options.scene_file && !options.scene_model) {
    const scene::GltfLoad load = scene::load_gltf(*options.scene_file, options.scene_camera);
    for (const std::string& note : load.notes)
      std::fprintf(stderr, "filterlab: %s: %s\n", options.scene_file->string().c_str(), note.c_str());
    options.scene_model = load.scene;
  }
  if (!options.image || options.still) return;
  filters::check_steps_on_still_image(filters::parse_chain(options.chain));
  options.still = std::make_shared<const io::ImageF>(io::read_image_file(*options.image, io::Encoding::Srgb));
}

ChainGraph build_chain_graph(graph::RenderGraph& graph, const passes::PassEnv& env, const RunOptions& options,
                             const std::vector<filters::FilterStep>& steps) {
  ChainGraph out;
  filters::FilterInputs inputs;
  if (options.image) {
    if (!options.still) throw std::logic_error("build_chain_graph: load_content first");
    out.still = std::make_unique<passes::StillImagePass>(env, *options.still);
    out.still->add_to(graph);
    inputs = still_inputs(*out.still);
  } else {
    scene::SceneSettings settings = options.scene;
    settings.jitter = settings.jitter || filters::chain_needs(steps, filters::Input::Jitter);
    out.scene = std::make_unique<passes::ScenePass>(
        env, settings, options.scene_model ? options.scene_model : scene::builtin_scene());
    out.scene->add_to(graph);
    inputs = scene_inputs(*out.scene);
  }
  const std::string current = filters::add_chain(graph, env, inputs, steps, "", out.filters);
  out.tonemap = std::make_unique<passes::TonemapPass>(env);
  out.tonemap->display = options.display;
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

void check_images_capturable(const graph::RenderGraph& graph, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const VkFormat format = graph.image_desc(name).format;
    if (!graph::converts_to_float(format))
      throw UnknownImageError("image '" + name + "' cannot be captured: its format (" +
                              vk::format_name(format) + ") holds no plain values");
  }
}

std::vector<std::string> frame_image_names(const std::vector<filters::FilterStep>& steps, bool still) {
  std::vector<std::string> names = {passes::ScenePass::kColor};
  if (still) names.push_back(passes::StillImagePass::kImage);
  else {
    names.push_back(passes::ScenePass::kDepth);  // one by one: an initializer list of two made GCC 14
    names.push_back(passes::ScenePass::kMotion);  // warn of bounds that are not crossed (Debian 13)
  }
  for (const std::string& step : filters::step_image_names(steps)) names.push_back(step);
  names.push_back(passes::TonemapPass::kOutput);
  return names;
}

void check_image_names_before_device(const std::vector<filters::FilterStep>& steps,
                                     const std::vector<std::string>& names,
                                     const std::vector<std::string>& also, bool still) {
  std::vector<std::string> known = frame_image_names(steps, still);
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
