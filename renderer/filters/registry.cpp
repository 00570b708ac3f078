#include "filters/registry.h"

#include "common/suggest.h"
#include "filters/auto_method.h"

#include "filters/bigblur/bigblur.h"
#include "filters/bilateral/bilateral.h"
#include "filters/convolve/convolve.h"
#include "filters/copy/copy.h"
#include "filters/fxaa/fxaa.h"
#include "filters/gaussian/gaussian.h"
#include "filters/taa/taa.h"
#include "filters/tent/tent.h"
#include "filters/variance/variance.h"

#include <stdexcept>

namespace filterlab::filters {

Registry::Registry(const std::vector<const Family*>& families) {
  for (const Family* registered : families) {
    auto family = std::make_unique<Family>(*registered);
    if (has_builtin_table(family->name)) {
      family->methods.push_back(auto_method(*family));
      family->default_method = "auto";  // the fastest exact method here (issue #37: a default that is fast)
    }
    if (!family->default_method.empty() && !family->find(family->default_method))
      throw std::logic_error(family->name + "'s default method " + family->default_method +
                             " is not one of its methods");
    families_.push_back(family.get());
    owned_.push_back(std::move(family));
  }
}

const Family* Registry::find(const std::string& name) const {
  for (const Family* f : families_)
    if (f->name == name) return f;
  return nullptr;
}

const Family& Registry::family(const std::string& name) const {
  if (const Family* f = find(name)) return *f;
  std::vector<std::string> all;
  for (const Family* f : families_) all.push_back(f->name);
  throw ChainError("unknown filter '" + name + "'" + did_you_mean(name, all) + " (filters: " + names() + ")");
}

std::string Registry::names() const {
  std::string out;
  for (const Family* f : families_) out += (out.empty() ? "" : " ") + f->name;
  return out;
}

const Family& Registry::memory_floor() const {
  for (const Family* f : families_)
    if (f->tools.bench.memory_floor) return *f;
  throw std::logic_error("no family in the registry is marked memory_floor");
}

const Family& Registry::default_family() const {
  if (families_.empty()) throw std::logic_error("the registry has no families");
  return *families_.front();
}

const Registry& registry() {
  static const Registry built_in({
      &gaussian::family(),  // first: the default family
      &copy::family(),
      // The paper's order (its tables' columns): Gaussian, tent, bilateral, variance clipping.
      &tent::family(),
      &bilateral::family(),
      &variance::family(),
      &taa::family(),
      &fxaa::family(),
      &bigblur::family(),
      &convolve::family(),
  });
  return built_in;
}

}  // namespace filterlab::filters
