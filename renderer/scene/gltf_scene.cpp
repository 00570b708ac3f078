#include "scene/gltf_scene.h"

#include "io/input_file.h"

#include <tiny_gltf.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <map>
#include <regex>
#include <numbers>
#include <set>

namespace filterlab::scene {
namespace fs = std::filesystem;

namespace {

// The extensions a file may require: those whose meaning filterlab draws or may ignore safely.
const std::set<std::string> kReadExtensions = {"KHR_texture_transform", "KHR_materials_emissive_strength",
                                               "KHR_lights_punctual"};
constexpr uint64_t kMaxSceneFileBytes = 1024 * io::kMiB;  // a .glb, a .bin, an image
constexpr size_t kMaxElements = size_t(1) << 26;          // vertices, indices or keys of one accessor

// ---- files, through filterlab's rules --------------------------------------------------------

// Anything at the path "exists": a folder or /dev/zero is then refused by read_whole_file with the
// reason (tinygltf said "File not found" for them).
bool file_exists(const std::string& path, void*) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}
std::string expand_path(const std::string& path, void*) {
  return path;  // no ~ or $VAR expansion: a scene names files beside it
}
bool read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
  try {
    const std::string bytes = io::read_input_file(path, kMaxSceneFileBytes);
    out->assign(bytes.begin(), bytes.end());
    return true;
  } catch (const std::exception& e) {
    if (err) *err += e.what();
    return false;
  }
}
bool write_nothing(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err += "filterlab writes no glTF file";
  return false;
}
// tinygltf 2.9 (Debian 13) asks a file's size first, through a sixth callback that 2.7 (Debian 12)
// does not have: the size of a file filterlab's rules accept (a FIFO or an oversized file refused).
[[maybe_unused]] bool file_size(size_t* size, std::string* err, const std::string& path, void*) {
  try {
    *size = size_t(io::check_input_file(path, kMaxSceneFileBytes));
    return true;
  } catch (const std::exception& e) {
    if (err) *err += e.what();
    return false;
  }
}

// The size callback where the library has one (a template, so that 2.7's build never names it).
template <typename Callbacks>
void set_file_size(Callbacks& fs) {
  if constexpr (requires { fs.GetFileSizeInBytes; }) fs.GetFileSizeInBytes = &file_size;
}

// filterlab's callbacks, set by name: a positional list would put `nullptr` meant for user_data
// into 2.9's size callback, and tinygltf would then refuse every external file, saying nothing.
tinygltf::FsCallbacks filterlab_files() {
  tinygltf::FsCallbacks fs{};
  fs.FileExists = &file_exists;
  fs.ExpandFilePath = &expand_path;
  fs.ReadWholeFile = &read_whole_file;
  fs.WriteWholeFile = &write_nothing;
  set_file_size(fs);
  fs.user_data = nullptr;
  return fs;
}
// Images are decoded by filterlab's own decoders (libspng checks every CRC, TurboJPEG refuses a
// truncated file), to RGBA8, each at most kMaxTexturePixels before a sample is decoded.
constexpr uint64_t kMaxTexturePixels = uint64_t(1) << 26;  // 8192 x 8192
// `model`: the model being read, whose buffers are loaded by the time images are: tinygltf hands
// over an image in a buffer view without checking that the view lies inside its buffer (a fuzzed
// .glb had the decoder read past the end of the heap block), so that is checked here first.
bool decode_image(tinygltf::Image* image, const int index, std::string* err, std::string*, int, int,
                  const unsigned char* bytes, int size, void* model) {
  const std::string name =
      "image " + std::to_string(index) + (image->uri.empty() ? "" : " (" + image->uri + ")");
  if (image->bufferView >= 0) {
    const tinygltf::Model& m = *static_cast<const tinygltf::Model*>(model);
    const tinygltf::BufferView& view = m.bufferViews.at(size_t(image->bufferView));  // tinygltf checked
    const std::vector<unsigned char>& data = m.buffers.at(size_t(view.buffer)).data;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset) {
      if (err)
        *err += name + ": its buffer view " + std::to_string(image->bufferView) +
                " runs past the end of buffer " + std::to_string(view.buffer);
      return false;
    }
  }
  try {
    const io::DecodedImage d =
        io::decode_image_bytes(std::string(reinterpret_cast<const char*>(bytes), size_t(std::max(size, 0))),
                               name, kMaxTexturePixels);
    image->width = int(d.header.width);
    image->height = int(d.header.height);
    image->component = 4;
    image->bits = 8;
    image->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
    image->image.resize(d.samples.size());
    const bool wide = d.header.bits == 16;  // a 16-bit PNG, rounded to 8 bits
    for (size_t i = 0; i < d.samples.size(); ++i)
      image->image[i] = uint8_t(wide ? (uint32_t(d.samples[i]) * 255u + 32767u) / 65535u : d.samples[i]);
    return true;
  } catch (const io::InputError& e) {
    if (err) *err += name + ": " + e.reason;
  } catch (const std::exception& e) {
    if (err) *err += name + ": " + e.what();
  }
  return false;
}

// ---- checked reads -------------------------------------------------------------------------

struct Checker {
  const tinygltf::Model& m;
  fs::path file;
  [[noreturn]] void fail(const std::string& problem) const { throw io::InputError(file, "glTF: " + problem); }

  void finite(double v, const std::string& what) const {
    if (!std::isfinite(v)) fail(what + " is not a finite number");
  }

