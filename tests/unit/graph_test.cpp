#include "graph/graph.h"
#include "graph/schedule.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

using namespace filterlab::graph;

namespace {

constexpr VkExtent2D kExtent{64, 48};

void noop(PassContext&) {}

void declare(RenderGraph& g, std::initializer_list<const char*> names, ImageDesc desc = {}) {
  for (const char* n : names) g.declare_image(n, desc);
}

ImageDesc mips(uint32_t levels) {
  ImageDesc d;
  d.mip_levels = levels;
  return d;
}

ImageDesc sized(SizeRule rule) {
  ImageDesc d;
  d.size = std::move(rule);
  return d;
}

// Compute pass reading `in` (sampled, unless empty) and writing `out` (storage).
PassBuilder filter(RenderGraph& g, const std::string& name, const std::string& in, const std::string& out) {
  PassBuilder b = g.add_pass(name, PassKind::Compute);
  if (!in.empty()) b.read(in, Usage::SampledCompute);
  b.write(out, Usage::StorageWriteCompute).execute(noop);
  return b;
}

std::vector<std::string> live(const CompiledGraph& c) {
  std::vector<std::string> names;
  for (const CompiledPass& p : c.passes) names.push_back(p.name);
  return names;
}

const CompiledImage& image(const CompiledGraph& c, const std::string& name) {
  auto i = c.find_image(name);
  if (!i) throw std::runtime_error("no compiled image " + name);
  return c.images[*i];
}

// By a view, not a string reference: GCC 14 takes a returned reference beside a string made from a
// literal for one that may dangle (-Wdangling-reference, Debian 13).
const CompiledPass& pass(const CompiledGraph& c, std::string_view name) {
  for (const CompiledPass& p : c.passes)
    if (p.name == name) return p;
  throw std::runtime_error("no compiled pass " + std::string(name));
}

// The GraphError message `f` throws, or a marker that makes substring checks fail.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const GraphError& e) {
    return e.what();
  }
  return "<no GraphError>";
}

std::string compile_error(const RenderGraph& g, std::vector<std::string> outputs = {"final"},
                          VkExtent2D extent = kExtent) {
  return error_of([&] { g.compile(outputs, extent); });
}

using Names = std::vector<std::string>;

}  // namespace

// ---- ordering and culling ----------------------------------------------------------------------

TEST(GraphOrder, LivePassesKeepDeclarationOrder) {
  RenderGraph g;
  declare(g, {"u", "v", "final"});
  filter(g, "make_v", "", "v");
  filter(g, "make_u", "", "u");
  g.add_pass("combine", PassKind::Compute)
      .read("u", Usage::SampledCompute)
      .read("v", Usage::StorageReadCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"make_v", "make_u", "combine"}));
  EXPECT_TRUE(c.culled.empty());
  ASSERT_EQ(c.passes.size(), 3u);
  EXPECT_EQ(c.passes[0].decl, 0u);
  EXPECT_EQ(c.passes[1].decl, 1u);
  EXPECT_EQ(c.passes[2].decl, 2u);
  EXPECT_EQ(c.passes[2].kind, PassKind::Compute);
  EXPECT_EQ(c.output_extent.width, kExtent.width);
  EXPECT_EQ(c.output_extent.height, kExtent.height);
}

TEST(GraphCull, PassReachingNoOutputIsCulled) {
  RenderGraph g;
  declare(g, {"unused", "final"});
  filter(g, "dead", "", "unused");
  filter(g, "alive", "", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"alive"}));
  EXPECT_EQ(c.culled, (Names{"dead"}));
  EXPECT_FALSE(c.find_image("unused").has_value());
}

// A step that writes two images names the one that continues the chain after itself: an alias.
// Reading, sizing and asking for the alias are reading, sizing and asking for its image.
TEST(GraphAlias, AnAliasIsItsImage) {
  RenderGraph g;
  declare(g, {"scene", "stats.mean", "stats.stddev", "final"});
  g.add_pass("scene", PassKind::Graphics).color("scene", VkClearColorValue{}).execute(noop);
  g.add_pass("stats", PassKind::Compute)
      .read("scene", Usage::SampledCompute)
      .write("stats.mean", Usage::StorageWriteCompute)
      .write("stats.stddev", Usage::StorageWriteCompute)
      .execute(noop);
  g.alias_image("stats", "stats.mean");
  g.alias_image("stats.continuing", "stats");  // an alias of an alias names the image
  g.declare_image("half", sized(SizeRule::relative_to("stats", 0.5f)));
  filter(g, "tonemap", "stats", "final");
  filter(g, "half", "stats.continuing", "half");
  EXPECT_TRUE(g.has_image("stats"));
  const CompiledGraph c = g.compile({"final", "half", "stats"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "stats", "tonemap", "half"}));
  EXPECT_EQ(c.find_image("stats"), c.find_image("stats.mean"));
  EXPECT_EQ(c.find_image("stats.continuing"), c.find_image("stats.mean"));
  EXPECT_EQ(c.canonical("stats.continuing"), "stats.mean");
  EXPECT_EQ(image(c, "half").extent.width, kExtent.width / 2);
  // A name taken, or an image that is not there, is refused.
  EXPECT_NE(error_of([&] { g.alias_image("final", "stats.mean"); }).find("already declared"),
            std::string::npos);
  EXPECT_NE(error_of([&] { g.alias_image("ghost.alias", "ghost"); }).find("not declared"), std::string::npos);
}

TEST(GraphCull, ChainSurvivesSideBranchIsCulled) {
  RenderGraph g;
  declare(g, {"scene", "blurred", "final", "hist", "hist_vis"});
  g.add_pass("scene", PassKind::Graphics).color("scene", VkClearColorValue{}).execute(noop);
  filter(g, "histogram", "scene", "hist");
  filter(g, "blur", "scene", "blurred");
  filter(g, "hist_vis", "hist", "hist_vis");
  filter(g, "tonemap", "blurred", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "blur", "tonemap"}));
  EXPECT_EQ(c.culled, (Names{"histogram", "hist_vis"}));
  EXPECT_FALSE(c.find_image("hist").has_value());
  EXPECT_FALSE(c.find_image("hist_vis").has_value());
  EXPECT_EQ(c.images.size(), 3u);
}

