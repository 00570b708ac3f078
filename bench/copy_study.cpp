// filterlab_copy_study: what a plain copy of an RGBA16F image costs on this device, and what the
// benchmark's way of measuring adds to it. Every variant copies K rotated image pairs (inputs not
// resident in the caches), timestamps around each dispatch, and reports the median.
//
// Variants: the source read through the sampler (texelFetch, like the filters) or as a storage
// image (imageLoad); workgroup shapes; 1, 2 or 4 pixels per thread; vkCmdCopyImage; random or flat
// image content (a GPU that compresses memory moves less of a flat image); and three harnesses:
//   batch   all dispatches in one command buffer, images in GENERAL, a memory barrier between them
//   frames  one submission per dispatch with two in flight, as `filterlab bench` records frames
//   upload  frames, plus the layout round trip to TRANSFER_DST and back before each dispatch that
//           the benchmark's once-uploaded inputs went through every frame
// vkCmdCopyImage runs on images in GENERAL, as the compute copies do, so that only the copy differs:
// with --validation that is one performance warning per copy, and no other message is expected.
// Usage: filterlab_copy_study [--size WxH] [--pairs K] [--dispatches N] [--shader-dir DIR] [--json F]
//                             [--validation]
#include "bench/copy_study.h"  // shaders/bench: the bindings the shader declares
#include "common/reference.h"
#include "graph/gpu_timer.h"
#include "io/image_io.h"
#include "runtime/stats.h"
#include "vk/formats.h"
#include "vk/pipelines.h"
#include "vk/resources.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace filterlab;

namespace {

struct Options {
  VkExtent2D size{3840, 2160};
  uint32_t pairs = 4, dispatches = 200;
  std::filesystem::path shader_dir;
  std::string json;
  bool validation = false;
};

constexpr const char* kUsage =
    "usage: filterlab_copy_study [--size WxH] [--pairs K] [--dispatches N] [--shader-dir DIR] [--json FILE] "
    "[--validation]\n";

// A whole number in [lo, hi], or nullopt.
std::optional<uint32_t> count(const std::string& text, uint32_t lo, uint32_t hi) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    return std::nullopt;
  return v;
}

struct Variant {
  std::string harness, content, read;  // read: "sampled", "storage" or "transfer"
  uint32_t local_x = 16, local_y = 16, pixels = 1;
  std::string label() const {
    if (read == "transfer") return harness + " " + content + " vkCmdCopyImage";
    return harness + " " + content + " " + read + " " + std::to_string(local_x) + "x" +
           std::to_string(local_y) + " x" + std::to_string(pixels);
  }
};

void barriers(VkCommandBuffer cmd, const std::vector<VkImageMemoryBarrier2>& images,
              const std::vector<VkMemoryBarrier2>& memory = {}) {
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = uint32_t(images.size());
  dep.pImageMemoryBarriers = images.data();
  dep.memoryBarrierCount = uint32_t(memory.size());
  dep.pMemoryBarriers = memory.data();
  vkCmdPipelineBarrier2(cmd, &dep);
}

