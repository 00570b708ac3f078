#include "filters/convolve/decompose.h"

#include "filters/convolve/memo.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace filterlab::filters::convolve {
namespace {

struct Svd {
  std::vector<double> sigma;                // descending
  std::vector<std::vector<double>> u, v;    // u[k]: height, v[k]: width
};

// One-sided Jacobi (Hestenes): rotate pairs of columns of A (height x width) until they are
// orthogonal; then A V = U diag(sigma).
Svd jacobi_svd(const std::vector<double>& a, int height, int width) {
  std::vector<std::vector<double>> col(width, std::vector<double>(height));
  std::vector<std::vector<double>> v(width, std::vector<double>(width, 0.0));
  for (int j = 0; j < width; ++j) {
    for (int i = 0; i < height; ++i) col[j][i] = a[size_t(i) * width + j];
    v[j][j] = 1;
  }
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < width - 1; ++p)
      for (int q = p + 1; q < width; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int i = 0; i < height; ++i) {
          alpha += col[p][i] * col[p][i];
          beta += col[q][i] * col[q][i];
          gamma += col[p][i] * col[q][i];
        }
        if (gamma == 0 || std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (int i = 0; i < height; ++i) {
          const double x = col[p][i], y = col[q][i];
          col[p][i] = c * x - s * y;
          col[q][i] = s * x + c * y;
        }
        for (int i = 0; i < width; ++i) {
          const double x = v[p][i], y = v[q][i];
          v[p][i] = c * x - s * y;
          v[q][i] = s * x + c * y;
        }
      }
    if (!rotated) break;
  }
  std::vector<int> order(static_cast<size_t>(width));
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> norm(static_cast<size_t>(width));
  for (int j = 0; j < width; ++j)
    norm[j] = std::sqrt(std::inner_product(col[j].begin(), col[j].end(), col[j].begin(), 0.0));
  std::sort(order.begin(), order.end(), [&](int x, int y) { return norm[x] > norm[y]; });
  Svd out;
  for (int j : order) {
    if (norm[j] == 0) break;
    out.sigma.push_back(norm[j]);
    std::vector<double> u = col[j];
    for (double& x : u) x /= norm[j];
    out.u.push_back(std::move(u));
    out.v.push_back(v[j]);
  }
  return out;
}


SeparableTerms decompose(const Kernel& kernel, double max_residual, int max_terms) {
  const int w = kernel.width, h = kernel.height;
  const size_t n = size_t(w) * h;
  std::vector<Svd> svds;
  std::vector<std::vector<double>> residuals;  // per plane: L1 norm left after k terms, k = 0..
  int needed = 0;
  for (int p = 0; p < kernel.planes; ++p) {
    std::vector<double> a(kernel.values.begin() + p * n, kernel.values.begin() + (p + 1) * n);
    svds.push_back(jacobi_svd(a, h, w));
    const Svd& s = svds.back();
    std::vector<double> left;
    std::vector<double> e = a;
    for (size_t k = 0;; ++k) {
      double l1 = 0;
      for (double x : e) l1 += std::abs(x);
      left.push_back(l1);
      if (k == s.sigma.size()) break;
      for (int b = 0; b < h; ++b)
        for (int c = 0; c < w; ++c) e[size_t(b) * w + c] -= s.sigma[k] * s.u[k][b] * s.v[k][c];
    }
    int k = 0;
    while (k + 1 < int(left.size()) && left[k] > max_residual) ++k;
    needed = std::max(needed, k);
    residuals.push_back(std::move(left));
  }
  SeparableTerms out;
  out.needed = needed;
  out.terms = std::min(needed, max_terms);
  for (int t = 0; t < out.terms; ++t)
    for (int p = 0; p < kernel.planes; ++p) {
      const Svd& s = svds[p];
      std::vector<double> row(static_cast<size_t>(w), 0.0), column(size_t(h), 0.0);
      if (t < int(s.sigma.size())) {
        row = s.v[t];
        for (int b = 0; b < h; ++b) column[b] = s.sigma[t] * s.u[t][b];
      }
      out.rows.push_back(std::move(row));
      out.columns.push_back(std::move(column));
    }
  for (const std::vector<double>& left : residuals)
    out.residual = std::max(out.residual, left[std::min(size_t(out.terms), left.size() - 1)]);
  return out;
}

}  // namespace

SeparableTerms separable_terms(const Kernel& kernel, double max_residual, int max_terms) {
  static Memo<SeparableTerms> kept;
  std::string key(reinterpret_cast<const char*>(kernel.values.data()), kernel.values.size() * sizeof(double));
  key += "|" + std::to_string(kernel.width) + "x" + std::to_string(kernel.height) + "x" +
         std::to_string(kernel.planes) + "|" + std::to_string(max_residual) + "|" + std::to_string(max_terms);
  return kept.get(key, [&] { return decompose(kernel, max_residual, max_terms); });
}

}  // namespace filterlab::filters::convolve
