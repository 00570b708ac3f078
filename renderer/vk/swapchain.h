#pragma once
// A swapchain over a VkSurfaceKHR (no window-system code here: the app creates the surface, e.g.
// with glfwCreateWindowSurface). Out-of-date and suboptimal results are normal events that ask
// for recreate(), never errors. Images come with a semaphore per frame slot for acquire and one
// per image for present: a present-wait semaphore may only be reused once its image comes back.
#include "vk/context.h"
#include "vk/resources.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::vk {

enum class PresentMode { Fifo, Mailbox, Immediate };
const char* present_mode_name(PresentMode mode);
const char* present_mode_name(VkPresentModeKHR mode);
// "fifo", "mailbox" or "immediate"; nullopt otherwise.
std::optional<PresentMode> parse_present_mode(const std::string& text);

struct SwapchainOptions {
  PresentMode present_mode = PresentMode::Fifo;
  // An unsupported mode is an error when true; otherwise FIFO (always supported) with a note.
  bool require_present_mode = false;
  // Blit destination, ImGui's render pass later, and screenshots (read back after the blit).
  VkImageUsageFlags usage =
      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  uint32_t frames_in_flight = 2;
};

// The surface cannot be presented to from the context's queue, or lacks what we need.
class SwapchainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Swapchain {
 public:
  // Takes ownership of `surface`: it is destroyed with the swapchain, so destroy the swapchain
  // before the context. `framebuffer` is the window's size in pixels, used when the surface lets
  // the swapchain pick its extent. A 0x0 surface (minimized) creates no swapchain yet.
  Swapchain(const Context& ctx, VkSurfaceKHR surface, VkExtent2D framebuffer,
            const SwapchainOptions& options);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // Rebuilds for the surface's current size (resize, out-of-date, suboptimal), after the device is
  // idle. Returns false, rebuilding nothing, while the surface is 0x0.
  bool recreate(VkExtent2D framebuffer);
  bool valid() const { return swapchain_ != VK_NULL_HANDLE; }

  struct Frame {
    uint32_t image_index = 0;
    VkImage image = VK_NULL_HANDLE;
    VkSemaphore acquired = VK_NULL_HANDLE;  // the submit waits on it (transfer stages)
    VkSemaphore rendered = VK_NULL_HANDLE;  // the submit signals it; present waits on it
    bool suboptimal = false;                // still presentable; recreate after presenting
  };
  // Acquires the next image for frame slot `slot`. nullopt when the swapchain is out of date (or
  // not created): recreate and try again; the slot's semaphore is then left untouched. The slot's
  // previous frame must have completed (its acquire semaphore is reused).
  std::optional<Frame> acquire(uint32_t slot);
  // Queues the image for presentation. Returns true when the swapchain should be recreated.
  bool present(const Frame& frame);

  VkSurfaceKHR surface() const { return surface_; }
  VkSwapchainKHR handle() const { return swapchain_; }
  VkFormat format() const { return format_.format; }
  VkColorSpaceKHR color_space() const { return format_.colorSpace; }
  VkExtent2D extent() const { return extent_; }
  VkPresentModeKHR present_mode() const { return present_mode_; }
  VkImageUsageFlags usage() const { return usage_; }
  uint32_t image_count() const { return static_cast<uint32_t>(images_.size()); }
  VkImage image(uint32_t index) const { return images_.at(index); }
  VkImageView view(uint32_t index) const { return views_.at(index); }
  uint32_t builds() const { return builds_; }  // swapchains created so far
  // Why the requested present mode or the preferred format was not used; empty otherwise.
  const std::string& note() const { return note_; }

 private:
  bool build(VkExtent2D framebuffer);
  void destroy_image_resources();
  void release();  // everything, surface included; safe to call twice

  const Context& ctx_;
  SwapchainOptions options_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkSurfaceFormatKHR format_{};
  VkPresentModeKHR present_mode_ = VK_PRESENT_MODE_FIFO_KHR;
  VkImageUsageFlags usage_ = 0;
  VkExtent2D extent_{};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkSemaphore> acquired_;  // per frame slot
  std::vector<VkSemaphore> rendered_;  // per image
  uint32_t builds_ = 0;
  std::string note_;
};

// Copies an RGBA8 image holding display-encoded (sRGB) values into an acquired swapchain image,
// leaving it in PRESENT_SRC. The source must already be in TRANSFER_SRC_OPTIMAL and visible to
// transfer reads (the graph's TransferSrc usage does that); the destination's previous contents
// are discarded. Exact when formats agree: a copy for the same channel order and size (also
// into an _SRGB image, whose bytes then mean what they say), a nearest blit otherwise (which
// reorders BGRA). The caller's submit waits on the acquire semaphore at kPresentCopyStages.
struct PresentCopy {
  VkImage src = VK_NULL_HANDLE;
  VkFormat src_format = VK_FORMAT_R8G8B8A8_UNORM;
  VkExtent2D src_extent{};
  VkImage dst = VK_NULL_HANDLE;
  VkFormat dst_format = VK_FORMAT_B8G8R8A8_UNORM;
  VkExtent2D dst_extent{};
  // Also copies the presented pixels here (screenshots); width * height * 4 bytes, host-visible.
  // Read it after the submit's completion.
  const Buffer* readback = nullptr;
};
constexpr VkPipelineStageFlags2 kPresentCopyStages =
    VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT;
void record_present_copy(VkCommandBuffer cmd, const PresentCopy& copy);
// Whether record_present_copy can show `src_format` correctly in a `dst_format` swapchain.
bool present_copy_supported(VkFormat src_format, VkFormat dst_format);

// Bytes read back from a swapchain image as RGBA8 rows (BGRA formats reordered).
std::vector<uint8_t> swapchain_pixels_to_rgba(const void* data, size_t size, VkFormat format);

}  // namespace filterlab::vk