TEST(GraphCull, SideEffectKeepsPassAndItsProducers) {
  RenderGraph g;
  declare(g, {"scene", "hist", "final"});
  filter(g, "scene", "", "scene");
  filter(g, "histogram", "scene", "hist");
  g.add_pass("readback", PassKind::Transfer).read("hist", Usage::TransferSrc).side_effect().execute(noop);
  filter(g, "tonemap", "scene", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "histogram", "readback", "tonemap"}));
  EXPECT_TRUE(c.culled.empty());

  // Without side_effect() the readback and its producer are culled.
  RenderGraph h;
  declare(h, {"scene", "hist", "final"});
  filter(h, "scene", "", "scene");
  filter(h, "histogram", "scene", "hist");
  h.add_pass("readback", PassKind::Transfer).read("hist", Usage::TransferSrc).execute(noop);
  filter(h, "tonemap", "scene", "final");
  EXPECT_EQ(h.compile({"final"}, kExtent).culled, (Names{"histogram", "readback"}));
}

TEST(GraphCull, FullOverwriteKillsEarlierWriter) {
  RenderGraph g;
  declare(g, {"x", "final"});
  filter(g, "first", "", "x");
  filter(g, "second", "", "x");  // writes all of x without reading it
  filter(g, "use", "x", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"second", "use"}));
  EXPECT_EQ(c.culled, (Names{"first"}));
  EXPECT_EQ(image(c, "x").producer, "second");
}

TEST(GraphCull, ClearedAttachmentKillsEarlierWriter) {
  RenderGraph g;
  declare(g, {"final"});
  g.add_pass("a", PassKind::Graphics).color("final", VkClearColorValue{}).execute(noop);
  g.add_pass("b", PassKind::Graphics).color("final", VkClearColorValue{}).execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"b"}));
  EXPECT_EQ(c.culled, (Names{"a"}));
}

// An attachment declared without a clear value loads the previous contents, so the pass reads
// them: the earlier writer must stay alive.
TEST(GraphCull, LoadedColorAttachmentKeepsEarlierWriter) {
  RenderGraph g;
  declare(g, {"final"});
  g.add_pass("scene", PassKind::Graphics).color("final", VkClearColorValue{}).execute(noop);
  g.add_pass("overlay", PassKind::Graphics).color("final").execute(noop);  // load
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "overlay"}));
  EXPECT_TRUE(c.culled.empty());
}

TEST(GraphCull, LoadedDepthAttachmentKeepsDepthPrepass) {
  RenderGraph g;
  declare(g, {"depth", "final"});
  g.add_pass("prepass", PassKind::Graphics).depth("depth", 1.0f).execute(noop);
  g.add_pass("main", PassKind::Graphics)
      .depth("depth")  // load: depth-tests against the prepass
      .color("final", VkClearColorValue{})
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"prepass", "main"}));
  EXPECT_TRUE(c.culled.empty());
}

TEST(GraphCull, ReadWriteKeepsEarlierWriter) {
  RenderGraph g;
  declare(g, {"x", "final"});
  filter(g, "first", "", "x");
  g.add_pass("accumulate", PassKind::Compute).read_write("x").execute(noop);
  filter(g, "use", "x", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"first", "accumulate", "use"}));
  EXPECT_TRUE(c.culled.empty());
  const CompiledAccess& a = pass(c, "accumulate").accesses.at(0);
  EXPECT_EQ(a.usage, Usage::StorageReadWriteCompute);
  EXPECT_EQ(image(c, "x").producer, "first");
}

TEST(GraphCull, PartialOverwriteKeepsWriterOfOtherMips) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_image("x", mips(2));
  filter(g, "all_mips", "", "x");
  g.add_pass("mip0", PassKind::Compute).write("x", Usage::StorageWriteCompute, mip(0)).execute(noop);
  filter(g, "use", "x", "final");
  EXPECT_EQ(live(g.compile({"final"}, kExtent)), (Names{"all_mips", "mip0", "use"}));
}

TEST(GraphCull, ExtraOutputsKeepTheirProducers) {
  RenderGraph g;
  declare(g, {"scene", "debug", "final"});
  filter(g, "scene", "", "scene");
  filter(g, "debug_view", "scene", "debug");
  filter(g, "tonemap", "scene", "final");
  EXPECT_EQ(g.compile({"final"}, kExtent).culled, (Names{"debug_view"}));
  CompiledGraph c = g.compile({"final", "debug"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "debug_view", "tonemap"}));
  EXPECT_TRUE(c.culled.empty());
  EXPECT_EQ(image(c, "debug").producer, "debug_view");
}

// ---- history -----------------------------------------------------------------------------------

TEST(GraphHistory, TaaReadsItsPreviousFrame) {
  RenderGraph g;
  declare(g, {"scene", "taa", "final"});
  filter(g, "scene", "", "scene");
  g.add_pass("taa", PassKind::Compute)
      .read("scene", Usage::SampledCompute)
      .read_history("taa", Usage::SampledCompute)
      .write("taa", Usage::StorageWriteCompute)
      .execute(noop);
  filter(g, "tonemap", "taa", "final");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "taa", "tonemap"}));
  EXPECT_TRUE(image(c, "taa").history);
  EXPECT_FALSE(image(c, "scene").history);
  EXPECT_FALSE(image(c, "final").history);
  EXPECT_EQ(image(c, "taa").producer, "taa");

  const CompiledPass& taa = pass(c, "taa");
  ASSERT_EQ(taa.accesses.size(), 3u);
  EXPECT_FALSE(taa.accesses[0].history);
  EXPECT_TRUE(taa.accesses[1].history);
  EXPECT_EQ(taa.accesses[1].image, *c.find_image("taa"));
  EXPECT_EQ(taa.accesses[1].usage, Usage::SampledCompute);
  EXPECT_EQ(taa.accesses[1].base_mip, 0u);
  EXPECT_EQ(taa.accesses[1].mip_count, 1u);
  EXPECT_FALSE(taa.accesses[2].history);
  EXPECT_EQ(taa.accesses[2].image, *c.find_image("taa"));
}

