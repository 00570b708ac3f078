#pragma once
// The filter families, in one list: registry.cpp names each with one line. Tests and tools may
// build a Registry of their own (a test family beside the real ones).
//
// A registry holds each family as registered plus what every family gets alike: a family that a
// built-in `auto` table lists (renderer/filters/auto_tables/) gets the method `auto`, last in its
// list and its default (filters/auto_method.h), so no family wires it itself.
#include "filters/family.h"

#include <memory>
#include <string>
#include <vector>

namespace filterlab::filters {

class Registry {
 public:
  explicit Registry(const std::vector<const Family*>& families);
  // The families' methods (`auto`) point at the registry's own copies.
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  const std::vector<const Family*>& families() const { return families_; }
  const Family* find(const std::string& name) const;
  // The family so named, or a ChainError naming the families (and the closest, if one is near).
  const Family& family(const std::string& name) const;
  std::string names() const;           // "copy gaussian"
  const Family& memory_floor() const;  // the family marked memory_floor
  // The first family registered: what `filter` and `bench` take without --filter.
  const Family& default_family() const;

 private:
  std::vector<std::unique_ptr<const Family>> owned_;
  std::vector<const Family*> families_;
};

// The built-in families.
const Registry& registry();

}  // namespace filterlab::filters
