// The scene pass's bindings (renderer/passes/scene_pass.cpp and the scene shaders), C++ and GLSL.
#ifndef FILTERLAB_SCENE_CONFIG_H
#define FILTERLAB_SCENE_CONFIG_H

#define BINDING_SCENE_CAMERA 0   // uniform: CameraGpu, this frame's (std140)
#define BINDING_SCENE_OBJECTS 1  // buffer: ObjectGpu per object (std430)

#endif  // FILTERLAB_SCENE_CONFIG_H