TEST(GraphHistory, ProducerOfNextFramesHistoryStaysLive) {
  RenderGraph g;
  declare(g, {"scene", "taa", "final", "prep", "accum", "accum2"});
  filter(g, "scene", "", "scene");
  g.add_pass("resolve", PassKind::Compute)
      .read("scene", Usage::SampledCompute)
      .read_history("accum", Usage::SampledCompute)
      .write("taa", Usage::StorageWriteCompute)
      .execute(noop);
  filter(g, "tonemap", "taa", "final");
  filter(g, "prep", "", "prep");
  filter(g, "reprep", "scene", "prep");        // overwrites all of prep, so "prep" is dead
  g.add_pass("accumulate", PassKind::Compute)  // nothing reads accum in this frame
      .read("prep", Usage::SampledCompute)
      .read_history("accum2", Usage::SampledCompute)
      .write("accum", Usage::StorageWriteCompute)
      .execute(noop);
  filter(g, "accumulate2", "scene", "accum2");  // needed only through accumulate's history
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "resolve", "tonemap", "reprep", "accumulate", "accumulate2"}));
  EXPECT_EQ(c.culled, (Names{"prep"}));
  EXPECT_TRUE(image(c, "accum").history);
  EXPECT_TRUE(image(c, "accum2").history);
  EXPECT_FALSE(image(c, "taa").history);
  EXPECT_EQ(image(c, "accum").producer, "accumulate");
}

TEST(GraphHistory, HistoryOfCulledReaderDoesNotKeepProducer) {
  RenderGraph g;
  declare(g, {"scene", "taa", "final", "accum"});
  filter(g, "scene", "", "scene");
  g.add_pass("resolve", PassKind::Compute)
      .read_history("accum", Usage::SampledCompute)
      .write("taa", Usage::StorageWriteCompute)
      .execute(noop);
  filter(g, "tonemap", "scene", "final");  // does not read taa
  filter(g, "accumulate", "scene", "accum");
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "tonemap"}));
  EXPECT_EQ(c.culled, (Names{"resolve", "accumulate"}));
  EXPECT_FALSE(c.find_image("accum").has_value());
}

// ---- mip levels --------------------------------------------------------------------------------

TEST(GraphMips, MipChainAccessesResolveToSingleLevels) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_image("pyr", mips(4));
  g.add_pass("m0", PassKind::Compute).write("pyr", Usage::StorageWriteCompute, mip(0)).execute(noop);
  for (uint32_t m = 1; m < 4; ++m)
    g.add_pass("m" + std::to_string(m), PassKind::Compute)
        .read("pyr", Usage::SampledCompute, mip(m - 1))
        .write("pyr", Usage::StorageWriteCompute, mip(m))
        .execute(noop);
  g.add_pass("use", PassKind::Compute)
      .read("pyr", Usage::SampledCompute)  // default range: every level
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"m0", "m1", "m2", "m3", "use"}));
  const uint32_t pyr = *c.find_image("pyr");
  EXPECT_EQ(image(c, "pyr").desc.mip_levels, 4u);
  EXPECT_EQ(image(c, "pyr").producer, "m0");
  const CompiledAccess& w0 = pass(c, "m0").accesses.at(0);
  EXPECT_EQ(w0.image, pyr);
  EXPECT_EQ(w0.base_mip, 0u);
  EXPECT_EQ(w0.mip_count, 1u);
  const CompiledPass& m2 = pass(c, "m2");
  ASSERT_EQ(m2.accesses.size(), 2u);
  EXPECT_EQ(m2.accesses[0].base_mip, 1u);
  EXPECT_EQ(m2.accesses[0].mip_count, 1u);
  EXPECT_EQ(m2.accesses[0].usage, Usage::SampledCompute);
  EXPECT_EQ(m2.accesses[1].base_mip, 2u);
  EXPECT_EQ(m2.accesses[1].mip_count, 1u);
  EXPECT_EQ(m2.accesses[1].usage, Usage::StorageWriteCompute);
  const CompiledAccess& all = pass(c, "use").accesses.at(0);
  EXPECT_EQ(all.image, pyr);
  EXPECT_EQ(all.base_mip, 0u);
  EXPECT_EQ(all.mip_count, 4u);
  EXPECT_EQ(pass(c, "use").accesses.at(1).mip_count, 1u);  // final has one level
}

TEST(GraphMips, RangeFromBaseToEndAndCullingPerMip) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_image("pyr", mips(4));
  filter(g, "fill", "", "pyr");
  g.add_pass("top", PassKind::Compute).write("pyr", Usage::StorageWriteCompute, mip(3)).execute(noop);
  g.add_pass("use", PassKind::Compute)
      .read("pyr", Usage::SampledCompute, MipRange{1, kAllMips})
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"fill", "top", "use"}));
  const CompiledAccess& a = pass(c, "use").accesses.at(0);
  EXPECT_EQ(a.base_mip, 1u);
  EXPECT_EQ(a.mip_count, 3u);

  // Reading only levels 0..2 leaves the pass writing just level 3 without a reader.
  RenderGraph h;
  declare(h, {"final"});
  h.declare_image("pyr", mips(4));
  filter(h, "fill", "", "pyr");
  h.add_pass("top", PassKind::Compute).write("pyr", Usage::StorageWriteCompute, mip(3)).execute(noop);
  h.add_pass("use", PassKind::Compute)
      .read("pyr", Usage::SampledCompute, MipRange{0, 3})
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_EQ(h.compile({"final"}, kExtent).culled, (Names{"top"}));
}

TEST(GraphMips, ReadingUnwrittenMipNamesPassImageAndMip) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_image("pyr", mips(4));
  g.add_pass("m0", PassKind::Compute).write("pyr", Usage::StorageWriteCompute, mip(0)).execute(noop);
  g.add_pass("m1", PassKind::Compute)
      .read("pyr", Usage::SampledCompute, mip(2))
      .write("pyr", Usage::StorageWriteCompute, mip(1))
      .execute(noop);
  filter(g, "use", "", "final");
  EXPECT_EQ(compile_error(g), "pass 'm1' reads image 'pyr' mip 2, which no earlier pass writes");
}

TEST(GraphMips, MipOutOfRangeIsAnError) {
  auto graph_with = [](MipRange range) {
    RenderGraph g;
    declare(g, {"final"});
    g.declare_image("pyr", mips(4));
    g.add_pass("p", PassKind::Compute)
        .write("pyr", Usage::StorageWriteCompute, range)
        .write("final", Usage::StorageWriteCompute)
        .execute(noop);
    return g;
  };
  EXPECT_EQ(compile_error(graph_with(mip(4))),
            "pass 'p' accesses mip 4 of image 'pyr', which has 4 level(s)");
  EXPECT_NE(compile_error(graph_with(MipRange{2, 3})).find("image 'pyr'"), std::string::npos);
  EXPECT_NE(compile_error(graph_with(MipRange{1, 0})).find("pass 'p'"), std::string::npos);
  EXPECT_NE(compile_error(graph_with(MipRange{4, kAllMips})).find("mip 4"), std::string::npos);
  EXPECT_EQ(compile_error(graph_with(MipRange{3, 1})), "<no GraphError>");
}

