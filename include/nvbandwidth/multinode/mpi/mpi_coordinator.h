// The sample steps of a multi-process run (docs/compatibility.md#u7). A device latch in rank
// 0's GPU memory, mapped by every rank, holds every rank's streams: each spin kernel polls it,
// and rank 0 opens it once every rank has queued its copies, so all copies start together.
// Every step is also an agreement (see coordinator.h), and the wait for the GPU is bounded.
#pragma once

#include <chrono>

#include "engine/coordinator.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/shared_memory.h"
#include "platform/cuda_raii.h"

namespace nvbw::multinode {

class MpiCoordinator final : public SampleCoordinator {
 public:
  // Collective: creates the latch (owned by rank 0).
  MpiCoordinator(const SharingContext& ctx, MpiCommunicator& comm);

  void beginSample(bool ok) override;
  SpinFlags spinFlags(int device) override;
  void release(bool ok) override;
  void abandon() noexcept override;
  void waitFor(const std::vector<CUstream>& streams) override;
  void checkpoint(bool ok) override;
  bool timedOut() override;
  void combine(const Measurement& m, MeasurementSamples& samples) override;

 private:
  void setLatch(int value);
  void agree(bool ok, const char* step);

  const Gpu& gpu_;
  int device_;
  MpiCommunicator& comm_;
  SharedAllocation latch_;
  HostBuffer timedOut_;  // this rank's spin-timeout word (mapped)
  Stream latchStream_;   // writes the latch while the spin kernels hold the other streams
  std::chrono::seconds gpuTimeout_{600};
};

}  // namespace nvbw::multinode
