#include "vk/pipelines.h"

#include "vk/shader_compiler.h"

#include "io/input_file.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstring>

namespace filterlab::vk {

namespace {

// SPIRV-Tools' validator, before the driver sees the words: a corrupt module is reported with the
// file and the reason instead of reaching vkCreateShaderModule (where the validation layer was seen
// to hang on one and the driver is free to crash).
void validate_spirv(const std::vector<uint32_t>& words, const std::string& origin) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string first;
  tools.SetMessageConsumer(
      [&first](spv_message_level_t, const char*, const spv_position_t& at, const char* text) {
        if (first.empty()) first = std::string(text) + " (word " + std::to_string(at.index) + ")";
      });
  if (!tools.Validate(words))
    throw ShaderCompileError("invalid SPIR-V " + origin + ": " +
                             (first.empty() ? "rejected by spirv-val" : first));
  if (const std::string negative = negative_constant_index(words); !negative.empty())
    throw ShaderCompileError("invalid SPIR-V " + origin + ": " + negative);
}

}  // namespace

std::string negative_constant_index(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpTypeInt = 21, kOpConstant = 43, kOpAccessChain = 65, kOpInBoundsAccessChain = 66;
  constexpr size_t kHeaderWords = 5;
  std::vector<bool> signed_int(words.size() > 3 ? words[3] : 0);  // by id; words[3] is the id bound
  std::vector<bool> negative(signed_int.size());
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffffu;
    if (count == 0 || at + count > words.size()) break;  // spirv-val has rejected such a module already
    const uint32_t* op = &words[at];
    const auto known = [&](uint32_t id) { return id < signed_int.size(); };
    // OpTypeInt: result, width, signedness. OpConstant: type, result, value (a 32-bit int: one word).
    if (opcode == kOpTypeInt && count == 4 && known(op[1])) signed_int[op[1]] = op[2] == 32 && op[3] == 1;
    if (opcode == kOpConstant && count == 4 && known(op[1]) && known(op[2]) && signed_int[op[1]])
      negative[op[2]] = static_cast<int32_t>(op[3]) < 0;
    // OpAccessChain: type, result, base, indexes from word 4 on.
    if (opcode == kOpAccessChain || opcode == kOpInBoundsAccessChain)
      for (uint32_t word = 4; word < count; ++word)
        if (known(op[word]) && negative[op[word]])
          return "an access chain (result %" + std::to_string(op[2]) +
                 ") has a negative constant index at word " + std::to_string(word) +
                 " (newer spirv-val rejects it: \"Index at word " + std::to_string(word) +
                 " may not have a negative value\")";
    at += count;
  }
  return {};
}

void check_spirv_header(const std::filesystem::path& path, uint64_t bytes, const std::string& first_word) {
  constexpr char kMagic[4] = {0x03, 0x02, 0x23, 0x07};  // 0x07230203, little-endian as glslc writes it
  if (bytes == 0 || bytes % 4 != 0)
    throw ShaderCompileError("invalid SPIR-V " + path.string() + ": " + std::to_string(bytes) +
                             " bytes, not a whole number of words");
  if (first_word != std::string(kMagic, 4))
    throw ShaderCompileError("invalid SPIR-V " + path.string() + ": no SPIR-V magic number");
}

bool operator==(const VertexInput& a, const VertexInput& b) {
  if (a.stride != b.stride || a.attributes.size() != b.attributes.size()) return false;
  for (size_t i = 0; i < a.attributes.size(); ++i) {
    const VkVertexInputAttributeDescription &x = a.attributes[i], &y = b.attributes[i];
    if (x.location != y.location || x.binding != y.binding || x.format != y.format || x.offset != y.offset)
      return false;
  }
  return true;
}

ShaderName ShaderName::parse(const std::string& name) {
  const size_t hash = name.find('#');
  if (hash == std::string::npos) return {name, {}};
  return {name.substr(0, hash), name.substr(hash + 1)};
}

std::string ShaderName::spirv_file() const {
  return file + (variant.empty() ? "" : "." + variant) + ".spv";
}

std::vector<uint32_t> ShaderSource::load(const std::string& name) const {
  const ShaderName shader = ShaderName::parse(name);
  if (glsl_dir) {
    const std::filesystem::path file = *glsl_dir / shader.file;
    std::vector<uint32_t> words = compile_glsl_file(file, *glsl_dir, shader.variant);
    validate_spirv(words, "compiled from " + file.string() +
                              (shader.variant.empty() ? "" : " (" + shader.variant + ")"));
    return words;
  }
  const std::filesystem::path path = spirv_dir / shader.spirv_file();
  std::string bytes;
  try {
    bytes = io::read_input_file(path, io::kMaxShaderFileBytes);
  } catch (const io::InputError& e) {
    throw ShaderCompileError("cannot read SPIR-V " + path.string() + ": " + e.reason + " (set --shader-dir)");
  }
  check_spirv_header(path, bytes.size(), bytes.size() >= 4 ? bytes.substr(0, 4) : std::string());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  validate_spirv(words, path.string());
  return words;
}

