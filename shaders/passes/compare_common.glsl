// A/B compare, the display: split screen (A left of the divider, B from it on), side by side (the
// middle half of A left of the middle half of B: the same pixels of both, next to each other) or
// |A-B| x gain
// on the black-red-yellow-white ramp of filters::difference_heatmap, or the FLIP map in magma
// (common::flip_magma's colours: entry round(255 FLIP)), with an optional magnifier
// square (nearest sampling, integer zoom) centred on the cursor. The includer defines
// OUTPUT_FORMAT, the storage image's format qualifier. Colours are the stored values (no
// tonemap), alpha 1.
#include "passes/passes_config.h"
layout(local_size_x = COMPARE_DISPLAY_GROUP, local_size_y = COMPARE_DISPLAY_GROUP) in;
layout(set = 0, binding = BINDING_COMPARE_A) uniform sampler2D image_a;
layout(set = 0, binding = BINDING_COMPARE_B) uniform sampler2D image_b;
layout(set = 0, binding = BINDING_COMPARE_DISPLAY, OUTPUT_FORMAT) uniform writeonly image2D display;
// The FLIP maps of A against B and of the HDR pair they were tonemapped from (R32F; A itself where
// the display has none, and the flip view then shows the split one).
layout(set = 0, binding = BINDING_COMPARE_FLIP) uniform sampler2D flip_map;
layout(set = 0, binding = BINDING_COMPARE_FLIP_HDR) uniform sampler2D flip_map_hdr;
// This frame's metrics from compare_finish.comp: sums.w is the largest |A-B|, for the automatic gain.
layout(set = 0, binding = BINDING_COMPARE_RESULT, std430) readonly buffer Result {
  vec4 sums;
  uvec4 info;
};
// Mirrors ComparePass's DisplayPush.
layout(push_constant) uniform Push {
  uint mode;     // 0 split, 1 difference, 2 side by side, 3 FLIP
  int divider;   // split: x < divider shows A
  float gain;    // difference: <= 0 picks 1 / max |A-B| of this frame
  uint flags;    // 1: divider line, 2: magnifier
  int cursor_x;
  int cursor_y;
  uint zoom;     // >= 1
  uint inset;    // side of the magnifier square in pixels, border included (>= 3)
  uint source;   // magnifier: 0 A, 1 B, 2 difference (the FLIP map in the FLIP view)
  uint flip_of_hdr;  // the FLIP view: 1 shows flip_map_hdr
};

#define MAGMA(r, g, b) uvec3(r, g, b)
const uvec3 kMagma[256] = uvec3[256](
#include "magma.inc"
);
#undef MAGMA

vec4 flip_colour(ivec2 p) {
  const float flip = flip_of_hdr != 0u ? texelFetch(flip_map_hdr, p, 0).r : texelFetch(flip_map, p, 0).r;
  const uint index = uint(clamp(round(flip * 255.0), 0.0, 255.0));
  return vec4(vec3(kMagma[index]) / 255.0, 1.0);
}

// Not in any heat-map colour (those never have more green than red), so lines stay visible.
const vec4 kLineColor = vec4(0.0, 1.0, 1.0, 1.0);

vec4 heat(float t) {
  t = clamp(t, 0.0, 1.0) * 3.0;
  return vec4(clamp(vec3(t, t - 1.0, t - 2.0), 0.0, 1.0), 1.0);
}

vec4 difference(ivec2 p, float g) {
  const vec3 d = abs(texelFetch(image_a, p, 0).rgb - texelFetch(image_b, p, 0).rgb);
  return heat(max(d.r, max(d.g, d.b)) * g);
}

vec4 opaque(vec4 c) { return vec4(c.rgb, 1.0); }

// Rounds towards minus infinity: with truncating division the centre texel would cover
// 2 zoom - 1 pixels across instead of zoom like every other texel.
ivec2 floor_div(ivec2 a, int b) {
  return ivec2(a.x >= 0 ? a.x / b : -((-a.x + b - 1) / b), a.y >= 0 ? a.y / b : -((-a.y + b - 1) / b));
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 size = imageSize(display);
  if (any(greaterThanEqual(p, size))) return;
  float g = gain;
  if (g <= 0.0) g = sums.w > 0.0 ? 1.0 / sums.w : 1.0;

  vec4 color;
  if (mode == 1u) {
    color = difference(p, g);
  } else if (mode == 3u) {
    color = flip_colour(p);
  } else if (mode == 2u) {
    const int middle = size.x / 2, quarter = size.x / 4;
    if ((flags & 1u) != 0u && p.x == middle) color = kLineColor;
    else if (p.x < middle) color = opaque(texelFetch(image_a, ivec2(p.x + quarter, p.y), 0));
    else color = opaque(texelFetch(image_b, ivec2(p.x - middle + quarter, p.y), 0));
  } else if ((flags & 1u) != 0u && p.x == divider) {
    color = kLineColor;
  } else {
    color = opaque(p.x < divider ? texelFetch(image_a, p, 0) : texelFetch(image_b, p, 0));
  }

  if ((flags & 2u) != 0u) {
    const int side = int(inset);
    const ivec2 cursor = clamp(ivec2(cursor_x, cursor_y), ivec2(0), size - 1);
    // The square is centred on the cursor but kept inside the image where it fits.
    const ivec2 origin = clamp(cursor - side / 2, ivec2(0), max(size - side, ivec2(0)));
    const ivec2 rel = p - origin;
    if (all(greaterThanEqual(rel, ivec2(0))) && all(lessThan(rel, ivec2(side)))) {
      if (any(equal(rel, ivec2(0))) || any(equal(rel, ivec2(side - 1)))) {
        color = kLineColor;
      } else {
        // Side by side shows column x of A or B elsewhere than column x: magnify what is under the cursor.
        ivec2 shown = cursor;
        if (mode == 2u) shown.x += cursor.x < size.x / 2 ? size.x / 4 : size.x / 4 - size.x / 2;
        const ivec2 texel = clamp(shown + floor_div(rel - side / 2, int(zoom)), ivec2(0), size - 1);
        color = source == 0u   ? opaque(texelFetch(image_a, texel, 0))
                : source == 1u ? opaque(texelFetch(image_b, texel, 0))
                : mode == 3u   ? flip_colour(texel)
                               : difference(texel, g);
      }
    }
  }
  imageStore(display, p, color);
}
