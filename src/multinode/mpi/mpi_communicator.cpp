#include "multinode/mpi/mpi_communicator.h"

#include <cstdlib>
#include <iostream>
#include <numeric>
#include <thread>

#include "core/error.h"
#include "core/say_line.h"
#include "core/text.h"

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
  return trimmed(version.substr(0, version.find_first_of("\r\n")));
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
  // After a stop request, a collective the other ranks are about to finish (they received the
  // same signal) still completes, so that an ordinary interrupt keeps the ranks agreed. Kept well
  // under a second: when a rank dies, mpirun sends the survivors SIGTERM and SIGKILL one second
  // later (odls_base_sigkill_timeout), and rank 0 must print its report in between.
  constexpr auto kStopGrace = std::chrono::milliseconds(100);
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::chrono::steady_clock::time_point> stopSeen;
  auto pause = std::chrono::microseconds(1);
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    const auto now = std::chrono::steady_clock::now();
    if (const int signal = stop_ ? stop_() : 0) {
      if (!stopSeen) stopSeen = now;
      if (now - *stopSeen >= kStopGrace) abandon(what, signal, now - start);
    }
    if (now - start > timeout_) abandon(what, 0, now - start);
    // Quick answers stay quick; long waits (rank 0 measuring alone) do not burn a core.
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(1)) pause *= 2;
  }
}

void MpiCommunicator::abandon(const char* what, int signal,
                              std::chrono::steady_clock::duration waited) {
  // The request stays pending: MPI cannot cancel a collective, and the job ends after the report.
  CommunicatorLoss loss;
  loss.signal = signal;
  const std::string who = "rank " + std::to_string(rank_);
  if (signal)
    loss.message = who + " was interrupted by " + signalName(signal) +
                   " while waiting for the other processes (" + what +
                   "); a launcher such as mpirun sends it when another process of the job failed";
  else
    loss.message = who + ": no answer from the other processes within " +
                   std::to_string(timeout_.count()) + " s (" + what +
                   "); one of them has failed or hangs";
  const double seconds = std::chrono::duration<double>(waited).count();
  loss.detail = std::string("waited for: ") + what + "; waited " +
                std::to_string(static_cast<long>(seconds * 1000)) + " ms of " +
                std::to_string(timeout_.count()) +
                " s (NVBW_MPI_TIMEOUT_S); processes: " + std::to_string(size_);
  // Said at once: when a rank died, mpirun may stop passing on rank 0's report.
  sayLine(std::cerr, "nvbandwidth: " + loss.message + ": ending the run");
  loss_ = std::move(loss);
  throwIfLost();
  throw Error(loss_->message);  // not reached
}

void MpiCommunicator::throwIfLost() const {
  if (!loss_) return;
  if (loss_->signal) throw Interrupted(loss_->signal);
  throw Error(loss_->message, loss_->detail);
}

std::vector<std::string> MpiCommunicator::allGather(const std::string& mine) {
  throwIfLost();
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  MPI_Request request;
  MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_, &request);
  wait(request, "gathering lengths");
  std::vector<int> offsets(lengths.size());
  std::exclusive_scan(lengths.begin(), lengths.end(), offsets.begin(), 0);
  std::string all(static_cast<std::size_t>(offsets.back() + lengths.back()), '\0');
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
  throwIfLost();
  int length = static_cast<int>(data.size());
  MPI_Request request;
  MPI_Ibcast(&length, 1, MPI_INT, root, comm_, &request);
  wait(request, "broadcasting a length");
  data.resize(static_cast<std::size_t>(length));
  MPI_Ibcast(data.data(), length, MPI_CHAR, root, comm_, &request);
  wait(request, "broadcasting data");
}

int endJobIfLost(MpiCommunicator& comm, int status) {
  if (!comm.lost()) return status;
  std::cout.flush();
  if (comm.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(10));
  MPI_Abort(MPI_COMM_WORLD, status);
  return status;
}

void MpiCommunicator::progress() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
}

}  // namespace nvbw::multinode