std::vector<uint32_t> renamed_extension(std::vector<uint32_t> words, const std::string& from,
                                        const std::string& to) {
  constexpr uint32_t kOpExtension = 10;
  constexpr size_t kHeaderWords = 5;
  // A literal string: its bytes, a terminating 0, padded with zeros to whole words.
  auto literal = [](const std::string& text) {
    std::vector<uint32_t> out((text.size() + 4) / 4, 0);
    std::memcpy(out.data(), text.data(), text.size());
    return out;
  };
  const std::vector<uint32_t> old_words = literal(from), new_words = literal(to);
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffffu;
    if (count == 0 || at + count > words.size()) break;
    if (opcode == kOpExtension && count == 1 + old_words.size() &&
        std::equal(old_words.begin(), old_words.end(), words.begin() + long(at) + 1)) {
      words.erase(words.begin() + long(at) + 1, words.begin() + long(at + count));
      words.insert(words.begin() + long(at) + 1, new_words.begin(), new_words.end());
      words[at] = uint32_t(1 + new_words.size()) << 16 | kOpExtension;
      return words;
    }
    at += count;
  }
  return words;
}

namespace {

// The module as this device takes it. The quad-derivative shaders declare the NV extension (the
// GLSL name Debian 12's glslang knows); the KHR extension is the same capability and the same
// execution mode, and a device that has only it (Debian 13's lavapipe) must see its name, or the
// validation layer reports VUID-VkShaderModuleCreateInfo-pCode-08742.
std::vector<uint32_t> for_device(const Context& ctx, const std::vector<uint32_t>& code) {
  if (ctx.report().compute_derivatives_extension != "VK_KHR_compute_shader_derivatives") return code;
  return renamed_extension(code, "SPV_NV_compute_shader_derivatives", "SPV_KHR_compute_shader_derivatives");
}

class ShaderModule {
 public:
  ShaderModule(const Context& ctx, const std::vector<uint32_t>& spirv, const std::string& name)
      : device_(ctx.device()) {
    const std::vector<uint32_t> code = for_device(ctx, spirv);
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = code.size() * 4;
    info.pCode = code.data();
    VK_CHECK(vkCreateShaderModule(device_, &info, nullptr, &module_));
    ctx.name(module_, VK_OBJECT_TYPE_SHADER_MODULE, name);
  }
  ~ShaderModule() { vkDestroyShaderModule(device_, module_, nullptr); }
  VkShaderModule handle() const { return module_; }

