#pragma once
// A glTF 2.0 scene (.gltf with its .bin files, .glb, data URIs) as a SceneModel, read through
// Debian's libtinygltf. The library checks the JSON; everything it does not check is checked here
// before a scene is accepted: every file it reads goes through filterlab's file rules (a regular
// file, capped in size, relative to the scene's folder), accessors lie inside their buffer views
// and buffers with the types their use needs, indices lie inside their vertices, every number
// read is finite, the node graph is a forest (no cycle, one parent a node), and the extensions the
// file requires are ones filterlab reads. A failure is io::InputError naming the file and the
// problem: bad input, exit 2, before any device is opened.
//
// Drawn: triangle primitives (indexed or not; other modes skipped with a note), the node hierarchy
// (TRS or matrix), node animations of translation, rotation and scale (step, linear, cubic spline,
// looping) which move objects and so their motion vectors (SceneSettings::animate_objects; a file
// camera's own path plays with orbit_camera, --camera orbit), metallic-roughness materials with
// their five textures (images decoded by filterlab's PNG and JPEG readers, each at most 8192^2;
// samplers; KHR_texture_transform; texture coordinate sets 0 and 1; tangents where given, else a
// frame from derivatives), alpha modes, KHR_materials_emissive_strength, KHR_lights_punctual (else
// the built-in sun), the file's cameras, and the built-in sky around the scene. Skins and morph
// targets show the rest pose, with a note.
#include "scene/scene_content.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::scene {

struct GltfLoad {
  std::shared_ptr<const SceneModel> scene;
  std::vector<std::string> notes;    // what was skipped or simplified, one line each
  std::vector<std::string> cameras;  // the file's cameras, by node order: "name" or "#index"
};

// camera: a camera of the file by name or index (--scene-camera), or kOrbitView for an orbit around
// the scene's bounds; none: the file's first camera, or the orbit where it has none (--camera
// orbit|fixed plays or holds either). Throws io::InputError.
inline constexpr const char* kOrbitView = "orbit";
GltfLoad load_gltf(const std::filesystem::path& path,
                   const std::optional<std::string>& camera = std::nullopt);

}  // namespace filterlab::scene
