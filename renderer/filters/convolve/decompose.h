#pragma once
// direct.separable's design: each plane of the kernel as a sum of separable terms, column(b) row(a),
// from its singular value decomposition (one-sided Jacobi, in double), the fewest terms whose
// residual's L1 norm is at most `max_residual`: for inputs in [0, 1] that bounds the error the
// dropped terms make at any pixel.
#include "filters/convolve/kernel.h"

namespace filterlab::filters::convolve {

struct SeparableTerms {
  int terms = 0;
  // Term t of plane p at t * planes + p: the row vector (width) and the column vector (height, the
  // singular value folded in). A plane that needs fewer terms has zeros in the rest.
  std::vector<std::vector<double>> rows, columns;
  double residual = 0;  // the largest residual L1 norm over the planes, with `terms` terms
  int needed = 0;       // the terms the bound needs; more than max_terms: not met (terms = max_terms)
};

SeparableTerms separable_terms(const Kernel& kernel, double max_residual, int max_terms);

}  // namespace filterlab::filters::convolve
