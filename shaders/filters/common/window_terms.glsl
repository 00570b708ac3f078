// A window kind for window.glsl: the weighted sum of a kernel that is a sum of separable terms,
//   out(p) = sum over |x|, |y| <= r of g(x, y) in(p + (x, y)),  g(x, y) = sum_t h_t(x) v_t(y),
// clamp to edge. The Gaussian is one term (h = v = w), the tent's rank-2 kernel two. The family
// defines WINDOW_TERMS (the number of terms) before including window.glsl, and before this file
//   float term_h(int t, int x)   term t's horizontal weight at column offset x, 0 past RADIUS
//   float term_v(int t, int y)   its vertical weight at row offset y, 0 past RADIUS
// (the quad exchange reads them one step past the window)
// then includes window_main.glsl. Here the window sums of window.glsl follow from those weights:
// the accumulator holds one row sum per term (ACC_VEC4S = WINDOW_TERMS, the first is the result),
// the fetch loops sum each row once per term and fold the rows with the vertical weights, and the
// quad exchange takes three exchanges whatever r and whatever the number of terms (below).
// comp.separable_shared of such a window is two passes (window_main.glsl, WINDOW_ROWS_PASS and
// WINDOW_COLUMNS_PASS): each term's row sums in an image of their own, then the columns.
#ifndef FILTERLAB_WINDOW_TERMS_GLSL
#define FILTERLAB_WINDOW_TERMS_GLSL
#if WINDOW_TERMS > WINDOW_MAX_TERMS
#error "the two-pass separable method has an image binding for WINDOW_MAX_TERMS terms at most"
#endif

// The weight offset o has for the neighbour at +s (s = +-1): g(o - s). Once loops are unrolled,
// o is a constant and so are both candidates: only the select is per pixel.
float h_from(int t, int x, float s) { return s > 0.0 ? term_h(t, x - 1) : term_h(t, x + 1); }
float v_from(int t, int y, float s) { return s > 0.0 ? term_v(t, y - 1) : term_v(t, y + 1); }

vec4 window_value(vec4 texel) { return texel; }
bool in_window(ivec2 o) { return true; }
Acc acc_empty(vec4 member) { return acc_zero(); }
void acc_add(inout Acc a, vec4 v, ivec2 o, vec4 centre, vec4 anchor) {
  float w = 0.0;
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) w += term_h(t, o.x) * term_v(t, o.y);
  a.v[0] += w * v;
}
Acc acc_join(Acc a, Acc b) {
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) a.v[t] += b.v[t];
  return a;
}
vec4 window_result(Acc a, int k, vec4 centre, vec4 anchor) { return a.v[0]; }
// A row: each term's sum; rows fold into the result with each term's vertical weight.
void acc_add_row(inout Acc a, vec4 v, int x, vec4 anchor) {
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) a.v[t] += term_h(t, x) * v;
}
void acc_add_rows(inout Acc a, Acc row, int y) {
  [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) a.v[0] += term_v(t, y) * row.v[t];
}

// The fetch loop (frag.full2d): each row summed once per term, then weighted down the column.
// Columns unrolled, so that their weights are constants; rows rolled (unrolled, r = 32 made
// pipelines slow to build on llvmpipe).
#define FAMILY_WINDOW_SUM
vec4 window_read(ivec2 p);
Acc window_sum(ivec2 p, vec4 centre, vec4 anchor) {
  Acc a = acc_zero();
  for (int y = -RADIUS; y <= RADIUS; ++y) {
    Acc row = acc_zero();
    [[unroll]] for (int x = -RADIUS; x <= RADIUS; ++x) acc_add_row(row, window_read(p + ivec2(x, y)), x, anchor);
    acc_add_rows(a, row, y);
  }
  return a;
}

#if defined(WINDOW_QUAD)
// Zubatov & Shcherbakov, sections 3.1 and 3.2, for any sum of separable terms: each pixel of a
// 2x2 quad reads the (r+1)^2 texels at p + (x, y), x, y in {-r, -r+2, ..., r}, and sums each row
// with its own horizontal weights and with its x-neighbour's (h(x - s_x)); both members of an
// x-pair read the same rows, so every row folds with the vertical weights before crossing: ours
// (v(y)) and the y-neighbour's (v(y - s_y)). The paper exchanges each row's sums (r+1 exchanges
// for the Gaussian, 2(r+1) + 1 for the rank-2 tent); the exchange is linear, so after the fold
// three do: the x-neighbour's part of our rows, of the y-neighbour's rows, then the y-neighbour's
// rows we did not read.
#define FAMILY_QUAD_SUM
Acc quad_sum(ivec2 p, vec4 centre, vec4 anchor) {
  const float sx = (p.x & 1) == 0 ? 1.0 : -1.0, sy = (p.y & 1) == 0 ? 1.0 : -1.0;
  vec4 own = vec4(0.0), for_x = vec4(0.0);              // our vertical weights
  vec4 own_for_y = vec4(0.0), for_x_for_y = vec4(0.0);  // the y-neighbour's
  for (int b = 0; b <= RADIUS; ++b) {
    const int y = 2 * b - RADIUS;
    vec4 row[WINDOW_TERMS], row_for_x[WINDOW_TERMS];
    [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) row[t] = row_for_x[t] = vec4(0.0);
    // Unrolled, so the (r+1)^2 texels' weights are constants; the r+1 rows look theirs up. Forced:
    // the driver left it rolled at large radii, four times slower there.
    [[unroll]] for (int a = 0; a <= RADIUS; ++a) {
      const int x = 2 * a - RADIUS;
      const vec4 texel = window_read(p + ivec2(x, y));
      [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) {
        row[t] += term_h(t, x) * texel;
        row_for_x[t] += h_from(t, x, sx) * texel;
      }
    }
    [[unroll]] for (int t = 0; t < WINDOW_TERMS; ++t) {
      own += term_v(t, y) * row[t];
      for_x += term_v(t, y) * row_for_x[t];
      const float wy_for_y = v_from(t, y, sy);
      own_for_y += wy_for_y * row[t];
      for_x_for_y += wy_for_y * row_for_x[t];
    }
  }
  // From the x-neighbour (equation 9): both sums now cover all 2r+1 columns of their rows; then
  // from the y-neighbour (equation 10) the r rows we did not read.
  const vec4 sum = own + from_x_neighbour(for_x, sx);
  const vec4 sum_for_y = own_for_y + from_x_neighbour(for_x_for_y, sx);
  Acc a = acc_zero();
  a.v[0] = sum + from_y_neighbour(sum_for_y, sy);
  return a;
}
#endif

#endif
