// Passing file descriptors between the ranks of one host: each rank listens on an abstract
// Unix-domain socket named after the run and its rank, and a descriptor travels as SCM_RIGHTS
// ancillary data. Used to share GPU memory through POSIX file-descriptor handles where fabric
// handles are not available (no IMEX channel).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/unique_handle.h"
#include "platform/communicator.h"

namespace nvbw::multinode {

struct CloseFd {
  void operator()(int fd) const noexcept;
};
using FileDescriptor = UniqueHandle<int, CloseFd>;

class FdChannel {
 public:
  // Collective: every rank opens its socket; the run's name comes from rank 0, and every rank
  // learns the others' process ids (a received descriptor must come from the expected rank).
  FdChannel(Communicator& comm, std::chrono::seconds timeout);

  // Sends `fd` to rank `to` (which calls receive(from = this rank) at the same point).
  void send(int to, int fd);
  // The descriptor rank `from` sends; throws when none comes within the timeout.
  FileDescriptor receive(int from);

 private:
  std::string socketName(int rank) const;

  int rank_;
  std::string session_;
  std::vector<long> pids_;
  FileDescriptor listening_;
  std::chrono::seconds timeout_;
};

}  // namespace nvbw::multinode
