#include "preset.h"

#include "window_options.h"

#include "filters/chain.h"
#include "io/image_files.h"
#include "io/image_io.h"
#include "io/input_file.h"

#include <charconv>
#include <set>
#include <variant>

namespace filterlab::app {
namespace {

using nlohmann::json;
constexpr const char* kSchema = "filterlab.preset/1";

// A parameter's value as the schema reads it back exactly (doubles in their shortest round-trip
// spelling).
std::string value_text(const filters::ParamValues::Value& value) {
  struct Text {
    std::string operator()(std::monostate) const { return {}; }
    std::string operator()(int v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      char buffer[32];
      return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
    }
    std::string operator()(const std::string& v) const { return v; }
    std::string operator()(const common::Roi& v) const { return common::roi_text(v); }
  };
  return std::visit(Text{}, value);
}

// The step with its method and every parameter that method takes spelled out (a derived default
// left to derive), as fields (a value may hold any character: a kernel file's path with a comma).
json explicit_step(const filters::FilterStep& step) {
  const filters::ResolvedStep resolved = filters::resolve(step);
  json params = json::array();
  for (const filters::Param& p : resolved.family->params) {
    if (!p.takes(resolved.method->name)) continue;
    // A derived value stays derived (sigma from the radius): stored, a later radius would keep it.
    if (p.derived && !resolved.params.given(p.name)) continue;
    const auto it = resolved.params.values().find(p.name);
    if (it == resolved.params.values().end() || std::holds_alternative<std::monostate>(it->second)) continue;
    params.push_back({p.name, value_text(it->second)});
  }
  return {{"filter", resolved.family->name}, {"method", resolved.method->name}, {"params", params}};
}

json chain_json(const ChainConfig& chain) {
  json steps = json::array();
  for (const ChainEntry& e : chain.entries) {
    json step = explicit_step(e.step);
    step["enabled"] = e.enabled;
    steps.push_back(step);
  }
  return steps;
}

[[noreturn]] void fail(const std::string& what) {
  throw PresetError(what);
}

void only_keys(const json& j, const std::string& where, std::set<std::string> keys) {
  if (!j.is_object()) fail(where + " is not an object");
  for (const auto& [key, value] : j.items())
    if (!keys.count(key)) fail(where + ": unknown key '" + key + "'");
}

template <typename T>
T get(const json& j, const std::string& key, const std::string& where) {
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    fail(where + ": '" + key + "' is missing or of the wrong type");
  }
}

ChainConfig chain_from_json(const json& j, const std::string& where) {
  if (!j.is_array()) fail(where + " is not a list of steps");
  ChainConfig chain;
  for (const json& entry : j) {
    only_keys(entry, where + " step", {"filter", "method", "params", "enabled"});
    filters::FilterStep step{get<std::string>(entry, "filter", where),
                             get<std::string>(entry, "method", where),
                             get<std::vector<filters::RawParam>>(entry, "params", where), ""};
    step.text = filters::step_spec(step);
    try {
      filters::resolve(step);  // the family, the method and every parameter, against the schema
    } catch (const filters::ChainError& e) {
      fail(where + ": " + e.what());
    }
    chain.entries.push_back({std::move(step), get<bool>(entry, "enabled", where)});
  }
  return chain;
}

// The preset's fields from a file's JSON (the checks of preset_from_json, whose json::exceptions it
// turns into PresetErrors).
Preset preset_fields(const json& file);

}  // namespace

json preset_json(const Preset& p) {
  json j;
  j["schema"] = kSchema;
  j["chain"] = chain_json(p.chain);
  j["compare_chain"] = chain_json(p.compare_chain);
  j["compare"] = p.compare;
  j["compare_view"] = {{"mode", passes::compare_mode_name(p.compare_view.mode)},
                       {"divider", p.compare_view.divider_x},
                       {"gain", p.compare_view.gain},
                       {"metrics", p.metrics_on_hdr ? "hdr" : "displayed"}};
  j["viewport"] = p.viewport;
  // Absolute: a preset loads from any working directory.
  auto absolute = [](const std::string& f) {
    return std::filesystem::absolute(f).lexically_normal().string();
  };
  j["content"] = !p.image_file.empty()   ? json{{"image", absolute(p.image_file)}}
                 : !p.scene_file.empty() ? json{{"scene", absolute(p.scene_file)}}
                                         : json{{"scene", "builtin"}};
  j["tonemap"] = passes::tonemapper_name(p.display.tonemapper);
  j["exposure"] = p.display.exposure;
  j["auto_exposure"] = p.display.automatic;
  j["scene"] = {{"orbit_camera", p.orbit_camera},
                {"animate_objects", p.animate_objects},
                {"jitter", p.jitter},
                {"jitter_length", p.jitter_length}};
  return j;
}

