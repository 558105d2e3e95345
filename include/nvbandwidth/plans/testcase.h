// What a testcase is and what it does. A testcase is data: its facts, its plan builder and the
// checks that waive it. registry.cpp lists every testcase in one table, with one row helper per
// family that fills the facts and waivers the family's members share: that table is the only
// place that names a testcase's key, its indices in both interfaces and its facts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plans/plan.h"
#include "plans/plan_context.h"
#include "platform/topology.h"

namespace nvbw {

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

// A check that waives a testcase: the reason it cannot run on a topology, or nullopt when it can
// (waivers.h has them).
using WaiveCheck = std::optional<std::string> (*)(const Topology&);

// What a testcase is: how it is listed, what its matrices hold and what they are indexed by.
// `parts`: a bidirectional result's matrices, by the key suffix each adds to the testcase key
// ("read1", "read2", "total"); empty: one matrix under the testcase key.
struct TestcaseFacts {
  TestcaseListing listing;
  Unit unit = Unit::GBps;
  Axis rows = Axis::None;
  Axis columns = Axis::Gpu;
  std::vector<std::string> parts = {};
  bool bufferSizeApplies = true;         // false: the plan ignores --bufferSize (pointer chases)
  bool multiProcess = false;             // listed only where the build runs several processes
  std::vector<WaiveCheck> waivers = {};  // checked in order: the first reason waives it
  // On a confidential-computing host, its samples are timed in order (Plan::timing).
  bool inOrderUnderConfidentialComputing = false;
};

// A family's plan builder: with the copy method the family member uses, or without one.
using MethodPlanBuilder = Plan (*)(const PlanContext&, CopyMethod);
using PlainPlanBuilder = Plan (*)(const PlanContext&);
class PlanBuilder {
 public:
  PlanBuilder(PlainPlanBuilder plain) : plain_(plain) {}  // NOLINT(google-explicit-constructor)
  PlanBuilder(MethodPlanBuilder withMethod, CopyMethod method)
      : withMethod_(withMethod), method_(method) {}
  Plan operator()(const PlanContext& ctx) const {
    return withMethod_ ? withMethod_(ctx, method_) : plain_(ctx);
  }

 private:
  PlainPlanBuilder plain_ = nullptr;
  MethodPlanBuilder withMethod_ = nullptr;
  CopyMethod method_ = CopyMethod::CopyEngine;
};

// A testcase: its facts and its plan builder. Virtual for tests that fake one
// (tests/common/fake_testcase.h).
class Testcase {
 public:
  Testcase(TestcaseFacts facts, PlanBuilder build) : facts_(std::move(facts)), build_(build) {}
  virtual ~Testcase() = default;
  Testcase(const Testcase&) = delete;
  Testcase& operator=(const Testcase&) = delete;

  const TestcaseFacts& facts() const { return facts_; }
  const std::string& key() const { return facts_.listing.key; }

  // The reason this testcase cannot run on `topo` (its first waiver's), or nullopt when it can.
  virtual std::optional<std::string> waiveReason(const Topology& topo) const;
  // What it measures on a machine: pure, it touches no GPU.
  virtual Plan plan(const PlanContext& ctx) const;

 private:
  TestcaseFacts facts_;
  PlanBuilder build_;
};

}  // namespace nvbw