// base + count overflowing 32 bits must not slip through the range check.
TEST(GraphMips, HugeMipCountIsAnError) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_image("pyr", mips(4));
  filter(g, "fill", "", "pyr");
  g.add_pass("p", PassKind::Compute)
      .read("pyr", Usage::SampledCompute, MipRange{2, 0xFFFFFFFEu})
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_NE(compile_error(g).find("pass 'p' accesses mip 2 of image 'pyr'"), std::string::npos);
}

TEST(GraphMips, ZeroMipLevelsIsAnError) {
  RenderGraph g;
  EXPECT_EQ(error_of([&] { g.declare_image("z", mips(0)); }), "image 'z' has zero mip levels");
}

// ---- sizes -------------------------------------------------------------------------------------

namespace {

// One pass writes every image, so all of them are live and compiled.
CompiledGraph compile_sizes(RenderGraph& g, VkExtent2D extent, VkExtent2D surface = {}) {
  PassBuilder b = g.add_pass("all", PassKind::Compute);
  for (const std::string& name : g.image_names()) b.write(name, Usage::StorageWriteCompute);
  b.execute(noop);
  return g.compile({"final"}, extent, surface);
}

void expect_extent(const CompiledGraph& c, const std::string& name, uint32_t w, uint32_t h) {
  EXPECT_EQ(image(c, name).extent.width, w) << name;
  EXPECT_EQ(image(c, name).extent.height, h) << name;
}

}  // namespace

TEST(GraphSizes, RulesResolve) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("half", sized(SizeRule::output(0.5f)));
  g.declare_image("fixed", sized(SizeRule::absolute(17, 5)));
  g.declare_image("quarter_of_full", sized(SizeRule::relative_to("half_of_full", 0.5f)));
  g.declare_image("half_of_full", sized(SizeRule::relative_to("full", 0.5f)));
  g.declare_image("full", sized(SizeRule::output()));
  g.declare_image("of_fixed", sized(SizeRule::relative_to("fixed", 2.0f)));
  g.declare_image("tiny", sized(SizeRule::output(0.001f)));
  CompiledGraph c = compile_sizes(g, {333, 197});
  expect_extent(c, "final", 333, 197);
  expect_extent(c, "half", 167, 99);  // 166.5 x 98.5 rounded up
  expect_extent(c, "fixed", 17, 5);
  expect_extent(c, "full", 333, 197);
  expect_extent(c, "half_of_full", 167, 99);
  expect_extent(c, "quarter_of_full", 84, 50);
  expect_extent(c, "of_fixed", 34, 10);
  expect_extent(c, "tiny", 1, 1);
  EXPECT_EQ(c.output_extent.width, 333u);
  EXPECT_EQ(c.output_extent.height, 197u);
}

// The window's graph renders its content at the viewport's size (the output) and composes it into
// an image of the whole window's (the surface): a surface image follows the surface, and is the
// output's size where no surface is given (headless).
TEST(GraphSizes, ASurfaceImageFollowsTheSurface) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("window", sized(SizeRule::surface()));
  g.declare_image("of_window", sized(SizeRule::relative_to("window", 0.5f)));
  CompiledGraph c = compile_sizes(g, {538, 540}, {960, 540});
  expect_extent(c, "final", 538, 540);
  expect_extent(c, "window", 960, 540);
  expect_extent(c, "of_window", 480, 270);
  EXPECT_EQ(c.surface_extent.width, 960u);
  RenderGraph h;
  h.declare_image("final", {});
  h.declare_image("window", sized(SizeRule::surface()));
  expect_extent(compile_sizes(h, {538, 540}), "window", 538, 540);
}

// A scale stored as float (0.2f is 0.2000000030) must not round an exact product up.
TEST(GraphSizes, InexactFloatScaleDoesNotRoundUpExactProducts) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("fifth", sized(SizeRule::output(0.2f)));
  g.declare_image("tenth", sized(SizeRule::relative_to("final", 0.1f)));
  CompiledGraph c = compile_sizes(g, {1920, 1080});
  expect_extent(c, "fifth", 384, 216);
  expect_extent(c, "tenth", 192, 108);
}

TEST(GraphSizes, CycleIsAnError) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("a", sized(SizeRule::relative_to("b")));
  g.declare_image("b", sized(SizeRule::relative_to("a")));
  std::string e = error_of([&] { compile_sizes(g, kExtent); });
  EXPECT_NE(e.find("cycle"), std::string::npos) << e;
  EXPECT_NE(e.find("a -> b -> a"), std::string::npos) << e;

  RenderGraph self;
  self.declare_image("final", sized(SizeRule::relative_to("final")));
  e = error_of([&] { compile_sizes(self, kExtent); });
  EXPECT_NE(e.find("cycle final -> final"), std::string::npos) << e;
}

TEST(GraphSizes, RelativeToUndeclaredImageIsAnError) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("a", sized(SizeRule::relative_to("ghost")));
  std::string e = error_of([&] { compile_sizes(g, kExtent); });
  EXPECT_NE(e.find("image 'a'"), std::string::npos) << e;
  EXPECT_NE(e.find("'ghost', which is not declared"), std::string::npos) << e;
}

TEST(GraphSizes, ZeroAbsoluteSizeIsAnError) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("flat", sized(SizeRule::absolute(8, 0)));
  std::string e = error_of([&] { compile_sizes(g, kExtent); });
  EXPECT_NE(e.find("image 'flat'"), std::string::npos) << e;
}

TEST(GraphSizes, ZeroOutputSizeIsAnError) {
  RenderGraph g;
  declare(g, {"final"});
  filter(g, "p", "", "final");
  EXPECT_EQ(compile_error(g, {"final"}, {0, 10}), "output size must be at least 1x1");
  EXPECT_EQ(compile_error(g, {"final"}, {10, 0}), "output size must be at least 1x1");
  EXPECT_EQ(compile_error(g, {"final"}, {1, 1}), "<no GraphError>");
}

// ---- declaration errors ------------------------------------------------------------------------

TEST(GraphErrors, ReadWithoutEarlierWriter) {
  RenderGraph g;
  declare(g, {"x", "final"});
  filter(g, "early", "x", "final");
  filter(g, "late", "", "x");  // writes x, but after the read
  EXPECT_EQ(compile_error(g), "pass 'early' reads image 'x', which no earlier pass writes");

  RenderGraph rw;
  declare(rw, {"final"});
  rw.add_pass("acc", PassKind::Compute).read_write("final").execute(noop);
  EXPECT_EQ(compile_error(rw), "pass 'acc' reads image 'final', which no earlier pass writes");
}

