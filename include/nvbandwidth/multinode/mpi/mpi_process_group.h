// The executor's view of a multi-process run (engine/process_group.h): MPI and shared GPU memory.
#pragma once

#include <memory>

#include "engine/process_group.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/mpi/mpi_coordinator.h"
#include "multinode/shared_memory.h"

namespace nvbw::multinode {

class MpiProcessGroup final : public ProcessGroup {
 public:
  // Collective (creates the coordinator's latch). `sharing` must not be None.
  MpiProcessGroup(const Gpu& gpu, int device, MpiCommunicator& comm, MemorySharing sharing);

  int rank() const override { return comm_.rank(); }
  int localDevice() const override { return device_; }
  std::unique_ptr<SharedBuffers> acquire(const std::vector<BufferSpec>& specs) override;
  SampleCoordinator& coordinator() override { return *coordinator_; }
  int agreeOnStop(int localSignal) override { return agreeOnMax(comm_, localSignal); }

 private:
  int device_;
  MpiCommunicator& comm_;
  std::unique_ptr<FdChannel> fds_;
  SharingContext ctx_;
  std::unique_ptr<MpiCoordinator> coordinator_;
};

}  // namespace nvbw::multinode
