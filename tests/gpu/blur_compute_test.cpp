// GPU tier for blur_compute.cpp: see blur_test.cpp for the pattern.