TEST(GraphErrors, UndeclaredImage) {
  RenderGraph g;
  declare(g, {"final"});
  filter(g, "p", "nope", "final");
  EXPECT_EQ(compile_error(g), "pass 'p' uses image 'nope', which is not declared");
  EXPECT_EQ(error_of([&] { g.image_desc("nope"); }), "image 'nope' is not declared");
}

TEST(GraphErrors, UsageNotAllowedForPassKind) {
  RenderGraph g;
  declare(g, {"x", "final"});
  g.add_pass("c", PassKind::Compute).color("x").write("final", Usage::StorageWriteCompute).execute(noop);
  EXPECT_EQ(compile_error(g), "pass 'c' is a compute pass and cannot use image 'x' as color-attachment");

  RenderGraph gfx;
  declare(gfx, {"final"});
  gfx.add_pass("g", PassKind::Graphics).write("final", Usage::StorageWriteCompute).execute(noop);
  EXPECT_EQ(compile_error(gfx), "pass 'g' is a graphics pass and cannot use image 'final' as storage-write");

  RenderGraph xfer;
  declare(xfer, {"final"});
  xfer.add_pass("t", PassKind::Transfer).depth("final").execute(noop);
  EXPECT_EQ(compile_error(xfer),
            "pass 't' is a transfer pass and cannot use image 'final' as depth-attachment");
}

TEST(GraphErrors, OwnRenderPassOnlyForGraphicsPasses) {
  RenderGraph g;
  declare(g, {"final"});
  g.add_pass("c", PassKind::Compute)
      .write("final", Usage::StorageWriteCompute)
      .own_render_pass()
      .execute(noop);
  EXPECT_EQ(compile_error(g), "pass 'c' is not a graphics pass and cannot begin its own render pass");

  RenderGraph ui;  // the UI pass: draws over an image another pass wrote, in its own render pass
  declare(ui, {"final"});
  ui.add_pass("w", PassKind::Compute).write("final", Usage::StorageWriteCompute).execute(noop);
  ui.add_pass("ui", PassKind::Graphics).color("final").own_render_pass().execute(noop);
  const CompiledGraph c = ui.compile({"final"}, {8, 8});
  ASSERT_EQ(c.passes.size(), 2u);
  EXPECT_TRUE(ui.passes()[c.passes[1].decl].own_render_pass);
}