  // The accessor's elements as floats, `components` each, in range of its view and buffer, of a
  // type the use takes (floats, or normalized integers where `normalized_ok`), every value finite.
  std::vector<float> floats(int index, int type, const std::string& what, bool normalized_ok = false) const {
    if (index < 0 || size_t(index) >= m.accessors.size())
      fail(what + ": accessor " + std::to_string(index) + " does not exist");
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const std::string where = what + " (accessor " + std::to_string(index) + ")";
    if (a.type != type) fail(where + ": wrong type " + std::to_string(a.type));
    if (a.sparse.isSparse) fail(where + ": sparse accessors are not supported");
    const int components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    const bool is_float = a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
    if (!is_float && !(normalized_ok && a.normalized))
      fail(where + ": component type " + std::to_string(a.componentType) + " where floats are needed");
    if (a.count > kMaxElements) fail(where + ": " + std::to_string(a.count) + " elements");
    if (a.bufferView < 0) {  // all zero, as the spec says; as many as the file has bytes, no more
      size_t bytes = 0;
      for (const tinygltf::Buffer& b : m.buffers) bytes += b.data.size();
      if (a.count > bytes + 4096)
        fail(where + ": " + std::to_string(a.count) + " elements without a buffer view, in a file of " +
             std::to_string(bytes) + " buffer bytes");
      return std::vector<float>(a.count * size_t(components), 0.0f);
    }
    const uint8_t* base = element_base(a, where);  // the data is there before anything is sized by it
    std::vector<float> out(a.count * size_t(components), 0.0f);
    const int component_size = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
    const size_t stride = stride_of(a);
    for (size_t i = 0; i < a.count; ++i)
      for (int c = 0; c < components; ++c) {
        const uint8_t* p = base + i * stride + size_t(c) * size_t(component_size);
        float v = 0;
        switch (a.componentType) {
          case TINYGLTF_COMPONENT_TYPE_FLOAT: std::memcpy(&v, p, 4); break;
          case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: v = float(*p) / 255.0f; break;
          case TINYGLTF_COMPONENT_TYPE_BYTE: v = std::max(float(int8_t(*p)) / 127.0f, -1.0f); break;
          case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t u;
            std::memcpy(&u, p, 2);
            v = float(u) / 65535.0f;
            break;
          }
          case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t s;
            std::memcpy(&s, p, 2);
            v = std::max(float(s) / 32767.0f, -1.0f);
            break;
          }
          default: fail(where + ": component type " + std::to_string(a.componentType));
        }
        if (!std::isfinite(v)) fail(where + ": element " + std::to_string(i) + " is not a finite number");
        out[i * size_t(components) + size_t(c)] = v;
      }
    return out;
  }

  // Indices, each below `vertices`.
  std::vector<uint32_t> indices(int index, size_t vertices, const std::string& what) const {
    if (index < 0 || size_t(index) >= m.accessors.size())
      fail(what + ": accessor " + std::to_string(index) + " does not exist");
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const std::string where = what + " (accessor " + std::to_string(index) + ")";
    if (a.type != TINYGLTF_TYPE_SCALAR) fail(where + ": indices that are not scalars");
    if (a.sparse.isSparse) fail(where + ": sparse accessors are not supported");
    if (a.count > kMaxElements) fail(where + ": " + std::to_string(a.count) + " indices");
    const int t = a.componentType;
    if (t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
      fail(where + ": index component type " + std::to_string(t));
    if (a.bufferView < 0) fail(where + ": indices without a buffer view");
    const uint8_t* base = element_base(a, where);
    const size_t stride = stride_of(a);
    std::vector<uint32_t> out(a.count);
    for (size_t i = 0; i < a.count; ++i) {
      const uint8_t* p = base + i * stride;
      uint32_t v = 0;
      if (t == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) v = *p;
      else if (t == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        uint16_t u;
        std::memcpy(&u, p, 2);
        v = u;
      } else std::memcpy(&v, p, 4);
      if (v >= vertices)
        fail(where + ": index " + std::to_string(v) + " is out of range (" + std::to_string(vertices) +
             " vertices)");
      out[i] = v;
    }
    return out;
  }

 private:
  size_t stride_of(const tinygltf::Accessor& a) const {
    const tinygltf::BufferView& view = m.bufferViews[size_t(a.bufferView)];
    const size_t element = size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType))) *
                           size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
    return view.byteStride ? view.byteStride : element;
  }
  // The first element's bytes, once the last one is known to lie inside the view and the buffer.
  const uint8_t* element_base(const tinygltf::Accessor& a, const std::string& where) const {
    if (a.bufferView < 0 || size_t(a.bufferView) >= m.bufferViews.size())
      fail(where + ": buffer view " + std::to_string(a.bufferView) + " does not exist");
    const tinygltf::BufferView& view = m.bufferViews[size_t(a.bufferView)];
    if (view.buffer < 0 || size_t(view.buffer) >= m.buffers.size())
      fail(where + ": buffer " + std::to_string(view.buffer) + " does not exist");
    const std::vector<unsigned char>& data = m.buffers[size_t(view.buffer)].data;
    const int component_size = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
    const int components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    if (component_size <= 0 || components <= 0) fail(where + ": unknown component or element type");
    const size_t element = size_t(component_size) * size_t(components), stride = stride_of(a);
    if (stride < element) fail(where + ": a byte stride shorter than an element");
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset)
      fail(where + ": its buffer view runs past the end of buffer " + std::to_string(view.buffer));
    const size_t span = a.count == 0 ? 0 : (a.count - 1) * stride + element;
    if (a.byteOffset > view.byteLength || span > view.byteLength - a.byteOffset)
      fail(where + ": " + std::to_string(a.count) + " elements run past the end of its buffer view");
    return data.data() + view.byteOffset + a.byteOffset;
  }
};

// ---- the JSON's types, before the library reads it ------------------------------------------
// tinygltf skips a property of the wrong type silently (a name that is a number, an object that is
// an array, a texture index of -1). These are the properties filterlab or the library read, each
// checked for its type (and integers for a sign), so that such a file is refused with the path.

using nlohmann::json;

