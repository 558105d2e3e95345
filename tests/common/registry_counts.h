// How many testcases of the registry a topology runs and waives: what a default run on it must
// report, taken from the registry so that a new testcase changes no count written in a test.
#pragma once

#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw::test {

struct RegistryCounts {
  int runs = 0;
  int waived = 0;
  int all() const { return runs + waived; }
};

inline RegistryCounts countsOn(const Topology& topo,
                               RegistryScope scope = RegistryScope::SingleNode) {
  RegistryCounts counts;
  for (const TestcaseDef& def : makeRegistry(scope))
    ++(waiveReasonFor(def, topo) ? counts.waived : counts.runs);
  return counts;
}

}  // namespace nvbw::test