Preset preset_from_json(const json& file) {
  try {
    return preset_fields(file);
  } catch (const json::exception& e) {  // a key missing or of another type than the format's
    fail(std::string("preset: ") + e.what());
  }
}

namespace {

Preset preset_fields(const json& file) {
  const json& j = file.is_object() && file.contains("preset") ? file.at("preset") : file;
  only_keys(j, "preset",
            {"schema", "chain", "compare_chain", "compare", "compare_view", "viewport", "content", "tonemap",
             "exposure", "auto_exposure", "scene"});
  if (get<std::string>(j, "schema", "preset") != kSchema)
    fail("preset: schema is not " + std::string(kSchema));
  Preset p;
  p.chain = chain_from_json(j.at("chain"), "chain");
  if (j.contains("compare_chain")) p.compare_chain = chain_from_json(j.at("compare_chain"), "compare_chain");
  if (j.contains("compare")) p.compare = get<bool>(j, "compare", "preset");
  if (j.contains("compare_view")) {
    const json& v = j.at("compare_view");
    only_keys(v, "compare_view", {"mode", "divider", "gain", "metrics"});
    if (v.contains("metrics")) {
      const std::string metrics = get<std::string>(v, "metrics", "compare_view");
      if (metrics != "displayed" && metrics != "hdr")
        fail("compare_view: metrics is displayed or hdr, got '" + metrics + "'");
      p.metrics_on_hdr = metrics == "hdr";
    }
    const std::string mode = get<std::string>(v, "mode", "compare_view");
    const auto parsed = passes::parse_compare_mode(mode);
    if (!parsed) fail("compare_view: unknown mode '" + mode + "' (split, diff, side or flip)");
    p.compare_view.mode = *parsed;
    if (!v.at("divider").is_number_integer()) fail("compare_view: divider is a whole number of pixels");
    p.compare_view.divider_x = get<int32_t>(v, "divider", "compare_view");
    p.compare_view.gain = get<float>(v, "gain", "compare_view");
    if (!std::isfinite(p.compare_view.gain) || p.compare_view.gain < 0)
      fail("compare_view: gain must be >= 0");
  }
  if (j.contains("viewport")) p.viewport = get<std::string>(j, "viewport", "preset");
  if (j.contains("content")) {
    const json& c = j.at("content");
    only_keys(c, "content", {"image", "scene"});
    if (c.size() != 1) fail("content: one of image or scene");
    if (c.contains("image")) {
      p.image_file = get<std::string>(c, "image", "content");
      // As --image checks it (a .bmp or an empty path failed later with exit 1, or was ignored).
      if (!io::is_image_extension(p.image_file))
        fail("content: image '" + p.image_file + "' is not a .png, .jpg, .jpeg, .pfm or .exr file");
    }
    const std::string scene = c.contains("scene") ? get<std::string>(c, "scene", "content") : "builtin";
    if (scene.empty()) fail("content: scene is builtin or a .gltf or .glb file, not ''");
    if (scene != "builtin") p.scene_file = scene;
  }
  if (j.contains("tonemap")) {
    const std::string name = get<std::string>(j, "tonemap", "preset");
    const auto curve = passes::parse_tonemapper(name);
    if (!curve) fail("tonemap: unknown curve '" + name + "' (" + passes::tonemapper_names(", ") + ")");
    p.display.tonemapper = *curve;
  }
  if (j.contains("exposure")) {
    p.display.exposure = get<float>(j, "exposure", "preset");
    if (!std::isfinite(p.display.exposure) || p.display.exposure <= 0)
      fail("exposure must be a positive number");
  }
  if (j.contains("auto_exposure")) p.display.automatic = get<bool>(j, "auto_exposure", "preset");
  if (j.contains("scene")) {
    const json& s = j.at("scene");
    only_keys(s, "scene", {"orbit_camera", "animate_objects", "jitter", "jitter_length"});
    p.orbit_camera = get<bool>(s, "orbit_camera", "scene");
    p.animate_objects = get<bool>(s, "animate_objects", "scene");
    p.jitter = get<bool>(s, "jitter", "scene");
    p.jitter_length = get<uint32_t>(s, "jitter_length", "scene");
    if (p.jitter_length != 8 && p.jitter_length != 16) fail("scene: jitter_length is 8 or 16");
  }
  return p;
}

}  // namespace

