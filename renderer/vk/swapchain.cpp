#include "vk/swapchain.h"

#include <algorithm>
#include <cstring>

namespace filterlab::vk {

const char* present_mode_name(PresentMode mode) {
  switch (mode) {
    case PresentMode::Fifo: return "fifo";
    case PresentMode::Mailbox: return "mailbox";
    case PresentMode::Immediate: return "immediate";
  }
  return "?";
}

const char* present_mode_name(VkPresentModeKHR mode) {
  switch (mode) {
    case VK_PRESENT_MODE_FIFO_KHR: return "fifo";
    case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
    default: return "other";
  }
}

std::optional<PresentMode> parse_present_mode(const std::string& text) {
  if (text == "fifo") return PresentMode::Fifo;
  if (text == "mailbox") return PresentMode::Mailbox;
  if (text == "immediate") return PresentMode::Immediate;
  return std::nullopt;
}

namespace {

VkPresentModeKHR to_vk(PresentMode mode) {
  switch (mode) {
    case PresentMode::Mailbox: return VK_PRESENT_MODE_MAILBOX_KHR;
    case PresentMode::Immediate: return VK_PRESENT_MODE_IMMEDIATE_KHR;
    case PresentMode::Fifo: break;
  }
  return VK_PRESENT_MODE_FIFO_KHR;
}

VkSemaphore make_semaphore(const Context& ctx, const std::string& name) {
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSemaphore(ctx.device(), &info, nullptr, &semaphore));
  ctx.name(semaphore, VK_OBJECT_TYPE_SEMAPHORE, name);
  return semaphore;
}

// Formats the tonemapped RGBA8 image can be shown in unchanged, best first. _SRGB images take the
// bytes by copy (no conversion happens in a copy); a blit into a BGRA _SRGB image would encode the
// already encoded values a second time, so that one is not listed.
constexpr VkFormat kPreferredFormats[] = {
    VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM,           VK_FORMAT_A8B8G8R8_UNORM_PACK32,
    VK_FORMAT_R8G8B8A8_SRGB,  VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_A2R10G10B10_UNORM_PACK32};

// Same bytes per texel in the same channel order as R8G8B8A8: a plain copy is exact.
bool same_layout_as_rgba8(VkFormat format) {
  return format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_R8G8B8A8_SRGB ||
         format == VK_FORMAT_A8B8G8R8_UNORM_PACK32;
}

}  // namespace

bool present_copy_supported(VkFormat src_format, VkFormat dst_format) {
  if (src_format != VK_FORMAT_R8G8B8A8_UNORM) return false;
  return std::find(std::begin(kPreferredFormats), std::end(kPreferredFormats), dst_format) !=
         std::end(kPreferredFormats);
}

Swapchain::Swapchain(const Context& ctx, VkSurfaceKHR surface, VkExtent2D framebuffer,
                     const SwapchainOptions& options)
    : ctx_(ctx), options_(options), surface_(surface) {
  try {
    VkBool32 supported = VK_FALSE;
    VK_CHECK(
        vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physical_device(), ctx.queue_family(), surface, &supported));
    if (!supported)
      throw SwapchainError(std::string(ctx.properties().deviceName) +
                           " cannot present to this window from queue family " +
                           std::to_string(ctx.queue_family()));

    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), surface, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), surface, &count, formats.data()));
    if (formats.empty()) throw SwapchainError("the window surface reports no formats");
    if (formats.size() == 1 && formats[0].format == VK_FORMAT_UNDEFINED) {
      format_ = {VK_FORMAT_B8G8R8A8_UNORM, formats[0].colorSpace};  // "any format"
    } else {
      bool found = false;
      for (VkFormat want : kPreferredFormats) {
        for (const VkSurfaceFormatKHR& f : formats)
          if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            format_ = f;
            found = true;
            break;
          }
        if (found) break;
      }
      if (!found) {
        format_ = formats[0];
        note_ = "no 8-bit UNORM surface format; colors may be off (format " + std::to_string(format_.format) +
                ")";
      }
    }

    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical_device(), surface, &count, nullptr));
    std::vector<VkPresentModeKHR> modes(count);
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical_device(), surface, &count, modes.data()));
    const VkPresentModeKHR want = to_vk(options.present_mode);
    if (std::find(modes.begin(), modes.end(), want) != modes.end()) {
      present_mode_ = want;
    } else {
      std::string have;
      for (VkPresentModeKHR m : modes) have += std::string(have.empty() ? "" : ", ") + present_mode_name(m);
      const std::string message = std::string("present mode ") + present_mode_name(options.present_mode) +
                                  " is not supported by this surface (supported: " + have + ")";
      if (options.require_present_mode) throw SwapchainError(message);
      present_mode_ = VK_PRESENT_MODE_FIFO_KHR;  // every surface supports FIFO
      note_ += (note_.empty() ? "" : "; ") + message + "; using fifo";
    }

    for (uint32_t i = 0; i < options.frames_in_flight; ++i)
      acquired_.push_back(make_semaphore(ctx, "image acquired, slot " + std::to_string(i)));
    build(framebuffer);
  } catch (...) {
    release();
    throw;
  }
}