 private:
  VkDevice device_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

struct Specialization {
  std::vector<VkSpecializationMapEntry> entries;
  VkSpecializationInfo info{};
  explicit Specialization(const std::vector<uint32_t>& values) {
    for (uint32_t i = 0; i < values.size(); ++i) entries.push_back({i, i * 4, 4});
    info = {static_cast<uint32_t>(entries.size()), entries.data(), values.size() * 4, values.data()};
  }
  const VkSpecializationInfo* get() const { return entries.empty() ? nullptr : &info; }
};

}  // namespace

void Pipeline::create_layout(const PipelineLayoutDesc& desc, VkShaderStageFlags stages,
                             const std::string& name) {
  layout_desc_ = desc;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < desc.bindings.size(); ++i)
    if (desc.bindings[i] != kUnusedBinding) bindings.push_back({i, desc.bindings[i], 1, stages, nullptr});
  VkDescriptorSetLayoutCreateInfo set{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  set.bindingCount = static_cast<uint32_t>(bindings.size());
  set.pBindings = bindings.data();
  VK_CHECK(vkCreateDescriptorSetLayout(ctx_.device(), &set, nullptr, &set_layout_));
  VkPushConstantRange range{stages, 0, desc.push_constant_size};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout_;
  info.pushConstantRangeCount = desc.push_constant_size ? 1 : 0;
  info.pPushConstantRanges = &range;
  VK_CHECK(vkCreatePipelineLayout(ctx_.device(), &info, nullptr, &layout_));
  ctx_.name(layout_, VK_OBJECT_TYPE_PIPELINE_LAYOUT, name);
}

Pipeline::Pipeline(const Context& ctx, const ShaderSource& source, const ComputePipelineDesc& desc)
    : ctx_(ctx), bind_point_(VK_PIPELINE_BIND_POINT_COMPUTE) {
  ShaderModule module(ctx, source.load(desc.shader), desc.shader);
  create_layout(desc.layout, VK_SHADER_STAGE_COMPUTE_BIT, desc.shader);
  Specialization spec(desc.specialization);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                nullptr,
                0,
                VK_SHADER_STAGE_COMPUTE_BIT,
                module.handle(),
                "main",
                spec.get()};
  info.layout = layout_;
  info.flags = statistics_create_flags(ctx);
  VK_CHECK(vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
  ctx.name(pipeline_, VK_OBJECT_TYPE_PIPELINE, desc.shader);
  statistics_ = query_pipeline_statistics(ctx, pipeline_);
}

Pipeline::Pipeline(const Context& ctx, const ShaderSource& source, const GraphicsPipelineDesc& desc)
    : ctx_(ctx), bind_point_(VK_PIPELINE_BIND_POINT_GRAPHICS) {
  ShaderModule vertex(ctx, source.load(desc.vertex_shader), desc.vertex_shader);
  ShaderModule fragment(ctx, source.load(desc.fragment_shader), desc.fragment_shader);
  const std::string name = desc.vertex_shader + "+" + desc.fragment_shader;
  create_layout(desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, name);
  Specialization spec(desc.specialization);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
       vertex.handle(), "main", spec.get()},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       fragment.handle(), "main", spec.get()}};

  VkVertexInputBindingDescription binding{0, 0, VK_VERTEX_INPUT_RATE_VERTEX};
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (desc.vertex_input) {
    binding.stride = desc.vertex_input->stride;
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &binding;
    vertex_input.vertexAttributeDescriptionCount =
        static_cast<uint32_t>(desc.vertex_input->attributes.size());
    vertex_input.pVertexAttributeDescriptions = desc.vertex_input->attributes.data();
  }
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = desc.depth_format != VK_FORMAT_UNDEFINED;
  depth.depthWriteEnable = depth.depthTestEnable && !desc.alpha_blend;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  std::vector<VkPipelineColorBlendAttachmentState> blend(desc.color_formats.size());
  for (auto& b : blend) b.colorWriteMask = desc.alpha_blend ? 0 : 0xF;
  if (desc.alpha_blend && !blend.empty()) {
    blend[0] = {VK_TRUE,
                VK_BLEND_FACTOR_SRC_ALPHA,
                VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                VK_BLEND_OP_ADD,
                VK_BLEND_FACTOR_ZERO,
                VK_BLEND_FACTOR_ONE,
                VK_BLEND_OP_ADD,
                0xF};
  }
  VkPipelineColorBlendStateCreateInfo blending{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blending.attachmentCount = static_cast<uint32_t>(blend.size());
  blending.pAttachments = blend.data();
  VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = static_cast<uint32_t>(desc.color_formats.size());
  rendering.pColorAttachmentFormats = desc.color_formats.data();
  rendering.depthAttachmentFormat = desc.depth_format;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blending;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  info.flags = statistics_create_flags(ctx);
  VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
  ctx.name(pipeline_, VK_OBJECT_TYPE_PIPELINE, name);
  statistics_ = query_pipeline_statistics(ctx, pipeline_);
}

Pipeline::~Pipeline() {
  vkDestroyPipeline(ctx_.device(), pipeline_, nullptr);
  vkDestroyPipelineLayout(ctx_.device(), layout_, nullptr);
  vkDestroyDescriptorSetLayout(ctx_.device(), set_layout_, nullptr);
}

// ---- DescriptorPush --------------------------------------------------------------------------

DescriptorPush& DescriptorPush::add(uint32_t binding, VkDescriptorType type) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  writes_.push_back(write);
  return *this;
}

DescriptorPush& DescriptorPush::sampled(uint32_t binding, VkImageView view, VkSampler sampler,
                                        VkImageLayout layout) {
  images_.push_back(std::make_unique<VkDescriptorImageInfo>(VkDescriptorImageInfo{sampler, view, layout}));
  add(binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER).writes_.back().pImageInfo = images_.back().get();
  return *this;
}

DescriptorPush& DescriptorPush::storage_image(uint32_t binding, VkImageView view) {
  images_.push_back(std::make_unique<VkDescriptorImageInfo>(
      VkDescriptorImageInfo{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL}));
  add(binding, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE).writes_.back().pImageInfo = images_.back().get();
  return *this;
}

DescriptorPush& DescriptorPush::uniform_buffer(uint32_t binding, VkBuffer buffer, VkDeviceSize size,
                                               VkDeviceSize offset) {
  buffers_.push_back(std::make_unique<VkDescriptorBufferInfo>(VkDescriptorBufferInfo{buffer, offset, size}));
  add(binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER).writes_.back().pBufferInfo = buffers_.back().get();
  return *this;
}

DescriptorPush& DescriptorPush::storage_buffer(uint32_t binding, VkBuffer buffer, VkDeviceSize size) {
  buffers_.push_back(std::make_unique<VkDescriptorBufferInfo>(VkDescriptorBufferInfo{buffer, 0, size}));
  add(binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).writes_.back().pBufferInfo = buffers_.back().get();
  return *this;
}

void DescriptorPush::push(const Context& ctx, VkCommandBuffer cmd, const Pipeline& pipeline) const {
  ctx.cmd_push_descriptor_set(cmd, pipeline.bind_point(), pipeline.layout(), 0,
                              static_cast<uint32_t>(writes_.size()), writes_.data());
}

}  // namespace filterlab::vk