struct JsonTypes {
  const Checker& check;
  static std::string at(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  void expect(bool ok, const std::string& path, const char* what) const {
    if (!ok) check.fail(path + " is not " + what);
  }
  // Each check applies where the key is present: the library reports missing required ones.
  void integer(const json& o, const char* key, const std::string& path) const {
    if (o.contains(key)) expect(o[key].is_number_unsigned(), at(path, key), "a whole number >= 0");
  }
  void number(const json& o, const char* key, const std::string& path) const {
    if (o.contains(key)) expect(o[key].is_number(), at(path, key), "a number");
  }
  void string(const json& o, const char* key, const std::string& path) const {
    if (o.contains(key)) expect(o[key].is_string(), at(path, key), "a string");
  }
  void boolean(const json& o, const char* key, const std::string& path) const {
    if (o.contains(key)) expect(o[key].is_boolean(), at(path, key), "true or false");
  }
  void numbers(const json& o, const char* key, size_t count, const std::string& path) const {
    if (!o.contains(key)) return;
    const json& a = o[key];
    expect(a.is_array() && (count == 0 || a.size() == count), at(path, key),
           count ? ("an array of " + std::to_string(count) + " numbers").c_str() : "an array of numbers");
    for (const json& v : a) expect(v.is_number(), at(path, key), "an array of numbers");
  }
  void integers(const json& o, const char* key, const std::string& path) const {
    if (!o.contains(key)) return;
    expect(o[key].is_array(), at(path, key), "an array of whole numbers");
    for (const json& v : o[key])
      expect(v.is_number_unsigned(), at(path, key), "an array of whole numbers >= 0");
  }
  // An object (where present), its common properties checked, then `body`.
  template <typename Body>
  void object(const json& o, const char* key, const std::string& path, Body body) const {
    if (!o.contains(key)) return;
    checked_object(o[key], at(path, key), body);
  }
  template <typename Body>
  void objects(const json& o, const char* key, const std::string& path, Body body) const {
    if (!o.contains(key)) return;
    expect(o[key].is_array(), at(path, key), "an array");
    for (size_t i = 0; i < o[key].size(); ++i)
      checked_object(o[key][i], at(path, key) + "[" + std::to_string(i) + "]", body);
  }
  template <typename Body>
  void checked_object(const json& v, const std::string& path, Body body) const {
    expect(v.is_object(), path, "an object");
    string(v, "name", path);
    if (v.contains("extensions")) {
      expect(v["extensions"].is_object(), path + ".extensions", "an object");
      for (const auto& [name, e] : v["extensions"].items())
        expect(e.is_object(), path + ".extensions." + name, "an object");
    }
    body(v, path);
  }
  void texture_info(const json& o, const char* key, const std::string& path) const {
    object(o, key, path, [&](const json& t, const std::string& p) {
      integer(t, "index", p);
      integer(t, "texCoord", p);
      number(t, "scale", p);
      number(t, "strength", p);
    });
  }

  void document(const json& d) const {
    expect(d.is_object(), "the file", "a JSON object");
    integer(d, "scene", "");
    for (const char* key : {"extensionsUsed", "extensionsRequired"})
      if (d.contains(key)) {
        expect(d[key].is_array(), key, "an array of strings");
        for (const json& e : d[key]) expect(e.is_string(), key, "an array of strings");
      }
    const auto none = [](const json&, const std::string&) {};
    object(d, "asset", "", [&](const json& a, const std::string& p) { string(a, "version", p); });
    objects(d, "scenes", "", [&](const json& s, const std::string& p) { integers(s, "nodes", p); });
    objects(d, "nodes", "", [&](const json& n, const std::string& p) {
      integers(n, "children", p);
      for (const char* k : {"mesh", "camera", "skin"}) integer(n, k, p);
      numbers(n, "matrix", 16, p);
      numbers(n, "rotation", 4, p);
      numbers(n, "scale", 3, p);
      numbers(n, "translation", 3, p);
      numbers(n, "weights", 0, p);
    });
    objects(d, "meshes", "", [&](const json& m, const std::string& p) {
      numbers(m, "weights", 0, p);
      objects(m, "primitives", p, [&](const json& pr, const std::string& pp) {
        object(pr, "attributes", pp, [&](const json& a, const std::string& ap) {
          for (const auto& [k, v] : a.items())
            expect(v.is_number_unsigned(), at(ap, k), "a whole number >= 0");
        });
        for (const char* k : {"indices", "material", "mode"}) integer(pr, k, pp);
      });
    });
    objects(d, "accessors", "", [&](const json& a, const std::string& p) {
      for (const char* k : {"bufferView", "byteOffset", "componentType", "count"}) integer(a, k, p);
      boolean(a, "normalized", p);
      string(a, "type", p);
      numbers(a, "max", 0, p);
      numbers(a, "min", 0, p);
      object(a, "sparse", p, none);
    });
    objects(d, "bufferViews", "", [&](const json& v, const std::string& p) {
      for (const char* k : {"buffer", "byteOffset", "byteLength", "byteStride", "target"}) integer(v, k, p);
    });
    objects(d, "buffers", "", [&](const json& b, const std::string& p) {
      string(b, "uri", p);
      integer(b, "byteLength", p);
    });
    objects(d, "materials", "", [&](const json& m, const std::string& p) {
      object(m, "pbrMetallicRoughness", p, [&](const json& r, const std::string& rp) {
        numbers(r, "baseColorFactor", 4, rp);
        number(r, "metallicFactor", rp);
        number(r, "roughnessFactor", rp);
        texture_info(r, "baseColorTexture", rp);
        texture_info(r, "metallicRoughnessTexture", rp);
      });
      for (const char* k : {"normalTexture", "occlusionTexture", "emissiveTexture"}) texture_info(m, k, p);
      numbers(m, "emissiveFactor", 3, p);
      string(m, "alphaMode", p);
      number(m, "alphaCutoff", p);
      boolean(m, "doubleSided", p);
    });
    objects(d, "textures", "", [&](const json& t, const std::string& p) {
      integer(t, "sampler", p);
      integer(t, "source", p);
    });
    objects(d, "images", "", [&](const json& i, const std::string& p) {
      string(i, "uri", p);
      string(i, "mimeType", p);
      integer(i, "bufferView", p);
    });
    objects(d, "samplers", "", [&](const json& s, const std::string& p) {
      for (const char* k : {"magFilter", "minFilter", "wrapS", "wrapT"}) integer(s, k, p);
    });
    objects(d, "cameras", "", [&](const json& c, const std::string& p) {
      string(c, "type", p);
      object(c, "perspective", p, [&](const json& v, const std::string& vp) {
        for (const char* k : {"aspectRatio", "yfov", "zfar", "znear"}) number(v, k, vp);
      });
      object(c, "orthographic", p, [&](const json& v, const std::string& vp) {
        for (const char* k : {"xmag", "ymag", "zfar", "znear"}) number(v, k, vp);
      });
    });
    objects(d, "animations", "", [&](const json& a, const std::string& p) {
      objects(a, "channels", p, [&](const json& c, const std::string& cp) {
        integer(c, "sampler", cp);
        object(c, "target", cp, [&](const json& t, const std::string& tp) {
          integer(t, "node", tp);
          string(t, "path", tp);
        });
      });
      objects(a, "samplers", p, [&](const json& s, const std::string& sp) {
        integer(s, "input", sp);
        integer(s, "output", sp);
        string(s, "interpolation", sp);
      });
    });
    objects(d, "skins", "", [&](const json& s, const std::string& p) {
      integer(s, "inverseBindMatrices", p);
      integer(s, "skeleton", p);
      integers(s, "joints", p);
    });
  }
};

// The document's JSON (a .glb's first chunk), its types and required extensions checked.
void check_json(const Checker& check, const std::string& bytes, bool binary) {
  std::string text = bytes;
  if (binary) {
    uint32_t header[5] = {};
    if (bytes.size() < sizeof header) check.fail("a .glb shorter than its header");
    std::memcpy(header, bytes.data(), sizeof header);
    if (header[0] != 0x46546C67u) check.fail("a .glb without the glTF magic number");
    if (header[1] != 2) check.fail("a .glb of container version " + std::to_string(header[1]) + " (2 is read)");
    if (header[4] != 0x4E4F534Au) check.fail("a .glb whose first chunk is not JSON");
    if (header[3] > bytes.size() - sizeof header) check.fail("a .glb whose JSON chunk runs past the end");
    text = bytes.substr(sizeof header, header[3]);
  }
  if (const std::string deep = io::json_too_deep(text); !deep.empty()) check.fail(deep);
  json document;
  try {
    document = json::parse(text);
  } catch (const json::exception&) {
    check.fail("not JSON");
  }
  JsonTypes{check}.document(document);
  // glTF 2.0 only: a 1.0 file's objects have other meanings, which the types above do not catch.
  if (!document.contains("asset") || !document["asset"].contains("version"))
    check.fail("no asset.version (a glTF 2.0 file has one)");
  for (const char* field : {"version", "minVersion"}) {
    if (!document["asset"].contains(field)) continue;
    if (!document["asset"][field].is_string()) check.fail("asset." + std::string(field) + " is not a string");
    const std::string v = document["asset"][field].get<std::string>();
    static const std::regex kVersion("([0-9]+)\\.([0-9]+)");
    std::smatch m;
    if (!std::regex_match(v, m, kVersion)) check.fail("asset." + std::string(field) + " '" + v + "' is not MAJOR.MINOR");
    const bool readable = std::string(field) == "version" ? m[1] == "2" : m[1] == "2" && m[2] == "0";
    if (!readable) check.fail("asset." + std::string(field) + " " + v + ": filterlab reads glTF 2.0");
  }
  if (document.contains("extensionsRequired"))
    for (const json& e : document["extensionsRequired"])
      if (!kReadExtensions.count(e.get<std::string>()))
        check.fail("the file requires extension " + e.get<std::string>() + ", which filterlab does not read");
}

// ---- the scene -------------------------------------------------------------------------------

struct Trs {
  glm::vec3 t{0.0f}, s{1.0f};
  glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
  std::optional<glm::mat4> matrix;  // a node given as a matrix (never animated)
  glm::mat4 local() const {
    if (matrix) return *matrix;
    return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.0f), s);
  }
};

enum class Path { Translation, Rotation, Scale };
struct Channel {
  size_t node;
  Path path;
  std::vector<float> times, values;  // values: components per key, three per key for cubic splines
  int components;
  enum class Interpolation { Step, Linear, Cubic } interpolation;
};

struct Instance {  // a node's triangle primitive, one object
  size_t node;
  glm::vec4 albedo_roughness;
  glm::vec3 emissive;
};

struct FileCamera {
  size_t node;
  std::string name;
  bool perspective;
  float yfov, znear, zfar, xmag, ymag;
};

class GltfScene : public SceneModel {
 public:
  std::string file;
  SceneAssets content;  // object 0 is the sky
  struct LightNode {
    size_t node;
    LightGpu light;  // position and direction in the node's space: the origin, down -z
  };
  std::vector<LightNode> lights;
  std::vector<Trs> rest;
  std::vector<std::vector<size_t>> children;
  std::vector<size_t> roots;
  // The drawn nodes, every parent before its children, and each one's parent (-1 for a root): the
  // hierarchy walked without recursion, so a deep chain of nodes cannot exhaust the stack.
  std::vector<size_t> order;
  std::vector<int> parent_of;
  std::vector<Instance> instances;
  std::vector<Channel> channels;
  float duration = 0;
  glm::vec3 center{0.0f};
  float radius = 1.0f;
  std::vector<FileCamera> cameras;
  std::optional<size_t> camera;
  std::vector<bool> camera_path;  // the chosen camera's node and its ancestors: their animations move it

  std::string name() const override { return file; }
  const SceneAssets& assets() const override { return content; }
  uint32_t object_count() const override { return uint32_t(instances.size() + 1); }
  uint32_t light_count() const override { return uint32_t(lights.size()); }

  // Every node's world matrix at time t (seconds), its animations looping: those of the nodes that
  // carry a camera (a camera path) where `camera` says, the others where `objects` says.
  std::vector<glm::mat4> world(double t, bool objects, bool camera) const {
    std::vector<Trs> pose = rest;
    if (duration > 0) {
      const float time = float(std::fmod(t, double(duration)));
      for (const Channel& c : channels)
        if (camera_path[c.node] ? camera : objects) apply(c, time, pose[c.node]);
    }
    std::vector<glm::mat4> out(rest.size(), glm::mat4(1.0f));
    for (size_t n : order)
      out[n] = (parent_of[n] < 0 ? glm::mat4(1.0f) : out[size_t(parent_of[n])]) * pose[n].local();
    return out;
  }