Swapchain::~Swapchain() {
  release();
}

void Swapchain::release() {
  if (ctx_.device()) vkDeviceWaitIdle(ctx_.device());  // present waits may still use semaphores
  destroy_image_resources();
  if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
  for (VkSemaphore s : acquired_) vkDestroySemaphore(ctx_.device(), s, nullptr);
  acquired_.clear();
  if (surface_) vkDestroySurfaceKHR(ctx_.instance(), surface_, nullptr);
  surface_ = VK_NULL_HANDLE;
}

void Swapchain::destroy_image_resources() {
  for (VkImageView v : views_) vkDestroyImageView(ctx_.device(), v, nullptr);
  for (VkSemaphore s : rendered_) vkDestroySemaphore(ctx_.device(), s, nullptr);
  views_.clear();
  rendered_.clear();
  images_.clear();
}

bool Swapchain::recreate(VkExtent2D framebuffer) {
  VK_CHECK(vkDeviceWaitIdle(ctx_.device()));
  return build(framebuffer);
}

bool Swapchain::build(VkExtent2D framebuffer) {
  VkSurfaceCapabilitiesKHR caps{};
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physical_device(), surface_, &caps));
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == 0xFFFFFFFFu) {  // the surface takes its size from the swapchain
    extent.width = std::clamp(framebuffer.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height = std::clamp(framebuffer.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  // Minimized: keep the old swapchain (if any) until there is something to show again.
  if (extent.width == 0 || extent.height == 0 || framebuffer.width == 0 || framebuffer.height == 0)
    return false;

  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
    throw SwapchainError("swapchain images cannot be transfer destinations on this surface");
  usage_ = options_.usage & caps.supportedUsageFlags;

  // One image more than the minimum, so acquire rarely waits on the presentation engine.
  uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);

  VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  if (!(caps.supportedCompositeAlpha & alpha))
    for (VkCompositeAlphaFlagBitsKHR a :
         {VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR, VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR,
          VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
      if (caps.supportedCompositeAlpha & a) {
        alpha = a;
        break;
      }

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = image_count;
  info.imageFormat = format_.format;
  info.imageColorSpace = format_.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = usage_;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = alpha;
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;  // lets the driver hand resources over
  VkSwapchainKHR fresh = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSwapchainKHR(ctx_.device(), &info, nullptr, &fresh));

  // The device is idle (recreate waited; the first build has nothing in flight), so the old
  // swapchain's images, views and present semaphores are no longer in use.
  destroy_image_resources();
  if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
  swapchain_ = fresh;
  extent_ = extent;
  ++builds_;
  ctx_.name(swapchain_, VK_OBJECT_TYPE_SWAPCHAIN_KHR, "swapchain " + std::to_string(builds_));

  uint32_t count = 0;
  VK_CHECK(vkGetSwapchainImagesKHR(ctx_.device(), swapchain_, &count, nullptr));
  images_.resize(count);
  VK_CHECK(vkGetSwapchainImagesKHR(ctx_.device(), swapchain_, &count, images_.data()));
  for (uint32_t i = 0; i < count; ++i) {
    ctx_.name(images_[i], VK_OBJECT_TYPE_IMAGE, "swapchain image " + std::to_string(i));
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = images_[i];
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format_.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView handle = VK_NULL_HANDLE;
    VK_CHECK(vkCreateImageView(ctx_.device(), &view, nullptr, &handle));
    views_.push_back(handle);
    rendered_.push_back(make_semaphore(ctx_, "image rendered " + std::to_string(i)));
  }
  return true;
}

std::optional<Swapchain::Frame> Swapchain::acquire(uint32_t slot) {
  if (!swapchain_) return std::nullopt;
  Frame frame;
  frame.acquired = acquired_.at(slot);
  const VkResult r = vkAcquireNextImageKHR(ctx_.device(), swapchain_, UINT64_MAX, frame.acquired,
                                           VK_NULL_HANDLE, &frame.image_index);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) return std::nullopt;
  if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);
  frame.suboptimal = r == VK_SUBOPTIMAL_KHR;
  frame.image = images_.at(frame.image_index);
  frame.rendered = rendered_.at(frame.image_index);
  return frame;
}