class Study {
 public:
  Study(const vk::Context& ctx, const Options& options) : ctx_(ctx), options_(options), one_shot_(ctx) {
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    for (uint32_t i = 0; i < 2 * options.pairs; ++i)
      images_.emplace_back(ctx, vk::ImageInfo{VK_FORMAT_R16G16B16A16_SFLOAT, options.size, 1, usage},
                           "study " + std::to_string(i));
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * options.dispatches;
    VK_CHECK(vkCreateQueryPool(ctx.device(), &info, nullptr, &queries_));
    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = ctx.queue_family();
    VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pool_));
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.commandBufferCount = 2;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, cmds_));
    for (VkFence& f : fences_) {
      VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
      VK_CHECK(vkCreateFence(ctx.device(), &fence, nullptr, &f));
    }
  }
  ~Study() {
    vkDeviceWaitIdle(ctx_.device());
    for (VkFence f : fences_) vkDestroyFence(ctx_.device(), f, nullptr);
    vkDestroyCommandPool(ctx_.device(), pool_, nullptr);
    vkDestroyQueryPool(ctx_.device(), queries_, nullptr);
  }

  // Fills every input with `content` and leaves every image in GENERAL.
  void fill(const std::string& content) {
    const VkExtent2D e = options_.size;
    io::ImageF image =
        content == "noise"
            ? common::random_image(e.width, e.height, 4, 1000)
            : io::ImageF{e.width, e.height, 4, std::vector<float>(size_t(e.width) * e.height * 4, 0.5f)};
    vk::Buffer staging(ctx_, size_t(e.width) * e.height * 8, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true,
                       "staging");
    auto* out = static_cast<uint16_t*>(staging.mapped());
    for (size_t i = 0; i < image.pixels.size(); ++i) out[i] = vk::float_to_half(image.pixels[i]);
    for (uint32_t p = 0; p < options_.pairs; ++p) {
      one_shot_.run([&](VkCommandBuffer cmd) {
        std::vector<VkImageMemoryBarrier2> to_general;
        for (const vk::Image* img : {&images_[2 * p], &images_[2 * p + 1]})
          to_general.push_back(vk::image_barrier(img->handle(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                                                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                 VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                                                 VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL));
        barriers(cmd, to_general);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {e.width, e.height, 1};
        vkCmdCopyBufferToImage(cmd, staging.handle(), images_[2 * p].handle(), VK_IMAGE_LAYOUT_GENERAL, 1,
                               &region);
        barriers(cmd, {},
                 {vk::memory_barrier(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                     VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                     VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)});
      });
    }
  }

  runtime::Summary run(const Variant& v, const vk::ShaderSource& shaders) {
    std::unique_ptr<vk::Pipeline> pipeline;
    if (v.read != "transfer")
      pipeline = std::make_unique<vk::Pipeline>(
          ctx_, shaders,
          vk::ComputePipelineDesc{"bench/copy_study.comp",
                                  {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                    VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                                   0},
                                  {v.local_x, v.local_y, v.pixels, v.read == "storage" ? 1u : 0u}});
    vk::Sampler nearest(ctx_, VK_FILTER_NEAREST, "nearest");
    const VkExtent2D e = options_.size;
    const VkMemoryBarrier2 between = vk::memory_barrier(
        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);

    auto record_one = [&](VkCommandBuffer cmd, uint32_t d) {
      const vk::Image& src = images_[2 * (d % options_.pairs)];
      const vk::Image& dst = images_[2 * (d % options_.pairs) + 1];
      if (v.harness == "upload") {  // GENERAL -> TRANSFER_DST -> GENERAL, nothing written
        barriers(cmd, {vk::image_barrier(src.handle(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                         VK_ACCESS_2_MEMORY_READ_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                                         VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)});
        barriers(cmd, {vk::image_barrier(src.handle(), VK_PIPELINE_STAGE_2_COPY_BIT,
                                         VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                         VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                         VK_IMAGE_LAYOUT_GENERAL)});
      }
      barriers(cmd, {}, {between});
      vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries_, 2 * d);
      if (v.read == "transfer") {
        VkImageCopy region{};
        region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.extent = {e.width, e.height, 1};
        vkCmdCopyImage(cmd, src.handle(), VK_IMAGE_LAYOUT_GENERAL, dst.handle(), VK_IMAGE_LAYOUT_GENERAL, 1,
                       &region);
      } else {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->handle());
        vk::DescriptorPush()
            .sampled(STUDY_SAMPLED_SOURCE, src.view(), nearest.handle(), VK_IMAGE_LAYOUT_GENERAL)
            .storage_image(STUDY_STORAGE_SOURCE, src.view())
            .storage_image(STUDY_DESTINATION, dst.view())
            .push(ctx_, cmd, *pipeline);
        const uint32_t tile_y = v.local_y * v.pixels;
        vkCmdDispatch(cmd, (e.width + v.local_x - 1) / v.local_x, (e.height + tile_y - 1) / tile_y, 1);
      }
      vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries_, 2 * d + 1);
    };

    const uint32_t n = options_.dispatches;
    auto begin = [&](VkCommandBuffer cmd) {
      VK_CHECK(vkResetCommandBuffer(cmd, 0));
      VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      VK_CHECK(vkBeginCommandBuffer(cmd, &info));
    };
    auto submit = [&](VkCommandBuffer cmd, VkFence fence) {
      VK_CHECK(vkEndCommandBuffer(cmd));
      VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      info.commandBufferCount = 1;
      info.pCommandBuffers = &cmd;
      VK_CHECK(vkResetFences(ctx_.device(), 1, &fence));
      VK_CHECK(vkQueueSubmit(ctx_.queue(), 1, &info, fence));
    };
    // Warm-up: the clocks ramp up over a few hundred milliseconds of work.
    for (int round = 0; round < 2; ++round) {
      begin(cmds_[0]);
      vkCmdResetQueryPool(cmds_[0], queries_, 0, 2 * n);
      for (uint32_t d = 0; d < n; ++d) record_one(cmds_[0], d);
      submit(cmds_[0], fences_[0]);
      VK_CHECK(vkWaitForFences(ctx_.device(), 1, &fences_[0], VK_TRUE, UINT64_MAX));
    }
    one_shot_.run([&](VkCommandBuffer cmd) { vkCmdResetQueryPool(cmd, queries_, 0, 2 * n); });
    if (v.harness == "batch") {
      begin(cmds_[0]);
      for (uint32_t d = 0; d < n; ++d) record_one(cmds_[0], d);
      submit(cmds_[0], fences_[0]);
    } else {
      for (uint32_t d = 0; d < n; ++d) {
        const uint32_t slot = d % 2;
        VK_CHECK(vkWaitForFences(ctx_.device(), 1, &fences_[slot], VK_TRUE, UINT64_MAX));
        begin(cmds_[slot]);
        record_one(cmds_[slot], d);
        submit(cmds_[slot], fences_[slot]);
      }
    }
    VK_CHECK(vkDeviceWaitIdle(ctx_.device()));
    std::vector<uint64_t> stamps(2 * n);
    VK_CHECK(vkGetQueryPoolResults(ctx_.device(), queries_, 0, 2 * n, stamps.size() * 8, stamps.data(), 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> us;
    for (uint32_t d = 0; d < n; ++d)
      us.push_back(graph::GpuTimer::elapsed_ms(stamps[2 * d], stamps[2 * d + 1],
                                               ctx_.report().timestamp_valid_bits,
                                               ctx_.report().timestamp_period_ns) *
                   1000.0);
    return runtime::summarize(us);
  }

 private:
  const vk::Context& ctx_;
  const Options& options_;
  vk::OneShotCommands one_shot_;
  std::vector<vk::Image> images_;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmds_[2]{};
  VkFence fences_[2]{};
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::error_code ec;
  options.shader_dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / "shaders";
  // Bad input: one line and exit 2, before any GPU work.
  auto usage_error = [](const std::string& what) {
    std::fprintf(stderr, "filterlab_copy_study: %s\n%s", what.c_str(), kUsage);
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::printf("%s", kUsage);
      return 0;
    }
    if (flag == "--validation") {
      options.validation = true;
      continue;
    }
    if (i + 1 >= argc) return usage_error(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--size") {
      const size_t x = value.find('x');
      const auto w = count(value.substr(0, x), 1, 16384);
      const auto h = x == std::string::npos ? std::nullopt : count(value.substr(x + 1), 1, 16384);
      if (!w || !h) return usage_error("--size wants WxH, each side in 1..16384, got '" + value + "'");
      options.size = {*w, *h};
    } else if (flag == "--pairs" || flag == "--dispatches") {
      const auto v = count(value, 1, 100000);
      if (!v) return usage_error(flag + " wants a whole number in 1..100000, got '" + value + "'");
      (flag == "--pairs" ? options.pairs : options.dispatches) = *v;
    } else if (flag == "--shader-dir") {
      options.shader_dir = value;
    } else if (flag == "--json") {
      options.json = value;
    } else {
      return usage_error("unknown option '" + flag + "'");
    }
  }
  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  vk::Context ctx(context_options);
  vk::ShaderSource shaders{options.shader_dir, std::nullopt};
  Study study(ctx, options);
  std::vector<Variant> variants;
  for (const char* content : {"noise", "flat"}) {
    for (const char* harness : {"batch", "frames", "upload"}) {
      variants.push_back({harness, content, "sampled", 16, 16, 1});
      variants.push_back({harness, content, "storage", 16, 16, 1});
    }
    for (const char* read : {"sampled", "storage"})
      for (auto [x, y] : {std::pair{8u, 8u}, {32u, 8u}, {64u, 4u}, {128u, 1u}, {32u, 32u}})
        variants.push_back({"batch", content, read, x, y, 1});
    for (const char* read : {"sampled", "storage"})
      for (uint32_t pixels : {2u, 4u}) {
        variants.push_back({"batch", content, read, 16, 16, pixels});
        variants.push_back({"batch", content, read, 64, 4, pixels});
      }
    variants.push_back({"batch", content, "transfer"});
  }
  nlohmann::json out = {{"device", ctx.report().name},
                        {"driver", ctx.report().driver_info},
                        {"size", {options.size.width, options.size.height}},
                        {"pairs", options.pairs},
                        {"dispatches", options.dispatches},
                        {"variants", nlohmann::json::array()}};
  const double bytes = double(options.size.width) * options.size.height * 8 * 2;
  std::string filled;
  for (const Variant& v : variants) {
    if (v.content != filled) study.fill(filled = v.content);
    const runtime::Summary s = study.run(v, shaders);
    std::printf("%-40s median %8.2f us  p5 %8.2f  p95 %8.2f  %6.2f TB/s\n", v.label().c_str(), s.median, s.p5,
                s.p95, bytes / (s.median * 1e-6) / 1e12);
    std::fflush(stdout);
    out["variants"].push_back({{"label", v.label()},
                               {"harness", v.harness},
                               {"content", v.content},
                               {"read", v.read},
                               {"group", {v.local_x, v.local_y}},
                               {"pixels_per_thread", v.pixels},
                               {"median_us", s.median},
                               {"p5_us", s.p5},
                               {"p95_us", s.p95}});
  }
  if (!options.json.empty()) std::ofstream(options.json) << out.dump(2) << "\n";
  if (ctx.validation_messages()) {
    std::fprintf(stderr, "filterlab_copy_study: %u validation message(s) reported\n",
                 ctx.validation_messages());
    return 4;
  }
  return 0;
}
