// The ordered registry of testcases. Order is part of the CLI: `-t 3` means the entry at index 3,
// exactly as upstream numbers them: v0.8 by default, v0.10 under --compat v0.10.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/compat_mode.h"
#include "plans/plan.h"
#include "plans/plan_context.h"
#include "platform/topology.h"

namespace nvbw {

// Returns the reason a testcase cannot run on this topology, or nullopt when it can.
using WaiveCheck = std::function<std::optional<std::string>(const Topology&)>;
using PlanBuilder = std::function<Plan(const PlanContext&)>;

struct TestcaseDef {
  std::string key;
  std::string description;       // -l text: lines separated by '\n', no leading tab
  WaiveCheck waiveReason;        // empty: never waived
  PlanBuilder plan;              // every registered testcase has one (a unit test checks)
  std::size_t index = 0;         // the CLI index (-t, -l); makeRegistry sets it
  bool blankLineBefore = false;  // -l prints an empty line before this entry (v0.10: index 42)
};

// The CLI indices of a registry's entries, in order.
std::vector<std::size_t> indicesOf(const std::vector<TestcaseDef>& registry);

// Builds the registry in upstream's order. v0.8: the 35 single-node testcases, then, where the
// build runs several processes (the multinode build), the 13 multi-process ones at indices 35-47,
// then upstream v0.10's testcases from index 48 in every build. v0.10: its 44 single-node
// testcases at its indices 0-43 (kV010Order), then the multi-process ones from 44 in v0.8's order
// (v0.10's are not known).
enum class RegistryScope { SingleNode, WithMultinode };
std::vector<TestcaseDef> makeRegistry(RegistryScope scope = RegistryScope::SingleNode,
                                      CompatMode compat = CompatMode::V0_8);

// Upstream v0.10's single-node testcases in its order: the key at position i has index i.
extern const std::vector<std::string> kV010Order;
// The v0.10 index before which its listing prints an empty line.
constexpr std::size_t kV010BlankLineBefore = 42;

// Convenience for tests and the runner: the reason `def` is waived on `topo`, if any.
std::optional<std::string> waiveReasonFor(const TestcaseDef& def, const Topology& topo);

// Waive check shared by every device-to-device testcase.
std::optional<std::string> needsPeerPairs(const Topology& topo);

// The TMA testcases need compute capability 9.0 on every GPU.
std::optional<std::string> needsTma(const Topology& topo);

// Latency under confidential computing measures the encrypted bounce buffers, not memory.
std::optional<std::string> notUnderConfidentialComputing(const Topology& topo);

// The first reason any of `checks` gives.
WaiveCheck firstOf(std::vector<WaiveCheck> checks);

// Waive checks of the multi-process testcases: at least two processes that can share memory;
// the broadcast testcases also need multicast.
std::optional<std::string> needsSharedMemory(const Topology& topo);
std::optional<std::string> needsMulticast(const Topology& topo);

}  // namespace nvbw
