#include "ui/imgui_layer.h"

#include "vk/resources.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>

namespace filterlab::app {

namespace {

// The backend reports results through a plain function pointer; a failure there leaves ImGui in
// an unknown state, so stop with the result's name rather than draw on.
void check_imgui_result(VkResult result) {
  if (result >= 0) return;
  std::fprintf(stderr, "filterlab: Dear ImGui's Vulkan backend failed: %s\n", vk::result_name(result));
  std::exit(1);
}

VkRenderPass make_render_pass(VkDevice device, VkFormat format) {
  VkAttachmentDescription color{};
  color.format = format;
  color.samples = VK_SAMPLE_COUNT_1_BIT;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;  // the UI draws over the viewport
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  // The graph's barrier puts the image in this layout before the pass and takes it from there
  // after, so the render pass makes no transition of its own.
  color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &color;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  VK_CHECK(vkCreateRenderPass(device, &info, nullptr, &pass));
  return pass;
}

}  // namespace

ImGuiLayer::ImGuiLayer(const vk::Context& ctx, GLFWwindow* window, uint32_t frames_in_flight,
                       VkFormat target_format)
    : ctx_(ctx), format_(target_format), frames_in_flight_(frames_in_flight) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini beside the user's files; every run starts the same
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 2.0f;

  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}};
  VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool.maxSets = 4;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = sizes;
  VK_CHECK(vkCreateDescriptorPool(ctx.device(), &pool, nullptr, &pool_));
  render_pass_ = make_render_pass(ctx.device(), format_);
  ctx.name(render_pass_, VK_OBJECT_TYPE_RENDER_PASS, "ui render pass");

  ImGui_ImplGlfw_InitForVulkan(window, true);
  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = ctx.instance();
  info.PhysicalDevice = ctx.physical_device();
  info.Device = ctx.device();
  info.QueueFamily = ctx.queue_family();
  info.Queue = ctx.queue();
  info.DescriptorPool = pool_;
  info.Subpass = 0;
  // The backend cycles its vertex buffers over ImageCount draws; one more than the frames in
  // flight keeps a buffer from being rewritten while a frame that reads it may still run.
  info.MinImageCount = 2;
  info.ImageCount = frames_in_flight + 1;
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = check_imgui_result;
  ImGui_ImplVulkan_Init(&info, render_pass_);

#if IMGUI_VERSION_NUM >= 19000
  // Debian 13 (ImGui 1.90.1): the backend records and submits the font upload itself, and frees
  // its staging buffer.
  ImGui_ImplVulkan_CreateFontsTexture();
#else
  // Debian 12 (ImGui 1.86): the upload goes into a command buffer of ours; its staging buffer is
  // freed once that has run.
  vk::OneShotCommands upload(ctx);
  upload.run([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
#endif
}

ImGuiLayer::~ImGuiLayer() {
  vkDeviceWaitIdle(ctx_.device());
  if (current_) vkDestroyFramebuffer(ctx_.device(), current_->handle, nullptr);
  retired_.destroy_all([&](VkFramebuffer fb) { vkDestroyFramebuffer(ctx_.device(), fb, nullptr); });
  ImGui_ImplVulkan_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  vkDestroyRenderPass(ctx_.device(), render_pass_, nullptr);
  vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
}

void ImGuiLayer::begin_frame() {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImGuiLayer::end_frame() {
  ImGui::Render();
  has_frame_ = true;
}

void ImGuiLayer::add_to(graph::RenderGraph& graph, const std::string& target) {
  if (graph.image_desc(target).format != format_)
    throw graph::GraphError("the UI draws over " + std::string(vk::format_name(format_)) + " images, and '" +
                            target + "' is not one");
  graph.add_pass("ui", graph::PassKind::Graphics)
      .color(target)
      .own_render_pass()
      .execute([this, target](graph::PassContext& ctx) { record(ctx, target); });
}

VkFramebuffer ImGuiLayer::framebuffer_for(const graph::PassContext::BoundImage& image, uint64_t frame) {
  // Recording frame `frame` reuses its slot's command buffer, so the slot's previous frame,
  // frame - frames_in_flight, and every frame before it have finished.
  if (frame + 1 >= frames_in_flight_)
    retired_.destroy_finished(frame + 1 - frames_in_flight_,
                              [&](VkFramebuffer fb) { vkDestroyFramebuffer(ctx_.device(), fb, nullptr); });
  // The image this frame draws over is the current one: a framebuffer over another image is
  // retired, since that image is replaced and may be destroyed once its frames are done.
  if (current_ && current_->generation == image.generation) {
    current_->last_frame = frame;
    return current_->handle;
  }
  if (current_) retired_.retire(current_->handle, current_->last_frame + 1);
  VkFramebuffer current = VK_NULL_HANDLE;
  VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  info.renderPass = render_pass_;
  info.attachmentCount = 1;
  info.pAttachments = &image.view;
  info.width = image.extent.width;
  info.height = image.extent.height;
  info.layers = 1;
  VK_CHECK(vkCreateFramebuffer(ctx_.device(), &info, nullptr, &current));
  ctx_.name(current, VK_OBJECT_TYPE_FRAMEBUFFER, "ui framebuffer");
  current_ = Framebuffer{image.generation, current, frame};
  ++framebuffers_created_;
  return current;
}

void ImGuiLayer::record(graph::PassContext& ctx, const std::string& target) {
  const graph::PassContext::BoundImage image = ctx.image(target);
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = render_pass_;
  begin.framebuffer = framebuffer_for(image, ctx.frame);
  begin.renderArea = {{0, 0}, image.extent};
  vkCmdBeginRenderPass(ctx.cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  if (has_frame_) {
    ImDrawData* draw = ImGui::GetDrawData();
    if (draw && draw->Valid) ImGui_ImplVulkan_RenderDrawData(draw, ctx.cmd);
  }
  vkCmdEndRenderPass(ctx.cmd);
}

}  // namespace filterlab::app