bool Swapchain::present(const Frame& frame) {
  VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &frame.rendered;
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain_;
  info.pImageIndices = &frame.image_index;
  const VkResult r = vkQueuePresentKHR(ctx_.queue(), &info);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return true;
  VK_CHECK(r);
  return frame.suboptimal;
}

// ---- Copy into the swapchain image ------------------------------------------------------------

namespace {

void barrier(VkCommandBuffer cmd, const VkImageMemoryBarrier2& image,
             const VkMemoryBarrier2* memory = nullptr) {
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &image;
  dep.memoryBarrierCount = memory ? 1 : 0;
  dep.pMemoryBarriers = memory;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

void record_present_copy(VkCommandBuffer cmd, const PresentCopy& c) {
  constexpr VkPipelineStageFlags2 kTransfer = kPresentCopyStages;
  // UNDEFINED: the previous contents are not needed. The source stage matches the stage the
  // submit waits for the acquire semaphore at, which chains this barrier after the acquire.
  barrier(cmd, image_barrier(c.dst, kTransfer, VK_ACCESS_2_NONE, kTransfer, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));

  const bool same_size =
      c.src_extent.width == c.dst_extent.width && c.src_extent.height == c.dst_extent.height;
  if (same_size && same_layout_as_rgba8(c.dst_format) && c.src_format == VK_FORMAT_R8G8B8A8_UNORM) {
    VkImageCopy region{};
    region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.extent = {c.src_extent.width, c.src_extent.height, 1};
    vkCmdCopyImage(cmd, c.src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.dst,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  } else {
    // NEAREST: at equal sizes every destination pixel is exactly one source pixel.
    VkImageBlit region{};
    region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffsets[1] = {int32_t(c.src_extent.width), int32_t(c.src_extent.height), 1};
    region.dstOffsets[1] = {int32_t(c.dst_extent.width), int32_t(c.dst_extent.height), 1};
    vkCmdBlitImage(cmd, c.src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.dst,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_NEAREST);
  }

  VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  VkAccessFlags2 last_access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  if (c.readback) {
    barrier(cmd, image_barrier(c.dst, kTransfer, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_READ_BIT, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {c.dst_extent.width, c.dst_extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, c.dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.readback->handle(), 1,
                           &region);
    layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    last_access = VK_ACCESS_2_NONE;  // a read: the transition below only has to wait for it
  }
  // Presentation needs no destination stage: the submit's semaphore signal orders it.
  const VkMemoryBarrier2 host = copy_to_host_barrier();
  barrier(cmd,
          image_barrier(c.dst, kTransfer, last_access, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, layout,
                        VK_IMAGE_LAYOUT_PRESENT_SRC_KHR),
          c.readback ? &host : nullptr);
}

std::vector<uint8_t> swapchain_pixels_to_rgba(const void* data, size_t size, VkFormat format) {
  std::vector<uint8_t> rgba(size);
  std::memcpy(rgba.data(), data, size);
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32: break;  // R, G, B, A in memory order already
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
      for (size_t i = 0; i + 3 < size; i += 4) std::swap(rgba[i], rgba[i + 2]);
      break;
    default:
      throw std::runtime_error("cannot read back a swapchain image of format " + std::to_string(format) +
                               " as RGBA8");
  }
  return rgba;
}

}  // namespace filterlab::vk
