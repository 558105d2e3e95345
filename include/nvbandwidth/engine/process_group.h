// What a multi-process run adds to the executor: this process's rank and GPU, memory the
// processes share, the collective steps of a sample, and agreement on stopping. The multinode
// build implements it over MPI; a single-process run has none, and its executor refuses
// multi-process plans.
#pragma once

#include <memory>
#include <vector>

#include "engine/coordinator.h"
#include "plans/plan.h"
#include "platform/buffer_view.h"

namespace nvbw {

// The buffers of one measurement of a multi-process plan; released (unmapped, freed) with it.
class SharedBuffers {
 public:
  virtual ~SharedBuffers() = default;
  // The view of the i-th spec given to acquire; empty for another process's ProcessLocal buffer.
  virtual BufferView view(std::size_t i) const = 0;
};

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  // The GPU this process measures with, among the GPUs it sees.
  virtual int localDevice() const = 0;
  // Collective: every process calls it with the same specs in the same order. Exported buffers
  // are created by their owner and mapped by every process; ProcessLocal ones exist on their
  // owner only; Multicast objects are backed by every process's GPU.
  virtual std::unique_ptr<SharedBuffers> acquire(const std::vector<BufferSpec>& specs) = 0;
  virtual SampleCoordinator& coordinator() = 0;
  // Collective: the signal any process received (0: none), so that all stop at the same sample.
  virtual int agreeOnStop(int localSignal) = 0;
};

}  // namespace nvbw
