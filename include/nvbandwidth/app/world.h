// The processes of a run, as main sees them: one process in the plain build (world_single.cpp),
// the MPI ranks in the multinode build (multinode/mpi/world_mpi.cpp). Opened first and closed
// last, on every path (-h, -l and usage errors included).
#pragma once

#include <iosfwd>
#include <memory>

#include "app/platform.h"
#include "core/stop_request.h"
#include "plans/registry.h"
#include "platform/communicator.h"

namespace nvbw {

class World {
 public:
  virtual ~World() = default;
  virtual Communicator& comm() = 0;
  // Only rank 0 prints: the other ranks write to streams that drop everything.
  virtual std::ostream& out() = 0;
  virtual std::ostream& err() = 0;
  virtual PlatformFactory platform() = 0;
  virtual RegistryScope registryScope() const = 0;
  // The run's stop request, for the waits on the other processes (they give up on a signal).
  virtual void watchStop(StopRequest) {}
  // Called with the command's exit status once its report is printed; returns the process's.
  // A world whose processes can no longer agree ends the job here (only after the report).
  virtual int close(int status) { return status; }
};

// Defined once per build: the plain build's single process, or MPI's ranks.
std::unique_ptr<World> openWorld(int& argc, char**& argv);

}  // namespace nvbw
