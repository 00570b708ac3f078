#include "passes/scene_pass.h"

#include "graph/executor.h"
#include "io/input_file.h"
#include "scene/scene_config.h"
#include "vk/texture.h"

#include <algorithm>

#include <cstring>

namespace filterlab::passes {

ScenePass::ScenePass(const PassEnv& env, const scene::SceneSettings& settings,
                     std::shared_ptr<const scene::SceneModel> model)
    : env_(env), settings_(settings), model_(std::move(model)) {
  // What the scene needs on the device, checked now that the device is chosen, before any upload.
  const scene::SceneAssets& assets = model_->assets();
  const vk::DeviceReport& device = env.vk.report();
  uint64_t bytes = assets.mesh.vertices.size() * sizeof(scene::Vertex) + assets.mesh.indices.size() * 4;
  for (const scene::TextureImage& t : assets.images) {
    if (t.width > device.max_image_dimension_2d || t.height > device.max_image_dimension_2d)
      throw io::InputError(model_->name(), "texture " + t.name + " is " + std::to_string(t.width) + "x" +
                                               std::to_string(t.height) + ", larger than " + device.name +
                                               " takes (" + std::to_string(device.max_image_dimension_2d) +
                                               ")");
    bytes += vk::texture_bytes(t.width, t.height);
  }
  if (device.device_local_bytes && bytes > device.device_local_bytes)
    throw io::InputError(model_->name(), "the scene needs " + std::to_string(bytes >> 20) +
                                             " MiB of GPU memory, " + device.name + " has " +
                                             std::to_string(device.device_local_bytes >> 20) + " MiB");

  vk::GraphicsPipelineDesc desc;
  desc.vertex_shader = "scene/scene.vert";
  desc.fragment_shader = "scene/scene.frag";
  desc.layout.bindings.assign(BINDING_SCENE_COUNT, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
  desc.layout.bindings[BINDING_SCENE_CAMERA] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  desc.layout.bindings[BINDING_SCENE_MATERIAL] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  for (uint32_t b : {BINDING_SCENE_OBJECTS, BINDING_SCENE_LIGHTS})
    desc.layout.bindings[b] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  desc.color_formats = {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_SFLOAT};
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  using V = scene::Vertex;
  desc.vertex_input = vk::VertexInput{sizeof(V),
                                      {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(V, position)},
                                       {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(V, normal)},
                                       {2, 0, VK_FORMAT_R32_UINT, offsetof(V, object)},
                                       {3, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(V, uv0)},
                                       {4, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(V, uv1)},
                                       {5, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(V, tangent)}}};
  opaque_ = vk::make_pipeline(env.pipelines, env.vk, env.shaders, desc);
  const bool any_blend =
      std::any_of(assets.draws.begin(), assets.draws.end(), [](const scene::Draw& d) { return d.blend; });
  if (any_blend && !device.independent_blend)
    throw io::InputError(model_->name(), "the scene has translucent (BLEND) materials and " + device.name +
                                             " lacks the independentBlend feature they are drawn with");
  if (any_blend) {
    desc.alpha_blend = true;
    blended_ = vk::make_pipeline(env.pipelines, env.vk, env.shaders, desc);
  }
  const size_t lights = std::max<size_t>(model_->light_count(), 1);
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    cameras_.emplace_back(env.vk, sizeof(scene::CameraGpu), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true,
                          "scene camera " + std::to_string(i));
    objects_.emplace_back(env.vk, sizeof(scene::ObjectGpu) * model_->object_count(),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "scene objects " + std::to_string(i));
    lights_.emplace_back(env.vk, sizeof(scene::LightGpu) * lights, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                         "scene lights " + std::to_string(i));
  }
}

namespace {

// Each material a range of one uniform buffer, at offsets every device accepts (the largest
// minUniformBufferOffsetAlignment the specification allows is 256).
constexpr VkDeviceSize kMaterialStride = 256;
static_assert(sizeof(scene::MaterialGpu) <= kMaterialStride);

VkSamplerCreateInfo sampler_info(const scene::SamplerState& s) {
  using F = scene::SamplerState::Filter;
  using W = scene::SamplerState::Wrap;
  const auto filter = [](F f) { return f == F::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR; };
  const auto wrap = [](W w) {
    return w == W::Repeat        ? VK_SAMPLER_ADDRESS_MODE_REPEAT
           : w == W::ClampToEdge ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
                                 : VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  };
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = filter(s.mag);
  info.minFilter = filter(s.min);
  // No mip filter: level 0 alone (maxLod 0), as OpenGL's NEAREST and LINEAR minification mean.
  info.mipmapMode = s.mip == F::Linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.maxLod = s.mip ? VK_LOD_CLAMP_NONE : 0.0f;
  info.addressModeU = wrap(s.wrap_u);
  info.addressModeV = wrap(s.wrap_v);
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  return info;
}

}  // namespace

