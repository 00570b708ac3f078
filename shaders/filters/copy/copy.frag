#version 460
// frag.fetch: the copy in a fragment shader over a full-screen triangle, one texelFetch a pixel and
// the colour attachment's store. Beside the compute copies it measures what a fragment pass costs
// on the device where it costs nothing more than a copy: on GPUs that shade fragments on few units
// (NVIDIA's H100 and H200 in their compute configuration) it is far slower than comp.fetch, and
// the report compares fragment methods with fragment methods there.
#extension GL_GOOGLE_include_directive : require
#include "filters/copy/copy_config.h"

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // texelFetch, like the filters
layout(location = 0) out vec4 result;

void main() {
  result = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
}