void save_preset(const std::filesystem::path& path, const Preset& preset) {
  io::write_file_atomically(path, preset_json(preset).dump(2) + "\n");
}

Preset load_preset(const std::filesystem::path& path) {
  std::string text;
  try {
    text = io::read_input_file(path, io::kMaxJsonFileBytes);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (const std::string deep = io::json_too_deep(text); !deep.empty()) fail(path.string() + ": " + deep);
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) fail(path.string() + ": not JSON");
  try {
    return preset_from_json(j);
  } catch (const PresetError& e) {
    fail(path.string() + ": " + e.what());
  }
}

Preset preset_of(const AppState& state) {
  Preset p;
  p.chain = state.graph.chain_a;
  p.compare_chain = state.graph.chain_b;
  p.compare = state.graph.compare;
  p.compare_view = state.compare;
  p.metrics_on_hdr = state.metrics_on_hdr;
  p.viewport = state.graph.viewport;
  if (state.graph.still) p.image_file = state.graph.still_file;
  else if (state.graph.scene_model) p.scene_file = state.graph.scene_file;
  p.display = state.display();
  p.orbit_camera = state.scene.orbit_camera;
  p.animate_objects = state.scene.animate_objects;
  p.jitter = state.scene.jitter;
  p.jitter_length = state.scene.jitter_length;
  return p;
}

void apply_preset(const Preset& p, AppState& state) {
  state.graph.chain_a = p.chain;
  state.graph.chain_b = p.compare_chain;
  state.graph.compare = p.compare;
  state.compare.mode = p.compare_view.mode;
  state.compare.divider_x = p.compare_view.divider_x;
  state.compare.gain = p.compare_view.gain;
  state.metrics_on_hdr = p.metrics_on_hdr;
  state.graph.viewport = p.viewport;
  state.tonemapper = p.display.tonemapper;
  state.exposure = p.display.exposure;
  state.graph.auto_exposure = p.display.automatic;
  state.scene.orbit_camera = p.orbit_camera;
  state.scene.animate_objects = p.animate_objects;
  state.scene.jitter = p.jitter;
  state.scene.jitter_length = p.jitter_length;
}

Preset preset_of(const runtime::RunOptions& run, const WindowOptions& window) {
  if (window.preset) return *window.preset;
  Preset p;
  p.chain = ChainConfig::parse(run.chain);
  p.compare = window.compare_chain.has_value();
  p.compare_chain = p.compare ? ChainConfig::parse(*window.compare_chain) : p.chain;
  p.compare_view.mode = window.compare_mode;
  p.compare_view.divider_x = window.divider.value_or(0);
  p.compare_view.gain = window.gain;
  p.metrics_on_hdr = window.metrics_on_hdr;
  p.viewport = window.viewport;
  if (run.image) p.image_file = run.image->string();
  if (run.scene_file) p.scene_file = run.scene_file->string();
  p.display = run.display;
  p.orbit_camera = run.scene.orbit_camera;
  p.animate_objects = run.scene.animate_objects;
  p.jitter = run.scene.jitter;
  p.jitter_length = run.scene.jitter_length;
  return p;
}

void apply_preset(const Preset& p, runtime::RunOptions& run, WindowOptions& window) {
  run.chain = p.chain.spec();
  if (p.compare) window.compare_chain = p.compare_chain.spec();
  window.compare_mode = p.compare_view.mode;
  if (p.compare_view.divider_x > 0) window.divider = p.compare_view.divider_x;
  window.gain = p.compare_view.gain;
  window.metrics_on_hdr = p.metrics_on_hdr;
  window.viewport = p.viewport;
  if (!p.image_file.empty()) run.image = p.image_file;
  if (!p.scene_file.empty()) run.scene_file = p.scene_file;
  run.display = p.display;
  run.scene.orbit_camera = p.orbit_camera;
  run.scene.animate_objects = p.animate_objects;
  run.scene.jitter = p.jitter;
  run.scene.jitter_length = p.jitter_length;
  window.preset = p;
}

}  // namespace filterlab::app
