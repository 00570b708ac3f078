#include "graph/barriers.h"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>

using namespace filterlab::graph;

namespace filterlab::graph {
// Readable failure output for barrier comparisons.
void PrintTo(const ImageBarrier& b, std::ostream* os) {
  *os << "{image " << b.key.image << " mip " << b.key.mip << ", src stage 0x" << std::hex << b.src_stage
      << " access 0x" << b.src_access << ", dst stage 0x" << b.dst_stage << " access 0x" << b.dst_access
      << std::dec << ", layout " << b.old_layout << " -> " << b.new_layout << "}";
}
void PrintTo(const BufferBarrier& b, std::ostream* os) {
  *os << "{buffer " << b.buffer << ", src stage 0x" << std::hex << b.src_stage << " access 0x" << b.src_access
      << ", dst stage 0x" << b.dst_stage << " access 0x" << b.dst_access << std::dec << "}";
}
}  // namespace filterlab::graph

namespace {

constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags2 kFragment = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr VkPipelineStageFlags2 kColorOut = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
constexpr VkPipelineStageFlags2 kDepthTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkPipelineStageFlags2 kCopyBlit = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT;
constexpr VkAccessFlags2 kNone = VK_ACCESS_2_NONE;
constexpr VkAccessFlags2 kSampled = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
constexpr VkAccessFlags2 kStorageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kStorageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
constexpr VkImageLayout kUndefined = VK_IMAGE_LAYOUT_UNDEFINED;
constexpr VkImageLayout kGeneral = VK_IMAGE_LAYOUT_GENERAL;
constexpr VkImageLayout kReadOnly = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;

constexpr SubresourceKey kImg{0, 0};

ImageBarrier barrier(SubresourceKey key, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                     VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access, VkImageLayout from,
                     VkImageLayout to) {
  return {key, src_stage, src_access, dst_stage, dst_access, from, to};
}

// The access must need exactly one barrier; returns it.
ImageBarrier one(BarrierTracker& t, SubresourceKey key, Usage usage) {
  std::vector<ImageBarrier> b = t.access(key, usage);
  EXPECT_EQ(b.size(), 1u) << usage_name(usage);
  return b.empty() ? ImageBarrier{} : b.front();
}

void none(BarrierTracker& t, SubresourceKey key, Usage usage) {
  std::vector<ImageBarrier> b = t.access(key, usage);
  EXPECT_TRUE(b.empty()) << usage_name(usage) << " got " << ::testing::PrintToString(b);
}

}  // namespace

TEST(Barriers, FirstUseTransitionsFromUndefined) {
  for (Usage u : {Usage::SampledFragment, Usage::SampledCompute, Usage::StorageReadCompute,
                  Usage::StorageWriteCompute, Usage::StorageReadWriteCompute, Usage::ColorAttachment,
                  Usage::DepthAttachment, Usage::TransferSrc, Usage::TransferDst}) {
    BarrierTracker t;
    const SubresourceKey key{3, 2};
    const UsageInfo info = usage_info(u);
    EXPECT_EQ(t.layout(key), kUndefined);
    EXPECT_EQ(one(t, key, u),
              barrier(key, VK_PIPELINE_STAGE_2_NONE, kNone, info.stage, info.access, kUndefined, info.layout))
        << usage_name(u);
    EXPECT_EQ(t.layout(key), info.layout) << usage_name(u);
  }
}

TEST(Barriers, ComputeStorageWriteThenFragmentSample) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  EXPECT_EQ(one(t, kImg, Usage::SampledFragment),
            barrier(kImg, kCompute, kStorageWrite, kFragment, kSampled, kGeneral, kReadOnly));
  EXPECT_EQ(t.layout(kImg), kReadOnly);
}

TEST(Barriers, ColorWriteThenComputeSample) {
  BarrierTracker t;
  one(t, kImg, Usage::ColorAttachment);
  EXPECT_EQ(one(t, kImg, Usage::SampledCompute),
            barrier(kImg, kColorOut, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, kCompute, kSampled,
                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, kReadOnly));
}

