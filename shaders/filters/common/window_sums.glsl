// The window sums of window.glsl as functions, for the drivers of window_main.glsl and for any
// pass that needs a window's statistics inside its own main() (TAA's resolve reads the variance
// family's this way): include window.glsl, the family's sums, then this file.
#ifndef FILTERLAB_WINDOW_SUMS_GLSL
#define FILTERLAB_WINDOW_SUMS_GLSL

// A pass that stages the window's texels itself (TAA's comp.full2d_shared) defines WINDOW_READ and
// its own window_read() before including this file.
#ifndef WINDOW_READ
vec4 window_read(ivec2 p) { return window_value(texel_clamped(p)); }
#endif

// Offset o from a target lies in its window: inside the square, and in the family's shape.
bool member(ivec2 o) { return all(lessThanEqual(abs(o), ivec2(RADIUS))) && in_window(o); }

// The fetch loop: every texel of p's window. A sum per row, then the rows: shorter chains of
// fp32 additions (at r = 64, 129 of each rather than 16641 in one). A window kind with a cheaper
// loop (window_terms.glsl) defines FAMILY_WINDOW_SUM and its own.
#ifndef FAMILY_WINDOW_SUM
Acc window_sum(ivec2 p, vec4 centre, vec4 anchor) {
  Acc a = acc_empty(centre);
  for (int y = -RADIUS; y <= RADIUS; ++y) {
    Acc row = acc_empty(centre);
    for (int x = -RADIUS; x <= RADIUS; ++x)
      if (in_window(ivec2(x, y))) acc_add(row, window_read(p + ivec2(x, y)), ivec2(x, y), centre, anchor);
    a = acc_join(a, row);
  }
  return a;
}
#endif

#if defined(WINDOW_QUAD)
// Zubatov & Shcherbakov, section 3.3, for any window sum: nonuniform sampling. Each pixel of the
// quad reads the (r+1)^2 texels at p + (i t_x, j t_y), i, j in T = {-r, -r+2, ..., r}, facing away
// from its neighbours: the four read sets are disjoint and cover the quad's (2r+2)^2 block, so
// each texel of each pixel's window is read by exactly one of the four. Each pixel sums what it
// read into four partial sums, one per pixel of the quad (offsets taken from that pixel, so any
// weights and window shapes work), and three exchanges pass them round the quad:
//   for its y-neighbour --x--> + for the diagonal --y--> + for the x-neighbour --x--> + its own.
// The x-neighbour's sum for its y-neighbour is a sum for our diagonal, and so on round the quad;
// at the end each pixel holds the sums of all four readers for its own window. A family with a
// cheaper exchange for its kernel (the tent's rank 2, section 3.2; the variance's square windows)
// defines FAMILY_QUAD_SUM and its own quad_sum(), and may call this one for the rest.
Acc quad_sum_any(ivec2 p, vec4 centre, vec4 anchor) {
  const ivec2 s = ivec2((p.x & 1) == 0 ? 1 : -1, (p.y & 1) == 0 ? 1 : -1);
  const vec2 t = vec2(s);
  // The targets: x-neighbour, y-neighbour, diagonal; offsets from them are o - their offset.
  const ivec2 to_x = ivec2(s.x, 0), to_y = ivec2(0, s.y), to_d = s;
#if defined(WINDOW_CENTRE)
  // Their own values, for sums that depend on the centre (the bilateral, section 3.4, figure 9).
  const vec4 centre_x = from_x_neighbour(centre, t.x), centre_y = from_y_neighbour(centre, t.y);
  const vec4 centre_d = from_x_neighbour(centre_y, t.x);
#else
  const vec4 centre_x = centre, centre_y = centre, centre_d = centre;
#endif
  Acc own = acc_empty(centre), for_x = acc_empty(centre_x), for_y = acc_empty(centre_y),
      for_d = acc_empty(centre_d);
  // Row by row, like frag.full2d: shorter chains of fp32 additions.
  for (int b = 0; b <= RADIUS; ++b) {
    Acc row = acc_empty(centre), row_x = acc_empty(centre_x), row_y = acc_empty(centre_y),
        row_d = acc_empty(centre_d);
    for (int a = 0; a <= RADIUS; ++a) {
      const ivec2 o = ivec2(2 * a - RADIUS, 2 * b - RADIUS) * s;
      const vec4 v = window_read(p + o);
      if (member(o)) acc_add(row, v, o, centre, anchor);
      if (member(o - to_x)) acc_add(row_x, v, o - to_x, centre_x, anchor);
      if (member(o - to_y)) acc_add(row_y, v, o - to_y, centre_y, anchor);
      if (member(o - to_d)) acc_add(row_d, v, o - to_d, centre_d, anchor);
    }
    own = acc_join(own, row);
    for_x = acc_join(for_x, row_x);
    for_y = acc_join(for_y, row_y);
    for_d = acc_join(for_d, row_d);
  }
  const Acc diagonal = acc_join(acc_from_x(for_y, t.x), for_d);
  const Acc x_neighbour = acc_join(acc_from_y(diagonal, t.y), for_x);
  return acc_join(acc_from_x(x_neighbour, t.x), own);
}

#ifndef FAMILY_QUAD_SUM
Acc quad_sum(ivec2 p, vec4 centre, vec4 anchor) { return quad_sum_any(p, centre, anchor); }
#endif

#endif

#endif
