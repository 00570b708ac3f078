#pragma once
// Pipelines with one push-descriptor set: a pass pushes its image and buffer bindings right
// before it draws or dispatches, so there are no descriptor pools or per-frame sets to manage.
#include "vk/context.h"
#include "vk/pipeline_statistics.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::vk {

// A shader as pipelines name it: its file under shaders/ and, for a shader that declares variants
// (`//! variant NAME DEFINES...` lines, cmake/Shaders.cmake), which one: "passes/tonemap.comp",
// "filters/gaussian/comp_tiled.comp#fp16".
struct ShaderName {
  std::string file, variant;
  static ShaderName parse(const std::string& name);
  std::string spirv_file() const;  // "filters/gaussian/comp_tiled.comp.fp16.spv"
};

// Where SPIR-V comes from: the build's .spv files, or GLSL compiled at run time by shaderc.
// A SPIR-V file's size and first word: whole words, the magic number. Throws ShaderCompileError.
void check_spirv_header(const std::filesystem::path& path, uint64_t bytes, const std::string& first_word);

// An access chain indexed by a negative constant, which Debian 12's spirv-val lets through and newer
// validators (the layer on NVIDIA's driver, Debian 13's SPIRV-Tools) reject: a description of the
// first, or "". Every module is checked for it as it loads, with spirv-val.
std::string negative_constant_index(const std::vector<uint32_t>& words);
// The module with its OpExtension `from` declared as `to` instead (an NV extension as its identical
// KHR one, for a device that has only the KHR name); unchanged where it declares no `from`.
std::vector<uint32_t> renamed_extension(std::vector<uint32_t> words, const std::string& from,
                                        const std::string& to);

struct ShaderSource {
  std::filesystem::path spirv_dir;                            // <build>/shaders
  std::optional<std::filesystem::path> glsl_dir;              // set: compile shaders/<file> at run time
  std::vector<uint32_t> load(const std::string& name) const;  // name: a ShaderName's spelling
};

// A binding number the shader does not use (a gap in PipelineLayoutDesc::bindings).
constexpr VkDescriptorType kUnusedBinding = VK_DESCRIPTOR_TYPE_MAX_ENUM;

struct PipelineLayoutDesc {
  std::vector<VkDescriptorType> bindings;  // binding i has type bindings[i] (kUnusedBinding: none)
  uint32_t push_constant_size = 0;
  friend bool operator==(const PipelineLayoutDesc&, const PipelineLayoutDesc&) = default;
};

struct ComputePipelineDesc {
  std::string shader;
  PipelineLayoutDesc layout;
  std::vector<uint32_t> specialization;  // constant_id i = specialization[i] (32-bit words)
  friend bool operator==(const ComputePipelineDesc&, const ComputePipelineDesc&) = default;
};

struct VertexInput {
  uint32_t stride = 0;
  std::vector<VkVertexInputAttributeDescription> attributes;
  friend bool operator==(const VertexInput& a, const VertexInput& b);
};

struct GraphicsPipelineDesc {
  std::string vertex_shader, fragment_shader;
  PipelineLayoutDesc layout;
  std::vector<VkFormat> color_formats;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // depth test LESS and write when set
  std::optional<VertexInput> vertex_input;      // none: full-screen triangle from gl_VertexIndex
  std::vector<uint32_t> specialization;
  // Translucent geometry: colour attachment 0 blended over what is there (premultiplied by the
  // source alpha), the other attachments and the depth left as they are (depth still tested).
  bool alpha_blend = false;
  friend bool operator==(const GraphicsPipelineDesc&, const GraphicsPipelineDesc&) = default;
};

class Pipeline {
 public:
  Pipeline(const Context& ctx, const ShaderSource& source, const ComputePipelineDesc& desc);
  Pipeline(const Context& ctx, const ShaderSource& source, const GraphicsPipelineDesc& desc);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkPipelineBindPoint bind_point() const { return bind_point_; }
  const PipelineLayoutDesc& layout_desc() const { return layout_desc_; }
  // The compiler's statistics, where the context captures them; else empty.
  const std::vector<PipelineStatistic>& statistics() const { return statistics_; }

 private:
  void create_layout(const PipelineLayoutDesc& desc, VkShaderStageFlags stages, const std::string& name);
  const Context& ctx_;
  PipelineLayoutDesc layout_desc_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineBindPoint bind_point_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::vector<PipelineStatistic> statistics_;
};

// Builds and pushes one descriptor set's writes.
class DescriptorPush {
 public:
  DescriptorPush& sampled(uint32_t binding, VkImageView view, VkSampler sampler, VkImageLayout layout);
  DescriptorPush& storage_image(uint32_t binding, VkImageView view);
  DescriptorPush& uniform_buffer(uint32_t binding, VkBuffer buffer, VkDeviceSize size,
                                 VkDeviceSize offset = 0);
  DescriptorPush& storage_buffer(uint32_t binding, VkBuffer buffer, VkDeviceSize size);
  void push(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline) const;

 private:
  DescriptorPush& add(uint32_t binding, VkDescriptorType type);
  // Stable storage: writes point into these.
  std::vector<std::unique_ptr<VkDescriptorImageInfo>> images_;
  std::vector<std::unique_ptr<VkDescriptorBufferInfo>> buffers_;
  std::vector<VkWriteDescriptorSet> writes_;
};

}  // namespace filterlab::vk
