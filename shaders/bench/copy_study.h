// The copy study's bindings (set 0), shared by bench/copy_study.cpp and copy_study.comp. Its
// pipeline lists the descriptor types in binding order, so these stay 0, 1, 2.
#ifndef FILTERLAB_COPY_STUDY_H
#define FILTERLAB_COPY_STUDY_H
#define STUDY_SAMPLED_SOURCE 0  // sampler2D: read with texelFetch
#define STUDY_STORAGE_SOURCE 1  // storage image: read with imageLoad
#define STUDY_DESTINATION 2     // storage image: written
#endif
