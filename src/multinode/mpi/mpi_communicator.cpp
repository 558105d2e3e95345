#include "multinode/mpi/mpi_communicator.h"

#include <cstdlib>
#include <iostream>
#include <thread>

namespace nvbw::multinode {

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(&argc, &argv);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string MpiSession::libraryVersion() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  version = version.substr(0, version.find('\0'));  // the length may count the terminator
  version = version.substr(0, version.find_first_of("\r\n"));
  return version.substr(0, version.find_last_not_of(" \t") + 1);
}

std::chrono::seconds collectiveTimeout() {
  if (const char* text = std::getenv("NVBW_MPI_TIMEOUT_S")) {
    const long seconds = std::strtol(text, nullptr, 10);
    if (seconds > 0) return std::chrono::seconds(seconds);
  }
  return std::chrono::seconds(1800);
}

MpiCommunicator::MpiCommunicator(std::chrono::seconds timeout) : timeout_(timeout) {
  MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiCommunicator::wait(MPI_Request& request, const char* what) {
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(1);
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (std::chrono::steady_clock::now() - start > timeout_) {
      std::cerr << "nvbandwidth: rank " << rank_ << ": no answer from the other processes within "
                << timeout_.count() << " s (" << what
                << "); one of them has failed or hangs: ending the job" << std::endl;
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    // Quick answers stay quick; long waits (rank 0 measuring alone) do not burn a core.
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(1)) pause *= 2;
  }
}

void MpiCommunicator::barrier() {
  MPI_Request request;
  MPI_Ibarrier(comm_, &request);
  wait(request, "barrier");
}

std::vector<std::string> MpiCommunicator::allGather(const std::string& mine) {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  MPI_Request request;
  MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_, &request);
  wait(request, "gathering lengths");
  std::vector<int> offsets(lengths.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Iallgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                  MPI_CHAR, comm_, &request);
  wait(request, "gathering data");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

void MpiCommunicator::broadcast(std::string& data, int root) {
  int length = static_cast<int>(data.size());
  MPI_Request request;
  MPI_Ibcast(&length, 1, MPI_INT, root, comm_, &request);
  wait(request, "broadcasting a length");
  data.resize(static_cast<std::size_t>(length));
  MPI_Ibcast(data.data(), length, MPI_CHAR, root, comm_, &request);
  wait(request, "broadcasting data");
}

void MpiCommunicator::progress() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
}

}  // namespace nvbw::multinode
