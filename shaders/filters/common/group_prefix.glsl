// Inclusive prefix sums over a workgroup's threads (in gl_LocalInvocationIndex order), for the
// running methods' rows (comp.running): each subgroup scans its own values, its last invocation
// leaves the subgroup's total in shared memory, and after one barrier every thread adds the totals
// of the subgroups before its own. The includer defines
// GROUP_PREFIX_SLOTS, how many totals it keeps apart: a slot is free again once a barrier has passed
// since every thread read it, and may define GROUP_PREFIX_TYPE, the sums' type (vec4 if not; variance
// comp.running's are dvec4).
#ifndef FILTERLAB_GROUP_PREFIX_GLSL
#define FILTERLAB_GROUP_PREFIX_GLSL
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "filters/common/window_config.h"
#ifndef GROUP_PREFIX_TYPE
#define GROUP_PREFIX_TYPE vec4
#endif

shared GROUP_PREFIX_TYPE group_prefix_totals[GROUP_PREFIX_SLOTS][WINDOW_RUNNING_MAX_SUBGROUPS];

// The prefix of v through this thread, with the totals in `slot`.
GROUP_PREFIX_TYPE group_prefix(GROUP_PREFIX_TYPE v, int slot) {
  GROUP_PREFIX_TYPE p = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) group_prefix_totals[slot][gl_SubgroupID] = p;
  barrier();
  for (uint s = 0; s < gl_SubgroupID; ++s) p += group_prefix_totals[slot][s];
  return p;
}

// Two prefixes behind one barrier, with the totals in `slot` and `slot` + 1.
void group_prefix2(inout GROUP_PREFIX_TYPE a, inout GROUP_PREFIX_TYPE b, int slot) {
  a = subgroupInclusiveAdd(a);
  b = subgroupInclusiveAdd(b);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) {
    group_prefix_totals[slot][gl_SubgroupID] = a;
    group_prefix_totals[slot + 1][gl_SubgroupID] = b;
  }
  barrier();
  for (uint s = 0; s < gl_SubgroupID; ++s) {
    a += group_prefix_totals[slot][s];
    b += group_prefix_totals[slot + 1][s];
  }
}

#endif