// The scene goes to the GPU when the first frame is recorded, not when the pass is made: a chain
// that cannot be built (a shader that does not compile) is refused before any GPU work.
void ScenePass::upload_assets() {
  const scene::SceneAssets& a = model_->assets();
  vertices_ =
      vk::uploaded_buffer(env_.vk, a.mesh.vertices.data(), a.mesh.vertices.size() * sizeof(scene::Vertex),
                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                          VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, "scene vertices");
  indices_ = vk::uploaded_buffer(env_.vk, a.mesh.indices.data(), a.mesh.indices.size() * sizeof(uint32_t),
                                 VK_BUFFER_USAGE_INDEX_BUFFER_BIT, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
                                 VK_ACCESS_2_INDEX_READ_BIT, "scene indices");
  std::vector<uint8_t> materials(a.materials.size() * kMaterialStride);
  for (size_t i = 0; i < a.materials.size(); ++i)
    std::memcpy(materials.data() + i * kMaterialStride, &a.materials[i].gpu, sizeof(scene::MaterialGpu));
  materials_ = vk::uploaded_buffer(
      env_.vk, materials.data(), materials.size(), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
      VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_UNIFORM_READ_BIT, "scene materials");
  for (const scene::TextureImage& t : a.images)
    textures_.push_back(vk::upload_texture(env_.vk, t.rgba, t.width, t.height, t.srgb, "texture " + t.name));
  textures_.push_back(vk::upload_texture(env_.vk, {255, 255, 255, 255}, 1, 1, false, "texture white"));
  for (size_t i = 0; i < a.samplers.size(); ++i)
    samplers_.push_back(std::make_unique<vk::Sampler>(env_.vk, sampler_info(a.samplers[i]),
                                                      "scene sampler " + std::to_string(i)));
  samplers_.push_back(std::make_unique<vk::Sampler>(env_.vk, VK_FILTER_NEAREST, "scene sampler white"));
  uploaded_ = true;
}

void ScenePass::add_to(graph::RenderGraph& graph) {
  graph.declare_image(kColor, {VK_FORMAT_R16G16B16A16_SFLOAT});
  graph.declare_image(kDepth, {VK_FORMAT_D32_SFLOAT});
  graph.declare_image(kMotion, {VK_FORMAT_R16G16_SFLOAT});
  graph.add_pass("scene", graph::PassKind::Graphics)
      .color(kColor, VkClearColorValue{{0, 0, 0, 1}})
      .color(kMotion, VkClearColorValue{{0, 0, 0, 0}})
      .depth(kDepth, 1.0f)
      .execute([this](graph::PassContext& ctx) { record(ctx); });
}

void ScenePass::draw(graph::PassContext& ctx, const vk::Pipeline& pipeline, const scene::Draw& d) {
  const scene::Material& material = model_->assets().materials[d.material];
  graph::PassContext::Binder binder = ctx.bind(pipeline);
  binder.uniform(BINDING_SCENE_CAMERA, cameras_[ctx.slot])
      .storage_buffer(BINDING_SCENE_OBJECTS, objects_[ctx.slot])
      .uniform(BINDING_SCENE_MATERIAL, materials_, d.material * kMaterialStride, sizeof(scene::MaterialGpu))
      .storage_buffer(BINDING_SCENE_LIGHTS, lights_[ctx.slot]);
  for (uint32_t slot = 0; slot < scene::kTextureSlots; ++slot) {
    const std::optional<scene::TextureBinding>& t = material.textures[slot];
    binder.texture(BINDING_SCENE_TEXTURES + slot, t ? textures_[t->image] : textures_.back(),
                   t ? samplers_[t->sampler]->handle() : samplers_.back()->handle());
  }
  binder.draw_indexed(vertices_.handle(), indices_.handle(), d.index_count, d.first_index);
}

void ScenePass::record(graph::PassContext& ctx) {
  if (!uploaded_) upload_assets();
  const VkExtent2D extent = ctx.image(kColor).extent;
  // ctx.frame drives the jitter; settings_.animation_frame, when set (pause, single step), the time.
  const scene::FrameData frame = model_->frame(ctx.frame, extent.width, extent.height, settings_);
  camera_.view_proj = frame.camera.view_proj;
  camera_.prev_view_proj = frame.camera.prev_view_proj;
  camera_.jitter_px = {frame.camera.viewport_jitter.z, frame.camera.viewport_jitter.w};
  camera_.jitter_length = settings_.jitter_length;
  camera_.frame = ctx.frame;
  camera_.history_invalid = !recorded_ || frame.camera_cut || extent.width != last_extent_.width ||
                            extent.height != last_extent_.height;
  recorded_ = true;
  last_extent_ = extent;
  // The slot's previous frame has finished (the runner waited), so its buffers are free.
  std::memcpy(cameras_[ctx.slot].mapped(), &frame.camera, sizeof(frame.camera));
  std::memcpy(objects_[ctx.slot].mapped(), frame.objects.data(),
              frame.objects.size() * sizeof(scene::ObjectGpu));
  std::memcpy(lights_[ctx.slot].mapped(), frame.lights.data(), frame.lights.size() * sizeof(scene::LightGpu));

  // Opaque and masked draws, then the blended ones from the farthest to the nearest.
  std::vector<std::pair<float, const scene::Draw*>> blended;
  const glm::vec3 eye(frame.camera.camera_position);
  for (const scene::Draw& d : model_->assets().draws) {
    if (!d.blend) {
      draw(ctx, *opaque_, d);
      continue;
    }
    const glm::vec3 center(frame.objects[d.object].model * glm::vec4(d.center, 1.0f));
    blended.push_back({glm::dot(center - eye, center - eye), &d});
  }
  std::stable_sort(blended.begin(), blended.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [distance, d] : blended) draw(ctx, *blended_, *d);
}

}  // namespace filterlab::passes
