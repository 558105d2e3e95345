// A testcase whose waive check and plan are a test's own functions, registered as an interface
// would list it: for tests of the loop and the output that need testcases the table lacks.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "plans/registry.h"
#include "plans/testcase.h"

namespace nvbw::test {

using FakeWaiveCheck = std::function<std::optional<std::string>(const Topology&)>;

class FakeTestcase final : public Testcase {
 public:
  FakeTestcase(TestcaseListing listing, FakeWaiveCheck waive, PlanBuilder plan)
      : Testcase({std::move(listing)}, std::move(plan)), waive_(std::move(waive)) {}
  std::optional<std::string> waiveReason(const Topology& topo) const override {
    return waive_ ? waive_(topo) : std::nullopt;
  }

 private:
  FakeWaiveCheck waive_;
};

// The registry entry of a FakeTestcase at `index`; `waive` empty: never waived.
inline TestcaseDef fakeTestcase(const std::string& key, const std::string& description,
                                FakeWaiveCheck waive, PlanBuilder plan, std::size_t index = 0) {
  TestcaseDef def{
      std::make_shared<const FakeTestcase>(TestcaseListing{key, index, index, description},
                                           std::move(waive), std::move(plan)),
      key, description, index, false};
  return def;
}

}  // namespace nvbw::test
