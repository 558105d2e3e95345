// Deliberate faults for tests: a real run uses NoFaults, whose hooks do nothing; tests inject
// corruption to prove that verification catches it. Production code calls the hooks
// unconditionally and never asks whether faults are being injected.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <vector>

#include "plans/plan.h"

namespace nvbw {

// A copy of the sample that just finished: what a fault can tamper with.
struct CopiedBuffer {
  const CopySpec* copy = nullptr;
  CUdeviceptr destination = 0;      // device address (host buffers: the mapped pinned address)
  void* hostDestination = nullptr;  // host address of a host destination, else null
  std::size_t checkedBytes = 0;     // the region that verification reads
};

class FaultInjector {
 public:
  virtual ~FaultInjector() = default;
  // After a sample's copies finished and before they are verified.
  virtual void beforeVerification(const std::vector<CopiedBuffer>& copies) = 0;
};

class NoFaults final : public FaultInjector {
 public:
  void beforeVerification(const std::vector<CopiedBuffer>&) override {}
};

}  // namespace nvbw
