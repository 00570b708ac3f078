// The scene pass's bindings (renderer/passes/scene_pass.cpp and the scene shaders), C++ and GLSL.
#ifndef FILTERLAB_SCENE_CONFIG_H
#define FILTERLAB_SCENE_CONFIG_H

#define BINDING_SCENE_CAMERA 0     // uniform: CameraGpu, this frame's (std140)
#define BINDING_SCENE_OBJECTS 1    // buffer: ObjectGpu per object (std430)
#define BINDING_SCENE_MATERIAL 2   // uniform: the draw's MaterialGpu (std140), a range of one buffer
#define BINDING_SCENE_LIGHTS 3     // buffer: LightGpu per light, this frame's (std430)
#define BINDING_SCENE_TEXTURES 4   // sampler2D per TextureSlot: 4 + slot
#define SCENE_TEXTURE_SLOTS 5      // scene::kTextureSlots
#define BINDING_SCENE_COUNT (BINDING_SCENE_TEXTURES + SCENE_TEXTURE_SLOTS)

#endif  // FILTERLAB_SCENE_CONFIG_H
