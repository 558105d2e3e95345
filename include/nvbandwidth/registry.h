// The ordered registry of testcases. Order is part of the CLI: `-t 3` means the entry at index 3,
// exactly as upstream v0.8 numbers them.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "nvbandwidth/plan.h"
#include "nvbandwidth/plan_context.h"
#include "nvbandwidth/topology.h"

namespace nvbw {

// Returns the reason a testcase cannot run on this topology, or nullopt when it can.
using WaiveCheck = std::function<std::optional<std::string>(const Topology&)>;
using PlanBuilder = std::function<Plan(const PlanContext&)>;

struct TestcaseDef {
  std::string key;
  std::string description;  // -l text: lines separated by '\n', no leading tab
  WaiveCheck waiveReason;   // empty: never waived
  PlanBuilder plan;         // every registered testcase has one (a unit test checks)
};

// Builds the registry in upstream's order: the 35 single-node testcases, then, where the build
// runs several processes (the multinode build), the 13 multi-process ones at indices 35-47.
enum class RegistryScope { SingleNode, WithMultinode };
std::vector<TestcaseDef> makeRegistry(RegistryScope scope = RegistryScope::SingleNode);

// Convenience for tests and the runner: the reason `def` is waived on `topo`, if any.
std::optional<std::string> waiveReasonFor(const TestcaseDef& def, const Topology& topo);

// Waive check shared by every device-to-device testcase.
std::optional<std::string> needsPeerPairs(const Topology& topo);

// Waive checks of the multi-process testcases: at least two processes that can share memory;
// the broadcast testcases also need multicast.
std::optional<std::string> needsSharedMemory(const Topology& topo);
std::optional<std::string> needsMulticast(const Topology& topo);

}  // namespace nvbw
