#pragma once
// The taa family: temporal anti-aliasing with history rectification (Karis 2014, Salvi 2016), the
// neighbourhood statistics from the variance family's window sums inside the resolve's own pass;
// the methods are the ways those statistics are computed. Reads the scene's depth and motion, the
// camera and its own history, and turns the scene's jitter on. Shaders: shaders/filters/taa/.
#include "filters/family.h"

namespace filterlab::filters::taa {

const Family& family();

}  // namespace filterlab::filters::taa
