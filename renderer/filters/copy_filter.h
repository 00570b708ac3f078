#pragma once
// A plain compute copy of the input: the memory floor a filter pass is measured against. It reads
// with texelFetch like the blur methods do, so input format and cache path match theirs.
// `copy[:precision=fp16|fp32]` picks the output format (default fp16, like the blurs).
#include "filters/chain.h"

namespace filterlab::filters {

class CopyFilter : public Filter {
 public:
  CopyFilter(const passes::PassEnv& env, VkFormat format);
  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override;

 private:
  VkFormat format_;
  vk::PipelineRef pipeline_;
};

// Output format from the step's parameters; throws ChainError for anything but precision.
VkFormat parse_copy_format(const FilterStep& step);

}  // namespace filterlab::filters
