// What a testcase is: data (its facts, its plan builder and the checks that waive it), and what
// its plan builder reads. registry.cpp lists every testcase in one table, with one row helper per
// family: the only place that names a testcase's key, its indices in both interfaces and its facts.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plans/pair_selection.h"
#include "plans/plan.h"
#include "plans/schedule.h"
#include "platform/topology.h"

namespace nvbw {

// What a plan builder reads: the machine's topology, the buffer size, which GPU pairs the pairwise
// testcases measure and in which order.
struct PlanContext {
  const Topology& topology;
  std::size_t bufferBytes;     // -b in bytes (latency testcases ignore it)
  PairRule pairs = {};         // --pair / -P; default: every pair
  ScheduleRule schedule = {};  // pair by pair, or in rounds of disjoint pairs
};

// What a matrix's rows or columns are, as its title names them ("CPU(row)", "GPU(column)").
// None: the matrix has one row, which its title does not name.
enum class Axis { None, Cpu, Gpu };
const char* axisName(Axis axis);  // "", "CPU" or "GPU"

// How a testcase is listed: its key, its index in v0.8's and in v0.10's interface, and the -l
// text (lines separated by '\n', no leading tab). `blankLineBefore`: v0.10's listing prints an
// empty line before it.
struct TestcaseListing {
  std::string key;
  std::size_t v08Index = 0;
  std::size_t v010Index = 0;
  std::string description;
  bool blankLineBefore = false;
};

// A check that waives a testcase: the reason it cannot run on a topology, or nullopt when it can.
using WaiveCheck = std::optional<std::string> (*)(const Topology&);

// The checks the testcase families share.

// Every device-to-device testcase needs a pair of GPUs that can access each other both ways.
std::optional<std::string> needsPeerPairs(const Topology& topo);

// The TMA testcases need compute capability 9.0 on every GPU.
std::optional<std::string> needsTma(const Topology& topo);

// Confidential computing sends host traffic through encrypted bounce buffers, where a host copy
// blocks its thread until its stream is idle and a kernel reads wrong data across the bus. Copy-
// engine copies with the host both ways at once are waived there, as upstream v0.10 waives them
// (with its reason, verbatim: Google's CI for a confidential VM asserts it); copy kernels that
// read or write host memory are waived too.
std::optional<std::string> bothWaysCeNotUnderConfidentialComputing(const Topology& topo);
std::optional<std::string> hostKernelsNotUnderConfidentialComputing(const Topology& topo);

// Latency under confidential computing measures the encrypted bounce buffers, not memory.
std::optional<std::string> notUnderConfidentialComputing(const Topology& topo);

// The multi-process testcases need at least two processes that can share memory; the broadcast
// testcases also need multicast.
std::optional<std::string> needsSharedMemory(const Topology& topo);
std::optional<std::string> needsMulticast(const Topology& topo);

// What a testcase is: how it is listed, what its matrices hold and what they are indexed by.
// `parts`: a bidirectional result's matrices, by the key suffix each adds to the testcase key
// ("read1", "read2", "total"); empty: one matrix under the testcase key.
struct TestcaseFacts {
  TestcaseListing listing;
  Unit unit = Unit::GBps;
  Axis rows = Axis::None;
  Axis columns = Axis::Gpu;
  std::vector<std::string> parts = {};
  bool multiProcess = false;             // listed only where the build runs several processes
  std::vector<WaiveCheck> waivers = {};  // checked in order: the first reason waives it
  // On a confidential-computing host, its samples are timed in order (Plan::timing).
  bool inOrderUnderConfidentialComputing = false;
};

// A testcase's plan builder: any function of the context, or a family's builder with the copy
// method the member uses (withMethod).
using PlanBuilder = std::function<Plan(const PlanContext&)>;
using MethodPlanBuilder = Plan (*)(const PlanContext&, CopyMethod);
PlanBuilder withMethod(MethodPlanBuilder build, CopyMethod method);

// A testcase: its facts and its plan builder. Its waiver check is virtual for tests that fake one
// (tests/common/fake_testcase.h).
class Testcase {
 public:
  Testcase(TestcaseFacts facts, PlanBuilder build)
      : facts_(std::move(facts)), build_(std::move(build)) {}
  virtual ~Testcase() = default;
  Testcase(const Testcase&) = delete;
  Testcase& operator=(const Testcase&) = delete;

  const TestcaseFacts& facts() const { return facts_; }
  const std::string& key() const { return facts_.listing.key; }

  // The reason this testcase cannot run on `topo` (its first waiver's), or nullopt when it can.
  virtual std::optional<std::string> waiveReason(const Topology& topo) const;
  // What it measures on a machine: pure, it touches no GPU.
  Plan plan(const PlanContext& ctx) const;

 private:
  TestcaseFacts facts_;
  PlanBuilder build_;
};

}  // namespace nvbw
