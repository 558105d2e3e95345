// The faked machine of nvbandwidth_fake, from its NVBW_FAKE_* environment variables (listed in
// fake_main.cpp), so that the fake binary and the tests that enumerate what it prints
// (tests/clients/line_catalogue.cpp) build the same machine from the same variables.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "fake_platform.h"
#include "fake_topology.h"
#include "plans/registry.h"

namespace nvbw::test {

// A variable's value, or nullopt when it is not set.
using Variables = std::function<std::optional<std::string>(const char* name)>;

// The process environment as Variables.
Variables processEnvironment();

struct FakeMachine {
  FakeTopology topology{2};
  FakeBehaviour behaviour;
  RegistryScope scope = RegistryScope::SingleNode;
};

FakeMachine fakeMachineFrom(const Variables& variables);

}  // namespace nvbw::test
