// GPU tier for blur_quad.cpp: see blur_test.cpp for the pattern.