  FrameData frame(uint64_t frame_index, uint32_t width, uint32_t height,
                  const SceneSettings& s) const override {
    const uint64_t shown = s.animation_frame.value_or(frame_index);
    const double t = double(shown) * kFixedTimeStep;
    const bool cut = std::find(s.camera_cuts.begin(), s.camera_cuts.end(), shown) != s.camera_cuts.end();
    const double prev_t = cut ? t : (double(shown) - 1.0) * kFixedTimeStep;
    const float w = float(std::max(width, 1u)), h = float(std::max(height, 1u));
    // --camera orbit|fixed plays or holds a file camera's path, --animate the other animations.
    const bool path = camera.has_value() && s.orbit_camera;
    const std::vector<glm::mat4> now = world(t, s.animate_objects, path),
                                 before = world(prev_t, s.animate_objects, path);
    const auto [eye, view_proj] = camera_at(t, w / h, s, now);
    const auto [prev_eye, prev_view_proj] = camera_at(prev_t, w / h, s, before);
    (void)prev_eye;
    const glm::vec2 jitter = frame_jitter(frame_index, s);
    glm::mat4 jitter_m(1.0f);
    jitter_m[3][0] = 2.0f * jitter.x / w;
    jitter_m[3][1] = 2.0f * jitter.y / h;
    FrameData f;
    f.camera_cut = cut;
    f.camera.view_proj = view_proj;
    f.camera.prev_view_proj = prev_view_proj;
    f.camera.view_proj_jittered = (s.jitter || s.jitter_offset) ? jitter_m * view_proj : view_proj;
    f.camera.camera_position = glm::vec4(eye, 1.0f);
    f.camera.sun_direction = sun_direction_intensity();
    f.camera.viewport_jitter = glm::vec4(w, h, jitter);
    // The sky: far around the scene, and inside a file camera's far plane.
    const float sky_radius =
        camera ? std::min(radius * 50.0f, cameras[*camera].zfar * 0.45f) : radius * 50.0f;
    const glm::mat4 sky =
        glm::translate(glm::mat4(1.0f), center) * glm::scale(glm::mat4(1.0f), glm::vec3(sky_radius));
    f.objects.push_back(
        {sky, sky, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), glm::vec4(0.0f, 0.0f, 0.0f, float(MaterialKind::Sky))});
    for (const Instance& i : instances)
      f.objects.push_back(
          {now[i.node], before[i.node], i.albedo_roughness, glm::vec4(i.emissive, float(MaterialKind::Lit))});
    for (const LightNode& l : lights) {
      LightGpu g = l.light;
      const glm::mat4& m = now[l.node];
      g.position_range = glm::vec4(glm::vec3(m[3]), l.light.position_range.w);
      g.direction_type =
          glm::vec4(glm::normalize(glm::mat3(m) * glm::vec3(0, 0, -1)), l.light.direction_type.w);
      f.lights.push_back(g);
    }
    f.camera.counts.x = uint32_t(f.lights.size());
    return f;
  }

 private:
  std::pair<glm::vec3, glm::mat4> camera_at(double t, float aspect, const SceneSettings& s,
                                            const std::vector<glm::mat4>& nodes) const {
    if (camera) {
      const FileCamera& c = cameras[*camera];
      const glm::mat4 pose = nodes[c.node];
      glm::mat4 proj = c.perspective ? glm::perspectiveRH_ZO(c.yfov, aspect, c.znear, c.zfar)
                                     : glm::orthoRH_ZO(-c.xmag, c.xmag, -c.ymag, c.ymag, c.znear, c.zfar);
      proj[1][1] = -proj[1][1];  // Vulkan clip Y points down
      return {glm::vec3(pose[3]), proj * glm::inverse(pose)};
    }
    // An orbit around the scene's bounds, with the window's yaw, pitch and distance on top.
    const float yaw = std::isfinite(s.camera_yaw) ? s.camera_yaw : 0.0f;
    const float pitch =
        std::clamp(0.35f + (std::isfinite(s.camera_pitch) ? s.camera_pitch : 0.0f), -1.2f, 1.45f);
    const float scale = std::clamp(std::isfinite(s.camera_distance) ? s.camera_distance : 1.0f,
                                   kMinCameraDistance, kMaxCameraDistance);
    const float angle = (s.orbit_camera ? float(0.25 * t) : 0.0f) + yaw;
    const float distance = 2.5f * radius * scale;
    const glm::vec3 eye = center + distance * glm::vec3(std::cos(pitch) * std::sin(angle), std::sin(pitch),
                                                        std::cos(pitch) * std::cos(angle));
    glm::mat4 proj = glm::perspectiveRH_ZO(60.0f * std::numbers::pi_v<float> / 180.0f, aspect, radius * 0.01f,
                                           radius * 200.0f);
    proj[1][1] = -proj[1][1];
    return {eye, proj * glm::lookAtRH(eye, center, glm::vec3(0, 1, 0))};
  }

  static void apply(const Channel& c, float time, Trs& trs) {
    const size_t keys = c.times.size();
    const int n = c.components;
    const bool cubic = c.interpolation == Channel::Interpolation::Cubic;
    // The value of key k (for cubic splines, the middle of its in-tangent, value, out-tangent).
    auto value = [&](size_t k, int part) {
      const size_t base = (cubic ? (3 * k + size_t(part)) : k) * size_t(n);
      return glm::vec4(c.values[base], c.values[base + 1], c.values[base + 2],
                       n == 4 ? c.values[base + 3] : 0.0f);
    };
    glm::vec4 v;
    if (time <= c.times.front()) v = value(0, 1);
    else if (time >= c.times.back()) v = value(keys - 1, 1);
    else {
      const size_t k = size_t(std::upper_bound(c.times.begin(), c.times.end(), time) - c.times.begin()) - 1;
      const float t0 = c.times[k], t1 = c.times[k + 1], dt = t1 - t0;
      const float u = dt > 0 ? (time - t0) / dt : 0.0f;
      switch (c.interpolation) {
        case Channel::Interpolation::Step: v = value(k, 1); break;
        case Channel::Interpolation::Linear:
          if (c.path == Path::Rotation) {
            const glm::quat a(value(k, 1).w, value(k, 1).x, value(k, 1).y, value(k, 1).z);
            const glm::quat b(value(k + 1, 1).w, value(k + 1, 1).x, value(k + 1, 1).y, value(k + 1, 1).z);
            const glm::quat q = glm::slerp(a, b, u);
            v = glm::vec4(q.x, q.y, q.z, q.w);
          } else {
            v = glm::mix(value(k, 1), value(k + 1, 1), u);
          }
          break;
        case Channel::Interpolation::Cubic: {  // Hermite, tangents scaled by the key interval
          const float u2 = u * u, u3 = u2 * u;
          v = (2 * u3 - 3 * u2 + 1) * value(k, 1) + (u3 - 2 * u2 + u) * dt * value(k, 2) +
              (-2 * u3 + 3 * u2) * value(k + 1, 1) + (u3 - u2) * dt * value(k + 1, 0);
          break;
        }
      }
    }
    switch (c.path) {
      case Path::Translation: trs.t = glm::vec3(v); break;
      case Path::Scale: trs.s = glm::vec3(v); break;
      case Path::Rotation: trs.r = glm::normalize(glm::quat(v.w, v.x, v.y, v.z)); break;
    }
  }
};

