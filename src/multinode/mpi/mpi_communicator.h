// The MPI ranks of a multinode run (MPI_COMM_WORLD). Every collective is started non-blocking
// and waited for with a timeout: a rank that never answers (hung, or dead without MPI noticing)
// ends the job with a message instead of hanging every other rank.
#pragma once

#include <mpi.h>

#include <chrono>
#include <string>
#include <vector>

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
  void barrier() override;
  std::vector<std::string> allGather(const std::string& mine) override;
  void broadcast(std::string& data, int root) override;
  // Lets MPI make progress while this rank waits for its GPU.
  void progress();

 private:
  void wait(MPI_Request& request, const char* what);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::chrono::seconds timeout_;
};

// NVBW_MPI_TIMEOUT_S, else 1800 s: long enough for rank 0 to measure a single-process testcase
// while the others wait.
std::chrono::seconds collectiveTimeout();

}  // namespace nvbw::multinode
