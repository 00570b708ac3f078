#include "passes/scene_pass.h"

#include "graph/executor.h"
#include "scene/scene_config.h"

#include <cstring>

namespace filterlab::passes {

namespace {

vk::Buffer upload(const vk::Context& ctx, const void* data, VkDeviceSize size, VkBufferUsageFlags usage,
                  VkPipelineStageFlags2 stage, VkAccessFlags2 access, const std::string& name) {
  vk::Buffer staging(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, name + " staging");
  std::memcpy(staging.mapped(), data, size);
  vk::Buffer buffer(ctx, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, name);
  vk::OneShotCommands(ctx).run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
    // Orders the copy before every later read of the buffer, in this and later submissions.
    VkBufferMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
    barrier.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    barrier.dstStageMask = stage;
    barrier.dstAccessMask = access;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.buffer = buffer.handle();
    barrier.size = VK_WHOLE_SIZE;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.bufferMemoryBarrierCount = 1;
    dep.pBufferMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dep);
  });
  return buffer;
}

}  // namespace

ScenePass::ScenePass(const PassEnv& env, const scene::SceneSettings& settings,
                     std::shared_ptr<const scene::SceneModel> model)
    : env_(env), settings_(settings), model_(std::move(model)) {
  vk::GraphicsPipelineDesc desc;
  desc.vertex_shader = "scene/scene.vert";
  desc.fragment_shader = "scene/scene.frag";
  desc.layout.bindings = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  desc.color_formats = {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_SFLOAT};
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.vertex_input = vk::VertexInput{sizeof(scene::Vertex),
                                      {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(scene::Vertex, position)},
                                       {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(scene::Vertex, normal)},
                                       {2, 0, VK_FORMAT_R32_UINT, offsetof(scene::Vertex, object)}}};
  pipeline_ = vk::make_pipeline(env.pipelines, env.vk, env.shaders, desc);
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    cameras_.emplace_back(env.vk, sizeof(scene::CameraGpu), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true,
                          "scene camera " + std::to_string(i));
    objects_.emplace_back(env.vk, sizeof(scene::ObjectGpu) * model_->object_count(),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true, "scene objects " + std::to_string(i));
  }
}

// The mesh goes to the GPU when the first frame is recorded, not when the pass is made: a chain
// that cannot be built (a shader that does not compile) is refused before any GPU work.
void ScenePass::upload_mesh() {
  const scene::Mesh mesh = model_->mesh();
  index_count_ = static_cast<uint32_t>(mesh.indices.size());
  vertices_ = upload(env_.vk, mesh.vertices.data(), mesh.vertices.size() * sizeof(scene::Vertex),
                     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                     VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, "scene vertices");
  indices_ = upload(env_.vk, mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t),
                    VK_BUFFER_USAGE_INDEX_BUFFER_BIT, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
                    VK_ACCESS_2_INDEX_READ_BIT, "scene indices");
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

void ScenePass::record(graph::PassContext& ctx) {
  if (index_count_ == 0) upload_mesh();
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
  ctx.bind(*pipeline_)
      .uniform(BINDING_SCENE_CAMERA, cameras_[ctx.slot])
      .storage_buffer(BINDING_SCENE_OBJECTS, objects_[ctx.slot])
      .draw_indexed(vertices_.handle(), indices_.handle(), index_count_);
}

}  // namespace filterlab::passes