Trs node_pose(const Checker& check, const tinygltf::Node& n, size_t index) {
  const std::string what = "node " + std::to_string(index);
  Trs trs;
  for (double v : n.matrix) check.finite(v, what + "'s matrix");
  for (double v : n.translation) check.finite(v, what + "'s translation");
  for (double v : n.rotation) check.finite(v, what + "'s rotation");
  for (double v : n.scale) check.finite(v, what + "'s scale");
  if (n.matrix.size() == 16) {
    glm::mat4 m;
    for (int i = 0; i < 16; ++i) glm::value_ptr(m)[i] = float(n.matrix[size_t(i)]);
    trs.matrix = m;
  }
  if (n.translation.size() == 3)
    trs.t = {float(n.translation[0]), float(n.translation[1]), float(n.translation[2])};
  if (n.scale.size() == 3) trs.s = {float(n.scale[0]), float(n.scale[1]), float(n.scale[2])};
  if (n.rotation.size() == 4) {
    const glm::quat q(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
    if (glm::length(q) < 1e-6f) check.fail(what + "'s rotation is not a rotation (zero quaternion)");
    trs.r = glm::normalize(q);
  }
  return trs;
}

// ---- materials, textures and lights ---------------------------------------------------------

// The file's materials as MaterialGpu and texture bindings: each image used is kept once per
// encoding (sRGB for base colour and emissive, linear for the rest), each sampler once.
struct MaterialReader {
  const Checker& check;
  const tinygltf::Model& m;
  SceneAssets& content;
  std::map<std::pair<int, bool>, uint32_t> images;
  std::map<int, uint32_t> samplers;

  Material read(size_t index) {
    const tinygltf::Material& mat = m.materials[index];
    const std::string what = "material " + std::to_string(index);
    const tinygltf::PbrMetallicRoughness& pbr = mat.pbrMetallicRoughness;
    Material out;
    MaterialGpu& g = out.gpu;
    for (double v : pbr.baseColorFactor) check.finite(v, what + "'s base colour");
    for (double v : mat.emissiveFactor) check.finite(v, what + "'s emissive factor");
    check.finite(pbr.metallicFactor, what + "'s metallic factor");
    check.finite(pbr.roughnessFactor, what + "'s roughness");
    check.finite(mat.alphaCutoff, what + "'s alpha cutoff");
    check.finite(mat.normalTexture.scale, what + "'s normal scale");
    check.finite(mat.occlusionTexture.strength, what + "'s occlusion strength");
    if (pbr.baseColorFactor.size() == 4)
      g.base_color = {float(pbr.baseColorFactor[0]), float(pbr.baseColorFactor[1]),
                      float(pbr.baseColorFactor[2]), float(pbr.baseColorFactor[3])};
    float strength = 1.0f;
    if (const auto e = mat.extensions.find("KHR_materials_emissive_strength");
        e != mat.extensions.end() && e->second.Has("emissiveStrength")) {
      const tinygltf::Value& v = e->second.Get("emissiveStrength");
      if (!v.IsNumber()) check.fail(what + "'s emissive strength is not a number");
      check.finite(v.GetNumberAsDouble(), what + "'s emissive strength");
      strength = float(v.GetNumberAsDouble());
    }
    if (mat.emissiveFactor.size() == 3)
      g.emissive = glm::vec4(strength * glm::vec3(float(mat.emissiveFactor[0]), float(mat.emissiveFactor[1]),
                                                  float(mat.emissiveFactor[2])),
                             0.0f);
    g.params = {float(std::clamp(pbr.metallicFactor, 0.0, 1.0)),
                float(std::clamp(pbr.roughnessFactor, 0.0, 1.0)), float(mat.normalTexture.scale),
                float(std::clamp(mat.occlusionTexture.strength, 0.0, 1.0))};
    g.alpha.x = float(mat.alphaCutoff);
    if (mat.alphaMode == "MASK") g.flags.x = uint32_t(AlphaMode::Mask);
    else if (mat.alphaMode == "BLEND") g.flags.x = uint32_t(AlphaMode::Blend);
    else if (mat.alphaMode != "OPAQUE" && !mat.alphaMode.empty())
      check.fail(what + " has alpha mode '" + mat.alphaMode + "' (OPAQUE, MASK or BLEND)");
    texture(out, TextureSlot::BaseColor, pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord,
            pbr.baseColorTexture.extensions, true, what);
    texture(out, TextureSlot::MetallicRoughness, pbr.metallicRoughnessTexture.index,
            pbr.metallicRoughnessTexture.texCoord, pbr.metallicRoughnessTexture.extensions, false, what);
    texture(out, TextureSlot::Normal, mat.normalTexture.index, mat.normalTexture.texCoord,
            mat.normalTexture.extensions, false, what);
    texture(out, TextureSlot::Occlusion, mat.occlusionTexture.index, mat.occlusionTexture.texCoord,
            mat.occlusionTexture.extensions, false, what);
    texture(out, TextureSlot::Emissive, mat.emissiveTexture.index, mat.emissiveTexture.texCoord,
            mat.emissiveTexture.extensions, true, what);
    return out;
  }

 private:
  void texture(Material& out, TextureSlot slot, int index, int texcoord,
               const tinygltf::ExtensionMap& extensions, bool srgb, const std::string& material) {
    if (index < 0) return;
    static const char* kNames[] = {"base colour", "metallic-roughness", "normal", "occlusion", "emissive"};
    const std::string what = material + "'s " + kNames[uint32_t(slot)] + " texture";
    if (size_t(index) >= m.textures.size())
      check.fail(what + " is texture " + std::to_string(index) + ", which does not exist");
    const tinygltf::Texture& t = m.textures[size_t(index)];
    if (t.source < 0 || size_t(t.source) >= m.images.size())
      check.fail("texture " + std::to_string(index) + " has image " + std::to_string(t.source) +
                 ", which does not exist");
    const tinygltf::Image& image = m.images[size_t(t.source)];
    if (image.image.empty() || image.width <= 0 || image.height <= 0)
      check.fail("image " + std::to_string(t.source) + (image.uri.empty() ? "" : " (" + image.uri + ")") +
                 " has no pixels (missing or unreadable)");
    // KHR_texture_transform: uv' = offset + R(rotation) * (scale * uv), as its GLSL writes it.
    glm::vec2 offset(0.0f), scale(1.0f);
    float rotation = 0.0f;
    if (const auto e = extensions.find("KHR_texture_transform"); e != extensions.end()) {
      const tinygltf::Value& x = e->second;
      const auto pair = [&](const char* key, glm::vec2& v) {
        if (!x.Has(key)) return;
        const tinygltf::Value& a = x.Get(key);
        if (!a.IsArray() || a.ArrayLen() != 2 || !a.Get(0).IsNumber() || !a.Get(1).IsNumber())
          check.fail(what + ": KHR_texture_transform " + key + " is not two numbers");
        v = {float(a.Get(0).GetNumberAsDouble()), float(a.Get(1).GetNumberAsDouble())};
      };
      pair("offset", offset);
      pair("scale", scale);
      if (x.Has("rotation")) {
        if (!x.Get("rotation").IsNumber())
          check.fail(what + ": KHR_texture_transform rotation is not a number");
        rotation = float(x.Get("rotation").GetNumberAsDouble());
      }
      if (x.Has("texCoord")) {
        if (!x.Get("texCoord").IsInt())
          check.fail(what + ": KHR_texture_transform texCoord is not a whole number");
        texcoord = x.Get("texCoord").GetNumberAsInt();
      }
      for (float v : {offset.x, offset.y, scale.x, scale.y, rotation})
        check.finite(v, what + "'s KHR_texture_transform");
    }
    if (texcoord != 0 && texcoord != 1)
      check.fail(what + " reads TEXCOORD_" + std::to_string(texcoord) + " (filterlab reads sets 0 and 1)");
    const float c = std::cos(rotation), s = std::sin(rotation);
    MaterialGpu& g = out.gpu;
    g.uv_transform[uint32_t(slot)][0] = {c * scale.x, -s * scale.y, offset.x, float(texcoord)};
    g.uv_transform[uint32_t(slot)][1] = {s * scale.x, c * scale.y, offset.y, 0.0f};
    g.flags.y |= 1u << uint32_t(slot);
    out.textures[uint32_t(slot)] = TextureBinding{image_index(t.source, srgb), sampler_index(t.sampler)};
  }

  uint32_t image_index(int source, bool srgb) {
    const auto found = images.find({source, srgb});
    if (found != images.end()) return found->second;
    const tinygltf::Image& image = m.images[size_t(source)];
    TextureImage t;
    t.name =
        image.name.empty() ? (image.uri.empty() ? "image " + std::to_string(source) : image.uri) : image.name;
    t.width = uint32_t(image.width);
    t.height = uint32_t(image.height);
    t.rgba = image.image;  // RGBA8, from decode_image
    t.srgb = srgb;
    content.images.push_back(std::move(t));
    return images[{source, srgb}] = uint32_t(content.images.size() - 1);
  }

  uint32_t sampler_index(int sampler) {
    const auto found = samplers.find(sampler);
    if (found != samplers.end()) return found->second;
    SamplerState state;  // no sampler: repeat, trilinear
    if (sampler >= 0) {
      if (size_t(sampler) >= m.samplers.size())
        check.fail("a texture has sampler " + std::to_string(sampler) + ", which does not exist");
      const tinygltf::Sampler& s = m.samplers[size_t(sampler)];
      using F = SamplerState::Filter;
      const std::string what = "sampler " + std::to_string(sampler);
      const auto wrap = [&](int mode) {
        switch (mode) {
          case TINYGLTF_TEXTURE_WRAP_REPEAT: return SamplerState::Wrap::Repeat;
          case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE: return SamplerState::Wrap::ClampToEdge;
          case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT: return SamplerState::Wrap::MirroredRepeat;
          default: check.fail(what + " has wrap mode " + std::to_string(mode));
        }
      };
      state.wrap_u = wrap(s.wrapS);
      state.wrap_v = wrap(s.wrapT);
      if (s.magFilter == TINYGLTF_TEXTURE_FILTER_NEAREST) state.mag = F::Nearest;
      else if (s.magFilter != TINYGLTF_TEXTURE_FILTER_LINEAR && s.magFilter != -1)
        check.fail(what + " has magnification filter " + std::to_string(s.magFilter));
      switch (s.minFilter) {
        case -1: break;  // undefined: trilinear
        case TINYGLTF_TEXTURE_FILTER_NEAREST:
          state = {state.mag, F::Nearest, std::nullopt, state.wrap_u, state.wrap_v};
          break;
        case TINYGLTF_TEXTURE_FILTER_LINEAR:
          state = {state.mag, F::Linear, std::nullopt, state.wrap_u, state.wrap_v};
          break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_NEAREST:
          state.min = F::Nearest, state.mip = F::Nearest;
          break;
        case TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_NEAREST:
          state.min = F::Linear, state.mip = F::Nearest;
          break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_LINEAR:
          state.min = F::Nearest, state.mip = F::Linear;
          break;
        case TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR:
          state.min = F::Linear, state.mip = F::Linear;
          break;
        default: check.fail(what + " has minification filter " + std::to_string(s.minFilter));
      }
    }
    content.samplers.push_back(state);
    return samplers[sampler] = uint32_t(content.samplers.size() - 1);
  }
};

// KHR_lights_punctual: the lights of the drawn nodes, in their nodes' space.
template <typename Scene>
void read_lights(const Checker& check, const tinygltf::Model& m, const std::vector<bool>& drawn,
                 Scene& scene) {
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    const auto e = m.nodes[n].extensions.find("KHR_lights_punctual");
    if (e == m.nodes[n].extensions.end() || !drawn[n]) continue;
    const std::string what = "node " + std::to_string(n) + "'s light";
    if (!e->second.Has("light") || !e->second.Get("light").IsInt()) check.fail(what + " has no light index");
    const int index = e->second.Get("light").GetNumberAsInt();
    if (index < 0 || size_t(index) >= m.lights.size())
      check.fail(what + " is light " + std::to_string(index) + ", which does not exist");
    const tinygltf::Light& l = m.lights[size_t(index)];
    for (double v : l.color) check.finite(v, what + "'s colour");
    for (double v : {l.intensity, l.range, l.spot.innerConeAngle, l.spot.outerConeAngle})
      check.finite(v, what);
    if (l.intensity < 0 || l.range < 0) check.fail(what + " has a negative intensity or range");
    LightGpu g{};
    const LightType type = l.type == "directional" ? LightType::Directional
                           : l.type == "point"     ? LightType::Point
                           : l.type == "spot"
                               ? LightType::Spot
                               : (check.fail(what + " has type '" + l.type + "'"), LightType::Point);
    g.position_range.w = float(l.range);
    g.direction_type.w = float(uint32_t(type));
    const glm::vec3 colour = l.color.size() == 3
                                 ? glm::vec3(float(l.color[0]), float(l.color[1]), float(l.color[2]))
                                 : glm::vec3(1.0f);
    g.color_intensity = glm::vec4(colour, float(l.intensity));
    if (type == LightType::Spot) {
      const double inner = l.spot.innerConeAngle, outer = l.spot.outerConeAngle;
      if (!(inner >= 0 && inner < outer && outer <= std::numbers::pi / 2))
        check.fail(what + ": a spot needs 0 <= innerConeAngle < outerConeAngle <= pi/2");
      g.cone = {float(std::cos(outer)), float(std::cos(inner)), 0.0f, 0.0f};
    }
    scene.lights.push_back({n, g});
  }
}

}  // namespace

