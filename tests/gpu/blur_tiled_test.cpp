// GPU tier for blur_tiled.cpp: see blur_test.cpp for the pattern.
