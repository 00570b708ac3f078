#include "runtime/frame_graph.h"

#include <map>

namespace filterlab::runtime {

std::string add_chain(graph::RenderGraph& graph, const passes::PassEnv& env, const std::string& input,
                      const std::vector<filters::FilterStep>& steps, const std::string& prefix,
                      std::vector<std::unique_ptr<filters::Filter>>& filters) {
  std::string current = input;
  std::map<std::string, int> uses;
  for (const filters::FilterStep& step : steps) {
    filters.push_back(filters::make_filter(step, env));
    const int n = ++uses[step.filter];
    const std::string name = prefix + (n == 1 ? step.filter : step.filter + "." + std::to_string(n));
    current = filters.back()->add_to(graph, current, name);
  }
  return current;
}

ChainGraph build_chain_graph(graph::RenderGraph& graph, const passes::PassEnv& env, const RunOptions& options,
                             const std::vector<filters::FilterStep>& steps) {
  ChainGraph out;
  out.scene = std::make_unique<passes::ScenePass>(env, options.scene);
  out.scene->add_to(graph);
  const std::string current = add_chain(graph, env, passes::ScenePass::kColor, steps, "", out.filters);
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

}  // namespace filterlab::runtime