TEST(GraphErrors, SameSubresourceTwiceInOnePass) {
  RenderGraph g;
  declare(g, {"x", "final"});
  filter(g, "make", "", "x");
  g.add_pass("p", PassKind::Compute)
      .read("x", Usage::SampledCompute)
      .write("x", Usage::StorageWriteCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_EQ(compile_error(g), "pass 'p' accesses image 'x' mip 0 twice");

  RenderGraph m;
  declare(m, {"final"});
  m.declare_image("pyr", mips(3));
  filter(m, "make", "", "pyr");
  m.add_pass("p", PassKind::Compute)
      .read("pyr", Usage::SampledCompute, MipRange{0, 2})
      .write("pyr", Usage::StorageWriteCompute, MipRange{1, kAllMips})
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_EQ(compile_error(m), "pass 'p' accesses image 'pyr' mip 1 twice");
}

TEST(GraphErrors, DuplicateDeclarations) {
  RenderGraph g;
  declare(g, {"x"});
  EXPECT_EQ(error_of([&] { g.declare_image("x", {}); }), "'x' is already declared as an image");
  g.add_pass("p", PassKind::Compute);
  EXPECT_EQ(error_of([&] { g.add_pass("p", PassKind::Graphics); }), "pass 'p' is declared twice");
  EXPECT_EQ(g.passes().size(), 1u);
  EXPECT_EQ(g.image_names(), (Names{"x"}));
}

TEST(GraphErrors, HistoryOfImageNoPassWrites) {
  RenderGraph g;
  declare(g, {"h", "final"});
  g.add_pass("p", PassKind::Compute)
      .read_history("h", Usage::SampledCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_EQ(compile_error(g), "pass 'p' reads the previous frame of image 'h', which no pass writes");
}

TEST(GraphErrors, HistoryWriteIsAnError) {
  RenderGraph g;
  declare(g, {"final"});
  g.add_pass("p", PassKind::Compute)
      .read_history("final", Usage::StorageWriteCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  EXPECT_EQ(compile_error(g), "pass 'p' writes the previous frame of 'final'");
}

TEST(GraphErrors, OutputNotDeclaredOrNotWritten) {
  RenderGraph g;
  declare(g, {"final", "never"});
  filter(g, "p", "", "final");
  EXPECT_EQ(compile_error(g, {"final", "ghost"}), "output image 'ghost' is not declared");
  EXPECT_EQ(compile_error(g, {"never"}), "output image 'never' is not written by any pass");
}

TEST(GraphErrors, PassWithoutCallback) {
  RenderGraph g;
  declare(g, {"final"});
  g.add_pass("lazy", PassKind::Compute).write("final", Usage::StorageWriteCompute);
  EXPECT_EQ(compile_error(g), "pass 'lazy' has no execute callback");
}

// ---- compiled images ---------------------------------------------------------------------------

TEST(GraphImages, UsageFlagsAndProducer) {
  RenderGraph g;
  ImageDesc depth_desc;
  depth_desc.format = VK_FORMAT_D32_SFLOAT;
  g.declare_image("depth", depth_desc);
  declare(g, {"scene", "final", "unused_read"});
  g.add_pass("draw", PassKind::Graphics)
      .depth("depth", 1.0f)
      .color("scene", VkClearColorValue{})
      .execute(noop);
  g.add_pass("copy", PassKind::Transfer)
      .read("scene", Usage::TransferSrc)
      .write("final", Usage::TransferDst)
      .execute(noop);
  g.add_pass("post", PassKind::Compute)  // writes final too, but is not its producer
      .read("scene", Usage::SampledCompute)
      .read_write("final")
      .execute(noop);
  g.add_pass("dead", PassKind::Compute)
      .read("scene", Usage::StorageReadCompute)
      .write("unused_read", Usage::StorageWriteCompute)
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(c.culled, (Names{"dead"}));
  constexpr VkImageUsageFlags kTransfer = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  EXPECT_EQ(image(c, "scene").usage,
            VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | kTransfer));
  EXPECT_EQ(image(c, "depth").usage,
            VkImageUsageFlags(VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | kTransfer));
  EXPECT_EQ(image(c, "final").usage, VkImageUsageFlags(VK_IMAGE_USAGE_STORAGE_BIT | kTransfer));
  EXPECT_EQ(image(c, "scene").producer, "draw");
  EXPECT_EQ(image(c, "depth").producer, "draw");
  EXPECT_EQ(image(c, "final").producer, "copy");
  EXPECT_EQ(image(c, "depth").desc.format, VK_FORMAT_D32_SFLOAT);
  expect_extent(c, "depth", kExtent.width, kExtent.height);

  // Attachment clears travel to the compiled access.
  const CompiledPass& draw = pass(c, "draw");
  ASSERT_EQ(draw.accesses.size(), 2u);
  EXPECT_TRUE(draw.accesses[0].attachment.clear);
  EXPECT_EQ(draw.accesses[0].attachment.value.depthStencil.depth, 1.0f);
  EXPECT_EQ(draw.accesses[0].usage, Usage::DepthAttachment);
  EXPECT_EQ(draw.accesses[1].usage, Usage::ColorAttachment);
  EXPECT_EQ(draw.kind, PassKind::Graphics);
  EXPECT_EQ(pass(c, "copy").kind, PassKind::Transfer);
}

// ---- buffers -----------------------------------------------------------------------------------

namespace {

constexpr VkPipelineStageFlags2 kComputeStage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;

// Compute pass writing the buffer `out` (storage) from the image `in` (sampled, unless empty).
PassBuilder reduce(RenderGraph& g, const std::string& name, const std::string& in, const std::string& out) {
  PassBuilder b = g.add_pass(name, PassKind::Compute);
  if (!in.empty()) b.read(in, Usage::SampledCompute);
  b.write_buffer(out).execute(noop);
  return b;
}

// Compute pass reading the buffer `in` (storage, read-only) and writing the image `out`.
PassBuilder show(RenderGraph& g, const std::string& name, const std::string& in, const std::string& out) {
  PassBuilder b = g.add_pass(name, PassKind::Compute);
  b.read_buffer(in).write(out, Usage::StorageWriteCompute).execute(noop);
  return b;
}

const CompiledBuffer& buffer(const CompiledGraph& c, const std::string& name) {
  auto i = c.find_buffer(name);
  if (!i) throw std::runtime_error("no compiled buffer " + name);
  return c.buffers[*i];
}

// The first live pass, in execution order, that writes the buffer; empty if none does.
std::string first_writer(const CompiledGraph& c, const std::string& buffer_name) {
  auto i = c.find_buffer(buffer_name);
  if (!i) throw std::runtime_error("no compiled buffer " + buffer_name);
  for (const CompiledPass& p : c.passes)
    for (const auto& [b, usage] : p.buffer_accesses)
      if (b == *i && usage_info(usage).writes) return p.name;
  return {};
}

// The barriers of one frame, with each compiled buffer known by 100 + its index.
FrameBarriers barriers_of(const CompiledGraph& c, BarrierTracker& tracker, uint64_t frame = 0) {
  std::vector<uint64_t> keys;
  for (size_t i = 0; i < c.buffers.size(); ++i) keys.push_back(100 + i);
  return frame_barriers(c, assign_physical_ids(c), keys, tracker, frame);
}

uint64_t key_of(const CompiledGraph& c, const std::string& name) {
  return 100 + *c.find_buffer(name);
}

ExternalBuffer no_buffer(uint32_t) {
  return {};
}

}  // namespace

TEST(GraphBuffers, WriterThenReaderGetsOneBarrierWithTheWritersScope) {
  RenderGraph g;
  declare(g, {"scene", "final"});
  g.declare_buffer("sums", {BufferSize::fixed(64)});
  filter(g, "scene", "", "scene");
  reduce(g, "reduce", "scene", "sums");
  show(g, "show", "sums", "final");
  const CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "reduce", "show"}));
  BarrierTracker tracker;
  FrameBarriers f = barriers_of(c, tracker);
  ASSERT_EQ(f.passes.size(), 3u);
  EXPECT_TRUE(f.passes[1].buffers.empty()) << "first use of the buffer";
  ASSERT_EQ(f.passes[2].buffers.size(), 1u);
  EXPECT_EQ(f.passes[2].buffers[0],
            (BufferBarrier{key_of(c, "sums"), kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           kComputeStage, VK_ACCESS_2_SHADER_STORAGE_READ_BIT}));
  EXPECT_TRUE(f.end.empty());
  // The next frame's write waits for this frame's read and the write before it.
  f = barriers_of(c, tracker, 1);
  ASSERT_EQ(f.passes[1].buffers.size(), 1u);
  EXPECT_EQ(f.passes[1].buffers[0],
            (BufferBarrier{key_of(c, "sums"), kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT}));
  ASSERT_EQ(f.passes[2].buffers.size(), 1u);
}

TEST(GraphBuffers, TwoReadersNeedNoBarrierBetweenThem) {
  RenderGraph g;
  declare(g, {"a", "b"});
  g.declare_buffer("sums", {BufferSize::fixed(16)});
  reduce(g, "reduce", "", "sums");
  show(g, "show a", "sums", "a");
  show(g, "show b", "sums", "b");
  const CompiledGraph c = g.compile({"a", "b"}, kExtent);
  BarrierTracker tracker;
  const FrameBarriers f = barriers_of(c, tracker);
  ASSERT_EQ(f.passes.size(), 3u);
  EXPECT_EQ(f.passes[1].buffers.size(), 1u);
  EXPECT_TRUE(f.passes[2].buffers.empty());
}

