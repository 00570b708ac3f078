#pragma once
// A plain compute copy of the input: the memory floor a filter pass is measured against.
#include "filters/chain.h"

namespace filterlab::filters {

class CopyFilter : public Filter {
public:
  explicit CopyFilter(const passes::PassEnv& env);
  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override;

private:
  std::unique_ptr<vk::Pipeline> pipeline_;
};

}  // namespace filterlab::filters