TEST(Barriers, RepeatedReadsAndNewReadingStage) {
  BarrierTracker t;
  one(t, kImg, Usage::ColorAttachment);
  one(t, kImg, Usage::SampledCompute);
  none(t, kImg, Usage::SampledCompute);
  // A new stage chains from the stage that did the transition; no layout change.
  EXPECT_EQ(one(t, kImg, Usage::SampledFragment),
            barrier(kImg, kCompute, kNone, kFragment, kSampled, kReadOnly, kReadOnly));
  none(t, kImg, Usage::SampledFragment);
  none(t, kImg, Usage::SampledCompute);
}

TEST(Barriers, StorageReadAfterWriteSameLayout) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  EXPECT_EQ(one(t, kImg, Usage::StorageReadCompute),
            barrier(kImg, kCompute, kStorageWrite, kCompute, kStorageRead, kGeneral, kGeneral));
  none(t, kImg, Usage::StorageReadCompute);
}

TEST(Barriers, WriteAfterReadIsExecutionOnly) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageReadCompute);  // UNDEFINED -> GENERAL, then read
  EXPECT_EQ(one(t, kImg, Usage::StorageWriteCompute),
            barrier(kImg, kCompute, kNone, kCompute, kStorageWrite, kGeneral, kGeneral));

  // Reads in another stage first, then transition to GENERAL, read, write: the write only
  // waits for the storage read's stage.
  BarrierTracker u;
  one(u, kImg, Usage::StorageWriteCompute);
  one(u, kImg, Usage::SampledFragment);
  EXPECT_EQ(one(u, kImg, Usage::StorageReadCompute),
            barrier(kImg, kFragment, kNone, kCompute, kStorageRead, kReadOnly, kGeneral));
  EXPECT_EQ(one(u, kImg, Usage::StorageWriteCompute),
            barrier(kImg, kCompute, kNone, kCompute, kStorageWrite, kGeneral, kGeneral));
}

TEST(Barriers, WriteReadWriteWaitsForTheRead) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  one(t, kImg, Usage::StorageReadCompute);
  const ImageBarrier b = one(t, kImg, Usage::StorageWriteCompute);
  // The first write was already made available by the read's barrier, so src_access may be
  // NONE or the storage write; everything else is fixed.
  EXPECT_EQ(b.src_stage, kCompute);
  EXPECT_EQ(b.src_access & ~kStorageWrite, kNone);
  EXPECT_EQ(b.dst_stage, kCompute);
  EXPECT_EQ(b.dst_access, kStorageWrite);
  EXPECT_EQ(b.old_layout, kGeneral);
  EXPECT_EQ(b.new_layout, kGeneral);
}

TEST(Barriers, WriteAfterWriteSameLayout) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  EXPECT_EQ(one(t, kImg, Usage::StorageWriteCompute),
            barrier(kImg, kCompute, kStorageWrite, kCompute, kStorageWrite, kGeneral, kGeneral));
  // Read-write: only the write bits of the previous access are a source.
  EXPECT_EQ(
      one(t, kImg, Usage::StorageReadWriteCompute),
      barrier(kImg, kCompute, kStorageWrite, kCompute, kStorageRead | kStorageWrite, kGeneral, kGeneral));
  EXPECT_EQ(
      one(t, kImg, Usage::StorageReadWriteCompute),
      barrier(kImg, kCompute, kStorageWrite, kCompute, kStorageRead | kStorageWrite, kGeneral, kGeneral));

  BarrierTracker x;  // clear then blit: transfer write after transfer write
  one(x, kImg, Usage::TransferDst);
  const VkPipelineStageFlags2 dst_stages = kCopyBlit | VK_PIPELINE_STAGE_2_CLEAR_BIT;
  EXPECT_EQ(
      one(x, kImg, Usage::TransferDst),
      barrier(kImg, dst_stages, VK_ACCESS_2_TRANSFER_WRITE_BIT, dst_stages, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));
}