TEST(GraphBuffers, PassWhoseBufferReachesNothingIsCulled) {
  RenderGraph g;
  declare(g, {"scene", "final"});
  g.declare_buffer("histogram", {BufferSize::fixed(1024)});
  g.declare_buffer("exposure", {BufferSize::fixed(4)});
  g.declare_buffer("unused", {BufferSize::fixed(4)});
  filter(g, "scene", "", "scene");
  reduce(g, "histogram", "scene", "histogram");
  g.add_pass("exposure", PassKind::Compute).read_buffer("histogram").write_buffer("exposure").execute(noop);
  reduce(g, "statistics", "scene", "unused");  // nobody reads its buffer
  g.add_pass("tonemap", PassKind::Compute)
      .read("scene", Usage::SampledCompute)
      .read_buffer("exposure", BufferUsage::UniformCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "histogram", "exposure", "tonemap"}));
  EXPECT_EQ(c.culled, (Names{"statistics"}));
  EXPECT_FALSE(c.find_buffer("unused").has_value());
  EXPECT_EQ(buffer(c, "exposure").usage,
            VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT));
  EXPECT_EQ(first_writer(c, "exposure"), "exposure");

  // Without the tonemap reading it, the whole buffer chain is culled.
  RenderGraph h;
  declare(h, {"scene"});
  h.declare_buffer("histogram", {BufferSize::fixed(1024)});
  filter(h, "scene", "", "scene");
  reduce(h, "histogram", "scene", "histogram");
  EXPECT_EQ(h.compile({"scene"}, kExtent).culled, (Names{"histogram"}));
}

TEST(GraphBuffers, FullRewriteKillsEarlierWriterAndReadWriteKeepsIt) {
  RenderGraph g;
  declare(g, {"final"});
  g.declare_buffer("counts", {BufferSize::fixed(4)});
  reduce(g, "first", "", "counts");
  reduce(g, "second", "", "counts");
  show(g, "use", "counts", "final");
  EXPECT_EQ(g.compile({"final"}, kExtent).culled, (Names{"first"}));

  RenderGraph h;
  declare(h, {"final"});
  h.declare_buffer("counts", {BufferSize::fixed(4)});
  h.add_pass("clear", PassKind::Transfer).write_buffer("counts", BufferUsage::TransferDst).execute(noop);
  h.add_pass("count", PassKind::Compute).read_write_buffer("counts").execute(noop);
  show(h, "use", "counts", "final");
  const CompiledGraph c = h.compile({"final"}, kExtent);
  EXPECT_TRUE(c.culled.empty());
  BarrierTracker tracker;
  const FrameBarriers f = barriers_of(c, tracker);
  ASSERT_EQ(f.passes[1].buffers.size(), 1u);
  EXPECT_EQ(f.passes[1].buffers[0].src_access, VkAccessFlags2(VK_ACCESS_2_TRANSFER_WRITE_BIT));
  EXPECT_EQ(f.passes[1].buffers[0].dst_access,
            VkAccessFlags2(VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT));
}

// The culling contract (usage.h): a write-only usage overwrites everything later readers read, so
// the writer before it is dead; a pass that writes only part, or merely binds the resource
// writable, declares StorageReadWriteCompute, and that keeps the earlier writer alive.
TEST(GraphBuffers, ReadWriteKeepsTheEarlierWriterAliveAndAWriteOnlyUsageDoesNot) {
  for (const bool partial : {false, true}) {
    SCOPED_TRACE(partial ? "read-write" : "write-only");
    RenderGraph g;
    declare(g, {"final"});
    g.declare_buffer("sums", {BufferSize::fixed(16)});
    reduce(g, "fill", "", "sums");
    PassBuilder patch = g.add_pass("patch", PassKind::Compute);
    if (partial) patch.read_write_buffer("sums");
    else patch.write_buffer("sums");
    patch.execute(noop);
    show(g, "use", "sums", "final");
    const CompiledGraph c = g.compile({"final"}, kExtent);
    EXPECT_EQ(live(c), partial ? (Names{"fill", "patch", "use"}) : (Names{"patch", "use"}));
  }
  // Images follow the same contract.
  for (const bool partial : {false, true}) {
    SCOPED_TRACE(partial ? "image read-write" : "image write-only");
    RenderGraph g;
    declare(g, {"final"});
    filter(g, "fill", "", "final");
    PassBuilder patch = g.add_pass("patch", PassKind::Compute);
    if (partial) patch.read_write("final");
    else patch.write("final", Usage::StorageWriteCompute);
    patch.execute(noop);
    EXPECT_EQ(live(g.compile({"final"}, kExtent)), partial ? (Names{"fill", "patch"}) : (Names{"patch"}));
  }
}

// read_buffer takes only usages that read and do not write; write_buffer only usages that write.
TEST(GraphBuffers, TheVerbMustMatchTheUsage) {
  RenderGraph g;
  g.declare_buffer("b", {BufferSize::fixed(4)});
  PassBuilder p = g.add_pass("p", PassKind::Compute);
  const BufferUsage all[] = {BufferUsage::StorageReadCompute,
                             BufferUsage::StorageWriteCompute,
                             BufferUsage::StorageReadWriteCompute,
                             BufferUsage::UniformCompute,
                             BufferUsage::IndirectRead,
                             BufferUsage::TransferSrc,
                             BufferUsage::TransferDst,
                             BufferUsage::HostRead};
  for (BufferUsage u : all) {
    SCOPED_TRACE(usage_name(u));
    const BufferUsageInfo info = usage_info(u);
    const std::string read = error_of([&] { p.read_buffer("b", u); });
    const std::string write = error_of([&] { p.write_buffer("b", u); });
    if (info.reads && !info.writes) EXPECT_EQ(read, "<no GraphError>");
    else EXPECT_EQ(read, std::string("pass 'p' reads buffer 'b' as ") + usage_name(u) + ", which writes it");
    if (info.writes) EXPECT_EQ(write, "<no GraphError>");
    else
      EXPECT_EQ(write,
                std::string("pass 'p' writes buffer 'b' as ") + usage_name(u) + ", which does not write it");
  }
  EXPECT_EQ(error_of([&] { p.read_write_buffer("b"); }), "<no GraphError>");
}

