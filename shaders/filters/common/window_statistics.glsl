// The window statistics, as window sums (filters/common/window.glsl): the variance family writes them,
// TAA's resolve clips its history to them. Per channel, over the window,
// either the mean and the standard deviation (Zubatov & Shcherbakov, (7) and (8)) or the minimum and
// the maximum, in RGB or YCoCg, over a square or plus-shaped window: what TAA's rectification reads.
// An accumulator is two vec4s: (sum of d, sum of d^2) with d = x - anchor, or (min, max).
//
// The standard deviation: E[x^2] - E[x]^2 cancels catastrophically when the values are large against
// their spread (1000 + noise in fp32 keeps nothing). The sums are of d = x - anchor, where the anchor
// is one texel of the pixel's own window that is common to its whole 2x2 quad (the quad's even
// corner; for comp.separable_shared the tile's corner, common to the tile), so that partial sums
// can still cross the quad. Then |d| is at most the window's range, the cancellation loses no more
// than the window's spread against its range, and mean = anchor + E[d].
#ifndef FILTERLAB_WINDOW_STATISTICS_GLSL
#define FILTERLAB_WINDOW_STATISTICS_GLSL
#include "filters/common/window_statistics_config.h"

#define WINDOW_OUTPUTS 2
#define WINDOW_CENTRE  // min and max start from the target's own value (see acc_empty)

layout(constant_id = WINDOW_STATS_ID) const int STATS = WINDOW_STATS_MOMENTS;
layout(constant_id = WINDOW_SHAPE_ID) const int SHAPE = WINDOW_SHAPE_SQUARE;
layout(constant_id = WINDOW_SPACE_ID) const int SPACE = WINDOW_SPACE_RGB;

vec4 window_value(vec4 c) {
  if (SPACE == WINDOW_SPACE_YCOCG)
    return vec4(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b, c.a);
  return c;
}

bool in_window(ivec2 o) { return SHAPE == WINDOW_SHAPE_SQUARE || o.x == 0 || o.y == 0; }

// No terms yet. Min and max start from a value of the window (the target's own) rather than from
// infinities: partial sums cross the quad as v + t * (v' - v), which an infinity turns into NaN.
Acc acc_empty(vec4 member) {
  Acc a;
  a.v[0] = STATS == WINDOW_STATS_MOMENTS ? vec4(0.0) : member;
  a.v[1] = a.v[0];
  return a;
}

void acc_add(inout Acc a, vec4 v, ivec2 o, vec4 centre, vec4 anchor) {
  if (STATS == WINDOW_STATS_MOMENTS) {
    const vec4 d = v - anchor;
    a.v[0] += d;
    a.v[1] += d * d;
  } else {
    a.v[0] = min(a.v[0], v);
    a.v[1] = max(a.v[1], v);
  }
}

Acc acc_join(Acc a, Acc b) {
  if (STATS == WINDOW_STATS_MOMENTS) {
    a.v[0] += b.v[0];
    a.v[1] += b.v[1];
  } else {
    a.v[0] = min(a.v[0], b.v[0]);
    a.v[1] = max(a.v[1], b.v[1]);
  }
  return a;
}

vec4 window_result(Acc a, int k, vec4 centre, vec4 anchor) {
  if (STATS != WINDOW_STATS_MOMENTS) return a.v[k];
  const float n = SHAPE == WINDOW_SHAPE_SQUARE ? float((2 * RADIUS + 1) * (2 * RADIUS + 1)) : float(4 * RADIUS + 1);
  const vec4 mean_d = a.v[0] / n;
  if (k == 0) return anchor + mean_d;
  return sqrt(max(a.v[1] / n - mean_d * mean_d, vec4(0.0)));
}

// comp.separable_shared (square windows only): a row's sum, then the rows'.
void acc_add_row(inout Acc a, vec4 v, int j, vec4 anchor) { acc_add(a, v, ivec2(j, 0), vec4(0.0), anchor); }
void acc_add_rows(inout Acc a, Acc row, int i) { a = acc_join(a, row); }

#if defined(WINDOW_QUAD)
// Section 3.3 for a square window, whose weights are all 1: with nonuniform sampling, p + (i t_x,
// j t_y) for i, j in T, a texel belongs to the x-neighbour's window unless i = -r (the column
// facing away), to the y-neighbour's unless j = -r, to the diagonal's unless either. So each texel
// is added once, into one of four regions, A (i, j in Q = T \ {-r}), B (i = -r, j in Q),
// C (i in Q, j = -r), D (both -r), and the partial sums are unions of regions: diagonal A, y-neighbour
// A + B, x-neighbour A + C, own A + B + C + D. (r+1)^2 additions per pixel, not 4(r+1)^2 as in the
// general exchange (quad_sum_any), which plus-shaped windows keep.
#define FAMILY_QUAD_SUM
Acc quad_sum(ivec2 p, vec4 centre, vec4 anchor) {
  if (SHAPE != WINDOW_SHAPE_SQUARE) return quad_sum_any(p, centre, anchor);
  const ivec2 s = ivec2((p.x & 1) == 0 ? 1 : -1, (p.y & 1) == 0 ? 1 : -1);
  const vec2 t = vec2(s);
  // Every region lies in the square windows of all four pixels, which hold p too: min and max may
  // start from our own value.
  Acc a = acc_empty(centre), b = acc_empty(centre), c = acc_empty(centre), d = acc_empty(centre);
  for (int row = 0; row <= RADIUS; ++row) {
    const int j = 2 * row - RADIUS;
    Acc in_a = acc_empty(centre), in_b = acc_empty(centre);
    for (int col = 0; col <= RADIUS; ++col) {
      const vec4 v = window_value(texel_clamped(p + ivec2(2 * col - RADIUS, j) * s));
      if (col == 0) acc_add(in_b, v, ivec2(0), centre, anchor);
      else acc_add(in_a, v, ivec2(0), centre, anchor);
    }
    if (row == 0) {
      c = acc_join(c, in_a);
      d = acc_join(d, in_b);
    } else {
      a = acc_join(a, in_a);
      b = acc_join(b, in_b);
    }
  }
  const Acc for_y = acc_join(a, b), for_x = acc_join(a, c), own = acc_join(for_y, acc_join(c, d));
  const Acc diagonal = acc_join(acc_from_x(for_y, t.x), a);
  const Acc x_neighbour = acc_join(acc_from_y(diagonal, t.y), for_x);
  return acc_join(acc_from_x(x_neighbour, t.x), own);
}
#endif

#endif
