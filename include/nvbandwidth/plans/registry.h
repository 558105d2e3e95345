// The registry of testcases: one table (registry.cpp) holds one instance of every Testcase, and
// makeRegistry lists them for one interface. Order and indices are part of the CLI: `-t 3` means
// the testcase listed at index 3, exactly as upstream numbers them: v0.8 by default, v0.10 under
// --compat v0.10. docs/testcases-registry.md says how to add a testcase.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/compat_mode.h"
#include "plans/plan.h"
#include "plans/testcase.h"
#include "platform/topology.h"

namespace nvbw {

// Every testcase of the multinode build, in the table's order.
std::vector<std::shared_ptr<const Testcase>> registeredTestcases();

// The registered testcase named `key` (the multi-process ones too), or nullptr: for a reader
// that has a testcase's key and needs what it is (unit, axes, parts).
std::shared_ptr<const Testcase> findTestcase(const std::string& key);

// A registered testcase as one interface lists it. `key` and `description` are the testcase's
// own (facts().listing), held here for the listing and the selection, which read nothing else.
struct TestcaseDef {
  std::shared_ptr<const Testcase> testcase;
  std::string key;
  std::string description;       // -l text: lines separated by '\n', no leading tab
  std::size_t index = 0;         // the CLI index (-t, -l) in the interface listed
  bool blankLineBefore = false;  // -l prints an empty line before this entry (v0.10 only)

  Plan plan(const PlanContext& ctx) const { return testcase->plan(ctx); }
};

// The CLI indices of a registry's entries, in order.
std::vector<std::size_t> indicesOf(const std::vector<TestcaseDef>& registry);

// The registered testcases of `scope` by their index in `compat`'s interface. v0.8: the 35
// single-node testcases at 0-34, the 13 multi-process ones at 35-47 where the build runs
// several processes, upstream v0.10's others from 48 in every build, so that an index names the
// same testcase in both builds. v0.10: its 44 single-node testcases at 0-43, then the
// multi-process ones from 44 (v0.10's are not known) in v0.8's order.
enum class RegistryScope { SingleNode, WithMultinode };
std::vector<TestcaseDef> makeRegistry(RegistryScope scope = RegistryScope::SingleNode,
                                      CompatMode compat = CompatMode::V0_8);

std::optional<std::string> waiveReasonFor(const TestcaseDef& def, const Topology& topo);

}  // namespace nvbw