TEST(Barriers, WriteAfterReadWithLayoutChangeWaitsForAllReaders) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  one(t, kImg, Usage::SampledFragment);
  EXPECT_EQ(one(t, kImg, Usage::StorageWriteCompute),
            barrier(kImg, kFragment, kNone, kCompute, kStorageWrite, kReadOnly, kGeneral));

  // Two reading stages since the transition: the next transition waits for both.
  BarrierTracker u;
  one(u, kImg, Usage::StorageWriteCompute);
  one(u, kImg, Usage::SampledCompute);
  one(u, kImg, Usage::SampledFragment);
  EXPECT_EQ(one(u, kImg, Usage::ColorAttachment),
            barrier(kImg, kCompute | kFragment, kNone, kColorOut,
                    VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, kReadOnly,
                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL));
}

TEST(Barriers, TransitionAfterWriteAndReadsCarriesTheWrite) {
  BarrierTracker t;
  one(t, kImg, Usage::StorageWriteCompute);
  one(t, kImg, Usage::StorageReadCompute);
  EXPECT_EQ(one(t, kImg, Usage::SampledFragment),
            barrier(kImg, kCompute, kStorageWrite, kFragment, kSampled, kGeneral, kReadOnly));
}

TEST(Barriers, StatePersistsAcrossFrames) {
  BarrierTracker t;
  for (int frame = 0; frame < 3; ++frame) {
    const ImageBarrier w = one(t, kImg, Usage::StorageWriteCompute);
    if (frame == 0)
      EXPECT_EQ(
          w, barrier(kImg, VK_PIPELINE_STAGE_2_NONE, kNone, kCompute, kStorageWrite, kUndefined, kGeneral));
    else  // last frame ended sampled in the fragment shader
      EXPECT_EQ(w, barrier(kImg, kFragment, kNone, kCompute, kStorageWrite, kReadOnly, kGeneral))
          << "frame " << frame;
    one(t, kImg, Usage::SampledFragment);
  }
}

TEST(Barriers, ForgetImageResetsOnlyThatImage) {
  BarrierTracker t;
  const SubresourceKey a0{0, 0}, a1{0, 1}, b0{1, 0};
  one(t, a0, Usage::StorageWriteCompute);
  one(t, a1, Usage::StorageWriteCompute);
  one(t, b0, Usage::StorageWriteCompute);
  t.forget_image(0);
  EXPECT_EQ(t.layout(a0), kUndefined);
  EXPECT_EQ(t.layout(a1), kUndefined);
  EXPECT_EQ(t.layout(b0), kGeneral);
  EXPECT_EQ(one(t, a1, Usage::SampledFragment),
            barrier(a1, VK_PIPELINE_STAGE_2_NONE, kNone, kFragment, kSampled, kUndefined, kReadOnly));
  EXPECT_EQ(one(t, b0, Usage::SampledFragment),
            barrier(b0, kCompute, kStorageWrite, kFragment, kSampled, kGeneral, kReadOnly));
  t.clear();
  EXPECT_EQ(t.layout(b0), kUndefined);
  EXPECT_EQ(t.layout(a1), kUndefined);
}

TEST(Barriers, MipsAreTrackedSeparately) {
  BarrierTracker t;
  const SubresourceKey m0{5, 0}, m1{5, 1};
  one(t, m0, Usage::StorageWriteCompute);
  EXPECT_EQ(t.layout(m1), kUndefined);
  EXPECT_EQ(one(t, m1, Usage::StorageWriteCompute),
            barrier(m1, VK_PIPELINE_STAGE_2_NONE, kNone, kCompute, kStorageWrite, kUndefined, kGeneral));
  // Downsample: read mip 0, write mip 1.
  EXPECT_EQ(one(t, m0, Usage::SampledCompute),
            barrier(m0, kCompute, kStorageWrite, kCompute, kSampled, kGeneral, kReadOnly));
  EXPECT_EQ(t.layout(m1), kGeneral);
  EXPECT_EQ(one(t, m1, Usage::StorageWriteCompute),
            barrier(m1, kCompute, kStorageWrite, kCompute, kStorageWrite, kGeneral, kGeneral));
  EXPECT_EQ(t.layout(m0), kReadOnly);
}

