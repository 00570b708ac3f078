#include "passes/simple_pass.h"

#include <set>
#include <stdexcept>

namespace filterlab::passes {

// What the graph keeps with the pass: its pipeline and what to bind, push and dispatch.
struct SimplePass::State {
  vk::PipelineRef pipeline;
  std::vector<Binding> bindings;
  std::function<void(graph::PassContext&, std::vector<uint8_t>&)> push;
  std::function<std::array<uint32_t, 2>(graph::PassContext&)> groups;
  std::function<bool(graph::PassContext&)> idle;
  bool fragment = false;
};

graph::BufferSource per_slot(const std::vector<vk::Buffer>& buffers) {
  return [&buffers](uint32_t slot) {
    return graph::ExternalBuffer{buffers.at(slot).handle(), buffers.at(slot).size()};
  };
}

SimplePass::SimplePass(const PassEnv& env, std::string name, ComputeShader shader)
    : env_(env), name_(std::move(name)), compute_(std::move(shader)) {}

SimplePass::SimplePass(const PassEnv& env, std::string name, FragmentShader shader)
    : env_(env), name_(std::move(name)), fragment_(std::move(shader)) {}

SimplePass& SimplePass::add(Binding binding) {
  for (const Binding& b : bindings_)
    if (b.number == binding.number)
      throw std::logic_error("pass '" + name_ + "' binds binding " + std::to_string(binding.number) +
                             " twice");
  bindings_.push_back(std::move(binding));
  return *this;
}

SimplePass& SimplePass::sample(uint32_t binding, const std::string& image, graph::Sampling sampling,
                               graph::MipRange mips) {
  Binding b{binding, Kind::Sampled, image, sampling};
  b.mips = mips;
  return add(std::move(b));
}

SimplePass& SimplePass::sample_history(uint32_t binding, const std::string& image, graph::Sampling sampling) {
  return add({binding, Kind::SampledHistory, image, sampling});
}

SimplePass& SimplePass::load(uint32_t binding, const std::string& image) {
  return add({binding, Kind::Load, image});
}

SimplePass& SimplePass::store(uint32_t binding, const std::string& image) {
  return add({binding, Kind::Store, image});
}

SimplePass& SimplePass::store_part(uint32_t binding, const std::string& image) {
  return add({binding, Kind::StorePart, image});
}

SimplePass& SimplePass::uniform(uint32_t binding, const vk::Buffer& buffer) {
  return add({binding, Kind::Uniform, {}, graph::Sampling::Nearest, &buffer});
}

SimplePass& SimplePass::storage_buffer(uint32_t binding, const vk::Buffer& buffer) {
  return add({binding, Kind::StorageBuffer, {}, graph::Sampling::Nearest, &buffer});
}

SimplePass& SimplePass::graph_buffer(uint32_t binding, const std::string& buffer, graph::BufferUsage usage) {
  Binding b{binding, Kind::GraphBuffer, buffer};
  b.buffer_usage = usage;
  return add(std::move(b));
}

SimplePass& SimplePass::color(const std::string& image) {
  colors_.push_back(image);
  return *this;
}

SimplePass& SimplePass::dispatch_over(const std::string& image, uint32_t local_x, uint32_t local_y) {
  groups_ = [image, local_x, local_y](graph::PassContext& ctx) {
    const VkExtent2D e = ctx.image(image).extent;
    return std::array<uint32_t, 2>{(e.width + local_x - 1) / local_x, (e.height + local_y - 1) / local_y};
  };
  return *this;
}

SimplePass& SimplePass::dispatch(std::function<std::array<uint32_t, 2>(graph::PassContext&)> groups) {
  groups_ = std::move(groups);
  return *this;
}

SimplePass& SimplePass::skip_when(std::function<bool(graph::PassContext&)> idle) {
  idle_ = std::move(idle);
  return *this;
}

void SimplePass::add_to(graph::RenderGraph& graph) {
  vk::PipelineLayoutDesc layout;
  layout.push_constant_size = push_size_;
  for (const Binding& b : bindings_) {
    if (layout.bindings.size() <= b.number) layout.bindings.resize(b.number + 1, vk::kUnusedBinding);
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    if (b.kind == Kind::Sampled || b.kind == Kind::SampledHistory)
      type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    if (b.kind == Kind::Uniform) type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (b.kind == Kind::StorageBuffer || b.kind == Kind::GraphBuffer)
      type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    layout.bindings[b.number] = type;
  }

  auto state = std::make_shared<State>();
  state->bindings = bindings_;
  state->push = push_;
  state->groups = groups_;
  state->idle = idle_;
  state->fragment = fragment_.has_value();
  if (compute_) {
    if (!groups_) throw std::logic_error("compute pass '" + name_ + "' has no dispatch");
    state->pipeline =
        vk::make_pipeline(env_.pipelines, env_.vk, env_.shaders,
                          vk::ComputePipelineDesc{compute_->shader, layout, compute_->specialization});
  } else {
    if (colors_.empty()) throw std::logic_error("fragment pass '" + name_ + "' has no colour attachment");
    vk::GraphicsPipelineDesc desc;
    desc.vertex_shader = "filters/common/fullscreen.vert";
    desc.fragment_shader = fragment_->shader;
    desc.layout = layout;
    desc.color_formats.assign(colors_.size(), fragment_->color_format);
    desc.specialization = fragment_->specialization;
    state->pipeline = vk::make_pipeline(env_.pipelines, env_.vk, env_.shaders, desc);
  }

  const graph::Usage sampled = compute_ ? graph::Usage::SampledCompute : graph::Usage::SampledFragment;
  graph::PassBuilder pass =
      graph.add_pass(name_, compute_ ? graph::PassKind::Compute : graph::PassKind::Graphics);
  std::set<std::string> sampled_images;
  for (const Binding& b : bindings_) {
    switch (b.kind) {
      case Kind::Sampled:
        if (sampled_images.insert(b.image).second) pass.read(b.image, sampled, b.mips);
        break;
      case Kind::SampledHistory: pass.read_history(b.image, sampled); break;
      case Kind::Load: pass.read(b.image, graph::Usage::StorageReadCompute); break;
      case Kind::Store: pass.write(b.image, graph::Usage::StorageWriteCompute); break;
      case Kind::StorePart: pass.read_write(b.image); break;
      case Kind::GraphBuffer:
        if (b.buffer_usage == graph::BufferUsage::StorageReadWriteCompute) pass.read_write_buffer(b.image);
        else if (b.buffer_usage == graph::BufferUsage::StorageWriteCompute) pass.write_buffer(b.image);
        else pass.read_buffer(b.image, b.buffer_usage);
        break;
      case Kind::Uniform:
      case Kind::StorageBuffer: break;  // the filter's own buffers: written once, before any frame
    }
  }
  for (const std::string& image : colors_) pass.color_overwrite(image);
  pass.execute([state](graph::PassContext& ctx) {
    if (state->idle && state->idle(ctx)) {
      ctx.skip();
      return;
    }
    std::vector<uint8_t> push;
    if (state->push) state->push(ctx, push);  // first: it may check the frame's images and throw
    graph::PassContext::Binder binder = ctx.bind(*state->pipeline);
    for (const Binding& b : state->bindings) {
      switch (b.kind) {
        case Kind::Sampled: binder.sampled(b.number, b.image, b.sampling); break;
        case Kind::SampledHistory: binder.sampled_history(b.number, b.image, b.sampling); break;
        case Kind::Load:
        case Kind::Store:
        case Kind::StorePart: binder.storage(b.number, b.image); break;
        case Kind::Uniform: binder.uniform(b.number, *b.buffer); break;
        case Kind::StorageBuffer: binder.storage_buffer(b.number, *b.buffer); break;
        case Kind::GraphBuffer: binder.storage_buffer(b.number, b.image); break;
      }
    }
    if (!push.empty()) binder.constants_bytes(push.data(), uint32_t(push.size()));
    if (state->fragment) {
      binder.draw(3);
    } else {
      const auto [x, y] = state->groups(ctx);
      binder.dispatch(x, y);
    }
  });
}

}  // namespace filterlab::passes
