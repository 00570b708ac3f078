// comp.running's main(): see window_running.glsl.
#ifndef FILTERLAB_WINDOW_RUNNING_MAIN_GLSL
#define FILTERLAB_WINDOW_RUNNING_MAIN_GLSL

void main() {
  strip_size = textureSize(source, 0);
  strip_corner = ivec2(gl_WorkGroupID.xy) * ivec2(RUNNING_COLS, ROWS);
  strip_last = min(strip_corner.y + ROWS, strip_size.y);
  strip_anchor = running_value(strip_corner);
  strip_thread = int(gl_LocalInvocationIndex);
  strip_column = strip_corner.x - RADIUS + strip_thread;
  strip_feeds = strip_thread < RUNNING_SPAN;
  RunningColumn column = running_start();
  // The sums for the window centred on the row above the strip; every row slides them by one.
  if (strip_feeds)
    for (int j = -RADIUS; j <= RADIUS; ++j) running_prime(column, j, ivec2(strip_column, strip_corner.y - 1 + j));
  for (int y = strip_corner.y; y < strip_last; ++y) {
    if (strip_feeds) running_slide(column, y);
    running_row(column, y, y & 1);
  }
}

#endif