TEST(Barriers, DepthThenTransferThenSample) {
  BarrierTracker t;
  const VkAccessFlags2 ds =
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  EXPECT_EQ(one(t, kImg, Usage::DepthAttachment),
            barrier(kImg, VK_PIPELINE_STAGE_2_NONE, kNone, kDepthTests, ds, kUndefined,
                    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL));
  EXPECT_EQ(one(t, kImg, Usage::TransferSrc),
            barrier(kImg, kDepthTests, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, kCopyBlit,
                    VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
  none(t, kImg, Usage::TransferSrc);
  EXPECT_EQ(one(t, kImg, Usage::SampledFragment), barrier(kImg, kCopyBlit, kNone, kFragment, kSampled,
                                                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kReadOnly));
  // Depth testing again: a transition that waits for the fragment reads.
  EXPECT_EQ(one(t, kImg, Usage::DepthAttachment), barrier(kImg, kFragment, kNone, kDepthTests, ds, kReadOnly,
                                                          VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL));
}

TEST(Barriers, WriteAccessesKeepsOnlyWrites) {
  EXPECT_EQ(write_accesses(kStorageRead | kStorageWrite | kSampled), kStorageWrite);
  EXPECT_EQ(write_accesses(VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT),
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  EXPECT_EQ(write_accesses(VK_ACCESS_2_TRANSFER_READ_BIT | kSampled), kNone);
  EXPECT_EQ(write_accesses(VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT),
            VK_ACCESS_2_TRANSFER_WRITE_BIT);
  // No usage writes from the host: a host write is nothing the tracker orders.
  EXPECT_EQ(write_accesses(VK_ACCESS_2_HOST_WRITE_BIT), kNone);
}

// ---- buffers -----------------------------------------------------------------------------------

namespace {

constexpr uint64_t kBuf = 0x5eed;
constexpr BufferUsage kAllBufferUsages[] = {BufferUsage::StorageReadCompute,
                                            BufferUsage::StorageWriteCompute,
                                            BufferUsage::StorageReadWriteCompute,
                                            BufferUsage::UniformCompute,
                                            BufferUsage::IndirectRead,
                                            BufferUsage::TransferSrc,
                                            BufferUsage::TransferDst,
                                            BufferUsage::HostRead};

BufferBarrier one(BarrierTracker& t, uint64_t buffer, BufferUsage usage) {
  std::optional<BufferBarrier> b = t.access(buffer, usage);
  EXPECT_TRUE(b.has_value()) << usage_name(usage);
  return b.value_or(BufferBarrier{});
}

void none(BarrierTracker& t, uint64_t buffer, BufferUsage usage) {
  std::optional<BufferBarrier> b = t.access(buffer, usage);
  EXPECT_FALSE(b.has_value()) << usage_name(usage) << " got " << ::testing::PrintToString(*b);
}

}  // namespace

TEST(BufferBarriers, FirstAccessNeedsNone) {
  for (BufferUsage u : kAllBufferUsages) {
    BarrierTracker t;
    none(t, kBuf, u);
  }
}

TEST(BufferBarriers, WriterThenReaderGetsTheWritersScope) {
  BarrierTracker t;
  none(t, kBuf, BufferUsage::StorageWriteCompute);
  EXPECT_EQ(one(t, kBuf, BufferUsage::StorageReadCompute),
            (BufferBarrier{kBuf, kCompute, kStorageWrite, kCompute, kStorageRead}));
  none(t, kBuf, BufferUsage::StorageReadCompute);  // a second reader: already visible
  // A new kind of read is not covered by the first barrier.
  EXPECT_EQ(one(t, kBuf, BufferUsage::IndirectRead),
            (BufferBarrier{kBuf, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                           VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT}));
  none(t, kBuf, BufferUsage::IndirectRead);
}

TEST(BufferBarriers, ReadersNeedNoneBetweenThem) {
  BarrierTracker t;
  for (BufferUsage u : {BufferUsage::StorageReadCompute, BufferUsage::UniformCompute,
                        BufferUsage::TransferSrc, BufferUsage::StorageReadCompute})
    none(t, kBuf, u);
}

TEST(BufferBarriers, WriteAfterReadWaitsForEveryReaderWithoutAMemoryDependency) {
  BarrierTracker t;
  none(t, kBuf, BufferUsage::UniformCompute);
  none(t, kBuf, BufferUsage::TransferSrc);
  EXPECT_EQ(one(t, kBuf, BufferUsage::StorageWriteCompute),
            (BufferBarrier{kBuf, kCompute | VK_PIPELINE_STAGE_2_COPY_BIT, kNone, kCompute, kStorageWrite}));
}

TEST(BufferBarriers, WriteAfterWriteCarriesTheEarlierWrite) {
  BarrierTracker t;
  none(t, kBuf, BufferUsage::TransferDst);  // reset by vkCmdFillBuffer, then atomics
  const VkPipelineStageFlags2 transfer_dst = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT;
  EXPECT_EQ(one(t, kBuf, BufferUsage::StorageReadWriteCompute),
            (BufferBarrier{kBuf, transfer_dst, VK_ACCESS_2_TRANSFER_WRITE_BIT, kCompute,
                           kStorageRead | kStorageWrite}));
  // Read-write after read-write: only the write bits are a source.
  EXPECT_EQ(one(t, kBuf, BufferUsage::StorageReadWriteCompute),
            (BufferBarrier{kBuf, kCompute, kStorageWrite, kCompute, kStorageRead | kStorageWrite}));
}

// The host reads after the frame's fence: the barrier makes the write visible to it, and the next
// frame's write waits for the last device write only (the fence wait ordered the host read).
TEST(BufferBarriers, HostReadAfterTheFrameAndTheNextFramesWrite) {
  BarrierTracker t;
  none(t, kBuf, BufferUsage::StorageWriteCompute);
  EXPECT_EQ(one(t, kBuf, BufferUsage::HostRead),
            (BufferBarrier{kBuf, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_HOST_BIT,
                           VK_ACCESS_2_HOST_READ_BIT}));
  EXPECT_EQ(one(t, kBuf, BufferUsage::StorageWriteCompute),
            (BufferBarrier{kBuf, kCompute, kStorageWrite, kCompute, kStorageWrite}));
}

// Every pair of usages, in order: the barrier is exactly what the two usages declare, and there is
// one whenever either access writes. (The fixed-value tests above pin the usage table itself.)
TEST(BufferBarriers, EveryPairFollowsTheDeclaredUsages) {
  for (BufferUsage first : kAllBufferUsages)
    for (BufferUsage second : kAllBufferUsages) {
      SCOPED_TRACE(std::string(usage_name(first)) + " then " + usage_name(second));
      const BufferUsageInfo a = usage_info(first), b = usage_info(second);
      BarrierTracker t;
      t.access(kBuf, first);
      const std::optional<BufferBarrier> got = t.access(kBuf, second);
      // Reads by the host are ordered by the fence wait, not by a barrier.
      const bool first_waited_for = a.writes || a.stage != VK_PIPELINE_STAGE_2_HOST_BIT;
      const bool needed = a.writes || (b.writes && first_waited_for);
      ASSERT_EQ(got.has_value(), needed);
      if (!got) continue;
      EXPECT_EQ(got->src_stage, a.stage);
      EXPECT_EQ(got->src_access, a.writes ? write_accesses(a.access) : kNone);
      EXPECT_EQ(got->dst_stage, b.stage);
      EXPECT_EQ(got->dst_access, b.access);
    }
}

TEST(BufferBarriers, BuffersAndImagesAreTrackedApart) {
  BarrierTracker t;
  none(t, 0, BufferUsage::StorageWriteCompute);
  // Image 0 is another resource: its first use is a transition from UNDEFINED.
  EXPECT_EQ(one(t, SubresourceKey{0, 0}, Usage::StorageReadCompute),
            barrier({0, 0}, VK_PIPELINE_STAGE_2_NONE, kNone, kCompute, kStorageRead, kUndefined, kGeneral));
  none(t, 1, BufferUsage::StorageReadCompute);  // another buffer
  EXPECT_TRUE(t.access(0, BufferUsage::StorageReadCompute).has_value());
  t.forget_buffer(0);
  none(t, 0, BufferUsage::StorageWriteCompute);  // a new buffer behind the same key
  t.clear();
  none(t, 0, BufferUsage::StorageReadCompute);
}