// An imported buffer read by the host after the frame: its writer is never culled, it may be read
// before any pass writes it, each slot has its own buffer, and the frame ends with the barrier to
// the host.
TEST(GraphBuffers, ImportedBufferReadByTheHostAfterTheFrame) {
  RenderGraph g;
  declare(g, {"scene", "final"});
  g.import_buffer("result", no_buffer, BufferUsage::HostRead);
  g.import_buffer("settings", no_buffer);
  filter(g, "scene", "", "scene");
  reduce(g, "metrics", "scene", "result");
  g.add_pass("tonemap", PassKind::Compute)
      .read("scene", Usage::SampledCompute)
      .read_buffer("settings", BufferUsage::UniformCompute)
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  const CompiledGraph c = g.compile({"final"}, kExtent);
  EXPECT_EQ(live(c), (Names{"scene", "metrics", "tonemap"}));
  EXPECT_TRUE(static_cast<bool>(buffer(c, "result").imported));
  EXPECT_EQ(buffer(c, "result").after, BufferUsage::HostRead);
  EXPECT_FALSE(buffer(c, "settings").after.has_value());

  BarrierTracker tracker;
  const PhysicalIds ids = assign_physical_ids(c);
  const uint32_t result = *c.find_buffer("result"), settings = *c.find_buffer("settings");
  for (uint64_t frame = 0; frame < 4; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    std::vector<uint64_t> keys(c.buffers.size());
    keys[result] = 10 + frame % 2;  // one buffer per slot
    keys[settings] = 20;
    const FrameBarriers f = frame_barriers(c, ids, keys, tracker, frame);
    EXPECT_TRUE(f.passes[2].buffers.empty()) << "the owner filled it; nothing wrote it on the device";
    // The slot's buffer was last written two frames ago (and read by the host since).
    ASSERT_EQ(f.passes[1].buffers.size(), frame < 2 ? 0u : 1u);
    if (frame >= 2) {
      EXPECT_EQ(f.passes[1].buffers[0],
                (BufferBarrier{keys[result], kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                               kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT}));
    }
    ASSERT_EQ(f.end.buffers.size(), 1u);
    EXPECT_EQ(f.end.buffers[0],
              (BufferBarrier{keys[result], kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT}));
  }
}

TEST(GraphBuffers, SizesFollowTheirImage) {
  RenderGraph g;
  g.declare_image("final", {});
  g.declare_image("half", sized(SizeRule::output(0.5f)));
  g.declare_buffer("tiles", {BufferSize::per_tile("final", 32, 16, 16)});
  g.declare_buffer("half tiles", {BufferSize::per_tile("half", 8, 8, 4)});
  g.declare_buffer("fixed", {BufferSize::fixed(12)});
  g.declare_buffer("padded", {BufferSize::of("half", [](VkExtent2D e) { return VkDeviceSize(e.width + 3) * e.height; })});
  g.add_pass("p", PassKind::Compute)
      .write_buffer("tiles")
      .write_buffer("half tiles")
      .write_buffer("fixed")
      .write_buffer("padded")
      .write("final", Usage::StorageWriteCompute)
      .execute(noop);
  for (VkExtent2D e : {VkExtent2D{64, 48}, VkExtent2D{65, 1}, VkExtent2D{1920, 1080}}) {
    SCOPED_TRACE(std::to_string(e.width) + "x" + std::to_string(e.height));
    const CompiledGraph c = g.compile({"final"}, e);
    const uint32_t hw = (e.width + 1) / 2, hh = (e.height + 1) / 2;
    EXPECT_EQ(buffer(c, "tiles").size, VkDeviceSize((e.width + 31) / 32) * ((e.height + 15) / 16) * 16);
    EXPECT_EQ(buffer(c, "half tiles").size, VkDeviceSize((hw + 7) / 8) * ((hh + 7) / 8) * 4);
    EXPECT_EQ(buffer(c, "fixed").size, 12u);
    EXPECT_EQ(buffer(c, "padded").size, VkDeviceSize(hw + 3) * hh);
  }
}

TEST(GraphBuffers, Errors) {
  auto graph = [](BufferSize size) {
    RenderGraph g;
    declare(g, {"final"});
    g.declare_buffer("b", {size});
    g.add_pass("p", PassKind::Compute)
        .write_buffer("b")
        .write("final", Usage::StorageWriteCompute)
        .execute(noop);
    return g;
  };
  EXPECT_EQ(compile_error(graph(BufferSize::fixed(0))),
            "size of buffer 'b' cannot be resolved: it is 0 bytes");
  EXPECT_EQ(compile_error(graph(BufferSize::per_tile("ghost", 8, 8, 4))),
            "size of buffer 'b' cannot be resolved: it follows 'ghost', which is not declared");
  EXPECT_EQ(compile_error(graph(BufferSize::of("final", [](VkExtent2D) { return VkDeviceSize(0); }))),
            "size of buffer 'b' cannot be resolved: it is 0 bytes");
  EXPECT_EQ(compile_error(graph(BufferSize::per_tile("final", 0, 8, 4))),
            "size of buffer 'b' cannot be resolved: its tile is empty");

  RenderGraph g;
  declare(g, {"final"});
  g.declare_buffer("b", {BufferSize::fixed(4)});
  EXPECT_EQ(error_of([&] { g.declare_buffer("b", {}); }), "'b' is already declared as a buffer");
  EXPECT_EQ(error_of([&] { g.declare_image("b", {}); }), "'b' is already declared as a buffer");
  EXPECT_EQ(error_of([&] { g.declare_buffer("final", {}); }), "'final' is already declared as an image");
  EXPECT_EQ(error_of([&] { g.import_buffer("i", {}); }), "buffer 'i' is imported without a source");

  auto one_pass = [](std::function<void(PassBuilder&)> accesses) {
    RenderGraph h;
    declare(h, {"final"});
    h.declare_buffer("b", {BufferSize::fixed(4)});
    PassBuilder p = h.add_pass("p", PassKind::Compute);
    p.write("final", Usage::StorageWriteCompute).execute(noop);
    accesses(p);
    return compile_error(h);
  };
  EXPECT_EQ(one_pass([](PassBuilder& p) { p.read_buffer("b"); }),
            "pass 'p' reads buffer 'b', which no earlier pass writes");
  EXPECT_EQ(one_pass([](PassBuilder& p) { p.write_buffer("ghost"); }),
            "pass 'p' uses buffer 'ghost', which is not declared");
  EXPECT_EQ(one_pass([](PassBuilder& p) { p.write_buffer("b", BufferUsage::TransferDst); }),
            "pass 'p' is a compute pass and cannot use buffer 'b' as transfer-dst");
  EXPECT_EQ(one_pass([](PassBuilder& p) { p.read_buffer("b", BufferUsage::HostRead); }),
            "pass 'p' is a compute pass and cannot use buffer 'b' as host-read");
  EXPECT_EQ(one_pass([](PassBuilder& p) { p.write_buffer("b").read_write_buffer("b"); }),
            "pass 'p' accesses buffer 'b' twice");

  // A reader declared before its writer: the graph keeps declaration order.
  RenderGraph order;
  declare(order, {"final"});
  order.declare_buffer("b", {BufferSize::fixed(4)});
  show(order, "show", "b", "final");
  reduce(order, "reduce", "", "b");
  EXPECT_EQ(compile_error(order), "pass 'show' reads buffer 'b', which no earlier pass writes");
}
