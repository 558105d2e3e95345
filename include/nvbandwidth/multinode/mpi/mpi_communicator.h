// The MPI ranks of a multinode run (MPI_COMM_WORLD). Every collective is started non-blocking
// and waited for with a timeout and an eye on the stop request: a rank that never answers (hung,
// or killed, whereupon the launcher sends the survivors SIGTERM) makes the wait throw, so that
// the run ends through its ordinary error path and rank 0 still prints its report.
#pragma once

#include <mpi.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "platform/communicator.h"

namespace nvbw::multinode {

// MPI_Init for the object's lifetime, MPI_Finalize after (on every path: help, usage errors and
// start-up failures included).
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  // The first line of MPI_Get_library_version ("Open MPI v4.1.6, ...").
  static std::string libraryVersion();
};

class MpiCommunicator final : public Communicator {
 public:
  // `timeout`: how long any collective may wait for the other ranks (NVBW_MPI_TIMEOUT_S).
  explicit MpiCommunicator(std::chrono::seconds timeout);
  ~MpiCommunicator() override;
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> allGather(const std::string& mine) override;
  void broadcast(std::string& data, int root) override;
  const CommunicatorLoss* lost() const override { return loss_ ? &*loss_ : nullptr; }
  // The signal that asks the run to stop: a wait for the other ranks gives up on it.
  void watchStop(StopRequest stop) { stop_ = std::move(stop); }
  // Lets MPI make progress while this rank waits for its GPU.
  void progress();

 private:
  void wait(MPI_Request& request, const char* what);
  // Records why the wait for `what` was given up, and throws it (Interrupted for a signal).
  [[noreturn]] void abandon(const char* what, int signal,
                            std::chrono::steady_clock::duration waited);
  // Throws the recorded loss: a collective cannot start once one was left unfinished.
  void throwIfLost() const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::chrono::seconds timeout_;
  StopRequest stop_;
  std::optional<CommunicatorLoss> loss_;
};

// The process's exit status once the command returned `status` and its report is printed. A rank
// that gave up waiting cannot finalize MPI (MPI_Finalize waits for the others), so it ends the job:
// rank 0 at once, the others (rank 0 may be gone) after leaving rank 0 time to print its report.
int endJobIfLost(MpiCommunicator& comm, int status);

// NVBW_MPI_TIMEOUT_S, else 1800 s: long enough for rank 0 to measure a single-process testcase
// while the others wait.
std::chrono::seconds collectiveTimeout();

}  // namespace nvbw::multinode