GltfLoad load_gltf(const fs::path& path, const std::optional<std::string>& camera_name) {
  tinygltf::TinyGLTF loader;
  loader.SetFsCallbacks(filterlab_files());
  tinygltf::Model model;
  loader.SetImageLoader(&decode_image, &model);
  std::string error, warning;
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext != ".gltf" && ext != ".glb") throw io::InputError(path, "not a glTF scene (use .gltf or .glb)");
  // Read once, through the file gate (a FIFO, a device, a huge file refused): the checks and the
  // library see the same bytes; the files it names are read through the callbacks above.
  const std::string bytes = io::read_input_file(path, kMaxSceneFileBytes);
  check_json(Checker{model, path}, bytes, ext == ".glb");
  const std::string folder = path.parent_path().string();
  const bool ok = ext == ".glb"
                      ? loader.LoadBinaryFromMemory(&model, &error, &warning,
                                                    reinterpret_cast<const unsigned char*>(bytes.data()),
                                                    unsigned(bytes.size()), folder)
                      : loader.LoadASCIIFromString(&model, &error, &warning, bytes.data(),
                                                   unsigned(bytes.size()), folder);
  if (!ok) {
    std::string why = error.empty() ? "unreadable" : error;
    std::replace(why.begin(), why.end(), '\n', ' ');
    while (!why.empty() && why.back() == ' ') why.pop_back();
    throw io::InputError(path, "glTF: " + why);
  }
  const Checker check{model, path};
  for (const std::string& e : model.extensionsRequired)
    if (!kReadExtensions.count(e))
      check.fail("the file requires extension " + e + ", which filterlab does not read");

  auto scene = std::make_shared<GltfScene>();
  GltfLoad out;
  scene->file = path.string();
  const size_t nodes = model.nodes.size();
  scene->children.resize(nodes);
  std::vector<int> parent(nodes, -1);
  for (size_t i = 0; i < nodes; ++i) {
    scene->rest.push_back(node_pose(check, model.nodes[i], i));
    for (int c : model.nodes[i].children) {
      if (c < 0 || size_t(c) >= nodes)
        check.fail("node " + std::to_string(i) + " has child " + std::to_string(c) +
                   ", which does not exist");
      if (size_t(c) == i) check.fail("node " + std::to_string(i) + " is its own child (a cycle)");
      if (parent[size_t(c)] >= 0)
        check.fail("node " + std::to_string(c) + " has two parents (" + std::to_string(parent[size_t(c)]) +
                   " and " + std::to_string(i) + ")");
      parent[size_t(c)] = int(i);
      scene->children[i].push_back(size_t(c));
    }
  }
  // Cycles: with one parent a node, the nodes under no parentless node are those of a cycle (and
  // below one). One walk down from the parentless nodes finds them, in time linear in the nodes.
  {
    std::vector<size_t> reached;
    std::vector<bool> seen(nodes, false);
    for (size_t i = 0; i < nodes; ++i)
      if (parent[i] < 0) reached.push_back(i), seen[i] = true;
    for (size_t k = 0; k < reached.size(); ++k)
      for (size_t c : scene->children[reached[k]])
        if (!seen[c]) reached.push_back(c), seen[c] = true;
    for (size_t i = 0; i < nodes; ++i)
      if (!seen[i]) {
        size_t n = i;  // up the parents to a node of the cycle itself
        for (size_t steps = 0; steps < nodes; ++steps) n = size_t(parent[n]);
        check.fail("node " + std::to_string(n) + " is its own ancestor (a cycle)");
      }
  }
  // The scene drawn: the default one, else the first, else every root node.
  const int which = model.defaultScene >= 0 ? model.defaultScene : (model.scenes.empty() ? -1 : 0);
  if (which >= 0) {
    if (size_t(which) >= model.scenes.size())
      check.fail("the default scene " + std::to_string(which) + " does not exist");
    for (int n : model.scenes[size_t(which)].nodes) {
      if (n < 0 || size_t(n) >= nodes)
        check.fail("the scene names node " + std::to_string(n) + ", which does not exist");
      if (parent[size_t(n)] >= 0) check.fail("the scene's root node " + std::to_string(n) + " has a parent");
      scene->roots.push_back(size_t(n));
    }
  } else {
    for (size_t i = 0; i < nodes; ++i)
      if (parent[i] < 0) scene->roots.push_back(i);
  }
  std::vector<bool> drawn(nodes, false);
  scene->parent_of = parent;
  for (size_t r : scene->roots) scene->order.push_back(r);
  for (size_t i = 0; i < scene->order.size(); ++i)  // breadth first: parents before children
    for (size_t c : scene->children[scene->order[i]]) scene->order.push_back(c);
  for (size_t n : scene->order) drawn[n] = true;

  // Materials: [0] the identity (primitives without one keep the old grey in their object's
  // factors), then the file's, in order.
  SceneAssets& content = scene->content;
  content.materials.emplace_back();
  std::set<std::string> noted;
  auto note = [&](const std::string& text) {
    if (noted.insert(text).second) out.notes.push_back(text);
  };
  MaterialReader materials{check, model, content};
  for (size_t m = 0; m < model.materials.size(); ++m) content.materials.push_back(materials.read(m));

  // Geometry: object 0 the sky, then one object per drawn node's triangle primitive, its indices
  // kept apart until the draws are known (the opaque grouped by material, the blended one by one).
  append_sphere(content.mesh, 0, 16, 32, true);
  content.draws.push_back({0, uint32_t(content.mesh.indices.size()), 0, 0, glm::vec3(0.0f), false});
  struct Pending {
    std::vector<uint32_t> indices;
    uint32_t material, object;
    glm::vec3 center;
    bool blend;
  };
  std::vector<Pending> pending;
  scene->camera_path.assign(nodes, false);
  const std::vector<glm::mat4> rest_world = scene->world(0.0, false, false);
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (size_t n = 0; n < nodes; ++n) {
    const tinygltf::Node& node = model.nodes[n];
    if (!drawn[n] || node.mesh < 0) continue;
    if (size_t(node.mesh) >= model.meshes.size())
      check.fail("node " + std::to_string(n) + " has mesh " + std::to_string(node.mesh) +
                 ", which does not exist");
    if (node.skin >= 0) note("skins: shown in the rest pose");
    const tinygltf::Mesh& mesh = model.meshes[size_t(node.mesh)];
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const tinygltf::Primitive& prim = mesh.primitives[p];
      const std::string what = "mesh " + std::to_string(node.mesh) + " primitive " + std::to_string(p);
      if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != -1) {
        note("primitives that are not triangle lists (points, lines, strips, fans): skipped");
        continue;
      }
      if (!prim.targets.empty()) note("morph targets: shown in the rest pose");
      const auto attribute = [&](const char* name) {
        const auto a = prim.attributes.find(name);
        return a == prim.attributes.end() ? -1 : a->second;
      };
      if (attribute("POSITION") < 0) check.fail(what + " has no POSITION");
      const std::vector<float> positions =
          check.floats(attribute("POSITION"), TINYGLTF_TYPE_VEC3, what + " POSITION");
      const size_t count = positions.size() / 3;
      // An optional attribute, `components` floats per vertex (normalized integers allowed).
      const auto optional = [&](const char* name, int type, int components) {
        std::vector<float> v;
        if (attribute(name) < 0) return v;
        v = check.floats(attribute(name), type, what + " " + name, true);
        if (v.size() != count * size_t(components))
          check.fail(what + ": " + name + " and POSITION have different counts");
        return v;
      };
      const std::vector<float> given_normals = optional("NORMAL", TINYGLTF_TYPE_VEC3, 3);
      const std::vector<float> uv0 = optional("TEXCOORD_0", TINYGLTF_TYPE_VEC2, 2);
      const std::vector<float> uv1 = optional("TEXCOORD_1", TINYGLTF_TYPE_VEC2, 2);
      const std::vector<float> tangents = optional("TANGENT", TINYGLTF_TYPE_VEC4, 4);
      std::vector<uint32_t> indices;
      if (prim.indices >= 0) indices = check.indices(prim.indices, count, what + " indices");
      else
        for (uint32_t i = 0; i < count; ++i) indices.push_back(i);
      if (indices.size() % 3)
        check.fail(what + ": " + std::to_string(indices.size()) + " indices, not whole triangles");
      std::vector<glm::vec3> normals(count, glm::vec3(0.0f));
      if (!given_normals.empty()) {
        for (size_t i = 0; i < count; ++i)
          normals[i] = {given_normals[3 * i], given_normals[3 * i + 1], given_normals[3 * i + 2]};
      } else {  // none given: the faces' normals averaged at each vertex
        for (size_t i = 0; i < indices.size(); i += 3) {
          const auto at = [&](uint32_t v) {
            return glm::vec3(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
          };
          const glm::vec3 face =
              glm::cross(at(indices[i + 1]) - at(indices[i]), at(indices[i + 2]) - at(indices[i]));
          for (int k = 0; k < 3; ++k) normals[indices[i + size_t(k)]] += face;
        }
      }
      const uint32_t object = uint32_t(scene->instances.size() + 1);
      const uint32_t base = uint32_t(content.mesh.vertices.size());
      glm::vec3 local_lo(INFINITY), local_hi(-INFINITY);
      for (size_t i = 0; i < count; ++i) {
        Vertex v{};
        v.position = glm::vec3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
        const float length = glm::length(normals[i]);
        v.normal = length > 0 ? normals[i] / length : glm::vec3(0, 1, 0);
        v.object = object;
        if (!uv0.empty()) v.uv0 = {uv0[2 * i], uv0[2 * i + 1]};
        if (!uv1.empty()) v.uv1 = {uv1[2 * i], uv1[2 * i + 1]};
        if (!tangents.empty()) {
          const glm::vec3 t(tangents[4 * i], tangents[4 * i + 1], tangents[4 * i + 2]);
          // A usable tangent (unit length, w = +-1, as the spec requires); else the derived frame.
          if (glm::length(t) > 0.5f)
            v.tangent = glm::vec4(glm::normalize(t), tangents[4 * i + 3] < 0 ? -1.0f : 1.0f);
        }
        content.mesh.vertices.push_back(v);
        const glm::vec3 world = glm::vec3(rest_world[n] * glm::vec4(v.position, 1.0f));
        lo = glm::min(lo, world);
        hi = glm::max(hi, world);
        local_lo = glm::min(local_lo, v.position);
        local_hi = glm::max(local_hi, v.position);
      }
      Pending draw{{}, 0, object, (local_lo + local_hi) * 0.5f, false};
      for (uint32_t i : indices) draw.indices.push_back(base + i);
      // The material's factors live in its MaterialGpu; a primitive without one is the old grey.
      Instance instance{n, glm::vec4(0.8f, 0.8f, 0.8f, 0.5f), glm::vec3(0.0f)};
      if (prim.material >= 0) {
        if (size_t(prim.material) >= model.materials.size())
          check.fail(what + " has material " + std::to_string(prim.material) + ", which does not exist");
        draw.material = uint32_t(prim.material) + 1;
        instance.albedo_roughness = glm::vec4(1.0f);
        const Material& material = content.materials[draw.material];
        draw.blend = material.gpu.flags.x == uint32_t(AlphaMode::Blend);
        const bool has_tex1 = !uv1.empty(), has_tex0 = !uv0.empty();
        for (uint32_t slot = 0; slot < kTextureSlots; ++slot)
          if (material.textures[slot]) {
            const bool set1 = material.gpu.uv_transform[slot][0].w > 0.5f;
            if (!(set1 ? has_tex1 : has_tex0))
              check.fail(what + " uses material " + std::to_string(prim.material) +
                         ", whose textures read TEXCOORD_" + (set1 ? "1" : "0") +
                         ", which the primitive lacks");
          }
      }
      scene->instances.push_back(instance);
      pending.push_back(std::move(draw));
      if (content.mesh.vertices.size() > kMaxElements)
        check.fail("more than " + std::to_string(kMaxElements) + " vertices");
    }
  }
  if (scene->instances.empty()) check.fail("nothing to draw (no triangle primitive in the scene's nodes)");
  // The index buffer: the sky, the opaque and masked primitives grouped by material (one draw a
  // material), then each blended primitive (one draw each, ordered by the scene pass every frame).
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return std::pair(a.blend, a.blend ? 0u : a.material) < std::pair(b.blend, b.blend ? 0u : b.material);
  });
  for (Pending& p : pending) {
    const uint32_t first = uint32_t(content.mesh.indices.size());
    content.mesh.indices.insert(content.mesh.indices.end(), p.indices.begin(), p.indices.end());
    Draw& last = content.draws.back();
    if (!p.blend && !last.blend && last.material == p.material && content.draws.size() > 1)
      last.index_count += uint32_t(p.indices.size());
    else
      content.draws.push_back({first, uint32_t(p.indices.size()), p.material, p.object, p.center, p.blend});
  }
  if (content.mesh.indices.size() > kMaxElements * 3)
    check.fail("more than " + std::to_string(kMaxElements * 3) + " indices");
  scene->center = (lo + hi) * 0.5f;
  scene->radius = std::max(glm::length(hi - lo) * 0.5f, 1e-3f);
  read_lights(check, model, drawn, *scene);

  // Node animations.
  for (size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& anim = model.animations[a];
    for (size_t c = 0; c < anim.channels.size(); ++c) {
      const tinygltf::AnimationChannel& ch = anim.channels[c];
      const std::string what = "animation " + std::to_string(a) + " channel " + std::to_string(c);
      if (ch.target_node < 0 || size_t(ch.target_node) >= nodes)
        check.fail(what + " targets node " + std::to_string(ch.target_node) + ", which does not exist");
      if (ch.sampler < 0 || size_t(ch.sampler) >= anim.samplers.size())
        check.fail(what + " has sampler " + std::to_string(ch.sampler) + ", which does not exist");
      Channel channel;
      channel.node = size_t(ch.target_node);
      if (ch.target_path == "translation") channel.path = Path::Translation;
      else if (ch.target_path == "rotation") channel.path = Path::Rotation;
      else if (ch.target_path == "scale") channel.path = Path::Scale;
      else {
        note("morph target weight animations: not played");
        continue;
      }
      if (scene->rest[channel.node].matrix)
        check.fail(what + " animates node " + std::to_string(channel.node) + ", which is given as a matrix");
      const tinygltf::AnimationSampler& sampler = anim.samplers[size_t(ch.sampler)];
      channel.times = check.floats(sampler.input, TINYGLTF_TYPE_SCALAR, what + " input");
      if (channel.times.empty()) check.fail(what + ": no keys");
      for (size_t k = 1; k < channel.times.size(); ++k)
        if (!(channel.times[k] > channel.times[k - 1])) check.fail(what + ": key times that do not increase");
      channel.components = channel.path == Path::Rotation ? 4 : 3;
      channel.values =
          check.floats(sampler.output, channel.components == 4 ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
                       what + " output", true);
      if (sampler.interpolation != "LINEAR" && sampler.interpolation != "STEP" &&
          sampler.interpolation != "CUBICSPLINE")
        check.fail(what + ": interpolation '" + sampler.interpolation + "' (LINEAR, STEP or CUBICSPLINE)");
      channel.interpolation = sampler.interpolation == "STEP"          ? Channel::Interpolation::Step
                              : sampler.interpolation == "CUBICSPLINE" ? Channel::Interpolation::Cubic
                                                                       : Channel::Interpolation::Linear;
      const size_t per_key = channel.interpolation == Channel::Interpolation::Cubic ? 3 : 1;
      if (channel.values.size() != channel.times.size() * per_key * size_t(channel.components))
        check.fail(what + ": " + std::to_string(channel.values.size() / size_t(channel.components)) +
                   " output values for " + std::to_string(channel.times.size()) + " keys");
      scene->duration = std::max(scene->duration, channel.times.back());
      scene->channels.push_back(std::move(channel));
    }
  }

  // The file's cameras, by the nodes that hold them.
  for (size_t n = 0; n < nodes; ++n) {
    const int c = model.nodes[n].camera;
    if (c < 0 || !drawn[n]) continue;
    if (size_t(c) >= model.cameras.size())
      check.fail("node " + std::to_string(n) + " has camera " + std::to_string(c) + ", which does not exist");
    const tinygltf::Camera& cam = model.cameras[size_t(c)];
    FileCamera f{n,
                 cam.name.empty() ? "#" + std::to_string(scene->cameras.size()) : cam.name,
                 cam.type != "orthographic",
                 float(cam.perspective.yfov),
                 float(cam.perspective.znear),
                 float(cam.perspective.zfar),
                 float(cam.orthographic.xmag),
                 float(cam.orthographic.ymag)};
    if (!f.perspective) {
      f.znear = float(cam.orthographic.znear);
      f.zfar = float(cam.orthographic.zfar);
    }
    for (float v : {f.yfov, f.znear, f.zfar, f.xmag, f.ymag}) check.finite(v, "camera " + std::to_string(c));
    if (f.perspective && !(f.yfov > 0 && f.znear > 0))
      check.fail("camera " + std::to_string(c) + ": yfov and znear must be positive");
    if (f.perspective && !(f.zfar > f.znear)) f.zfar = f.znear * 1e6f;  // infinite: far enough
    if (!f.perspective && !(f.xmag != 0 && f.ymag != 0 && f.zfar > f.znear))
      check.fail("camera " + std::to_string(c) + ": a degenerate orthographic projection");
    scene->cameras.push_back(f);
    out.cameras.push_back(f.name);
  }
  // The view: the camera --scene-camera names; kOrbitView, an orbit around the scene's bounds; none
  // named, the file's first camera, the view its author framed (the orbit around the lab scene's
  // bounds framed its 40 m floor, the lab a small platform in the sky: issue #54), else the orbit.
  if (camera_name && *camera_name == kOrbitView) {
  } else if (!camera_name) {
    if (!scene->cameras.empty()) scene->camera = 0;
  } else {
    for (size_t i = 0; i < scene->cameras.size() && !scene->camera; ++i)
      if (scene->cameras[i].name == *camera_name || "#" + std::to_string(i) == *camera_name ||
          std::to_string(i) == *camera_name)
        scene->camera = i;
    if (!scene->camera) {
      std::string names;
      for (const FileCamera& f : scene->cameras) names += (names.empty() ? "" : ", ") + f.name;
      check.fail("no camera '" + *camera_name + "' (cameras: " + (names.empty() ? "none" : names) + "; or " +
                 kOrbitView + ")");
    }
  }
  if (scene->camera)
    for (int n = int(scene->cameras[*scene->camera].node); n >= 0; n = parent[size_t(n)])
      scene->camera_path[size_t(n)] = true;
  out.scene = scene;
  return out;
}

}  // namespace filterlab::scene
