// The executor's view of a multi-process run (engine/process_group.h) over MPI and shared GPU
// memory.
#pragma once

#include <memory>
#include <variant>

#include "engine/process_group.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/mpi/mpi_coordinator.h"
#include "multinode/shared_memory.h"

namespace nvbw::multinode {

// A buffer of a measurement, as this rank holds it: shared unicast memory, this rank's own local
// memory, a multicast object, or nothing (another rank's local memory).
using RankBuffer = std::variant<std::monostate, std::unique_ptr<SharedAllocation>, DeviceBuffer,
                                std::unique_ptr<MulticastObject>>;

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
  RankBuffer localBuffer(const BufferSpec& spec);

  const Gpu& gpu_;
  int device_;
  MpiCommunicator& comm_;
  std::unique_ptr<FdChannel> fds_;
  SharingContext ctx_;
  std::unique_ptr<MpiCoordinator> coordinator_;
};

}  // namespace nvbw::multinode
