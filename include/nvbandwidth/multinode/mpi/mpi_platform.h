// The platform of a multinode run: this rank's GPUs (rank 0 measures the single-process
// testcases on all of the GPUs it sees, as a plain run would), one GPU per rank for the
// multi-process testcases, and the start-up checks every rank agrees on.
#pragma once

#include <memory>

#include "app/platform.h"
#include "multinode/mpi/mpi_communicator.h"

namespace nvbw::multinode {

// Collective. Throws StartupError with the same message on every rank when any rank cannot
// start (no driver or GPU, two ranks on one GPU).
std::unique_ptr<Platform> openMpiPlatform(MpiCommunicator& comm);

}  // namespace nvbw::multinode
