#include "passes/upload_pass.h"

#include "graph/executor.h"
#include "vk/formats.h"

#include <cstring>

namespace filterlab::passes {

StagedImage::StagedImage(const PassEnv& env, const io::ImageF& image, VkFormat format)
    : format(format), width(image.width), height(image.height) {
  const bool half = vk::format_is_half(format);
  const uint32_t texel = vk::format_texel_size(format);
  const bool float_format = half || format == VK_FORMAT_R32_SFLOAT || format == VK_FORMAT_R32G32_SFLOAT ||
                            format == VK_FORMAT_R32G32B32A32_SFLOAT;
  if (!float_format) throw std::invalid_argument("UploadPass: 16- or 32-bit float formats only");
  const uint32_t components = texel / (half ? 2 : 4);
  const size_t pixels = size_t(width) * height;
  buffer = vk::Buffer(env.vk, pixels * texel, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, "upload staging");
  auto* out = static_cast<uint8_t*>(buffer.mapped());
  for (size_t i = 0; i < pixels; ++i)
    for (uint32_t c = 0; c < components; ++c) {
      const float v = c < image.channels ? image.pixels[i * image.channels + c] : (c == 3 ? 1.0f : 0.0f);
      if (half) {
        const uint16_t h = vk::float_to_half(v);
        std::memcpy(out + i * texel + c * 2, &h, 2);
      } else {
        std::memcpy(out + i * texel + c * 4, &v, 4);
      }
    }
}

UploadPass::UploadPass(const PassEnv& env, const io::ImageF& image, VkFormat format, When when)
    : UploadPass(std::make_shared<const StagedImage>(env, image, format), when) {}

UploadPass::UploadPass(std::shared_ptr<const StagedImage> staged, When when)
    : staged_(std::move(staged)), when_(when) {}

void UploadPass::add_to(graph::RenderGraph& graph, const std::string& name) {
  graph.declare_image(name, {staged_->format, graph::SizeRule::absolute(staged_->width, staged_->height)});
  // With `once`, later frames still declare the write, so the graph keeps a producer for the image
  // and the barriers stay derived; they record no copy, and the layout transition keeps the contents.
  graph.add_pass("upload " + name, graph::PassKind::Transfer)
      .write(name, graph::Usage::TransferDst)
      .execute([this, name](graph::PassContext& ctx) {
        if (when_ == When::Once && uploaded_) return;
        uploaded_ = true;
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {staged_->width, staged_->height, 1};
        // The host wrote the staging buffer before submission; submission makes it visible.
        vkCmdCopyBufferToImage(ctx.cmd, staged_->buffer.handle(), ctx.image_handle(name),
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
      });
}

}  // namespace filterlab::passes
