// The processes of a run and what they agree on. A plain build is a world of one (SingleProcess);
// the multinode build adds an MPI implementation. Nothing else asks which build it is in.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nvbw {

// Why the processes of a run can no longer agree: a rank stopped waiting for the others (a signal,
// or no answer within the collective timeout), so a collective step was left unfinished.
struct CommunicatorLoss {
  std::string message;  // a full sentence for the report's error
  std::string detail;   // what was waited for, and for how long
  int signal = 0;       // the signal that ended the wait; 0: the timeout did
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  // Set once a wait was abandoned: every later collective step fails at once, and the agreements
  // below return this rank's own view (no other rank can answer).
  virtual const CommunicatorLoss* lost() const { return nullptr; }
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `mine`, in rank order, on every rank.
  virtual std::vector<std::string> allGather(const std::string& mine) = 0;
  // Rank `root`'s `data` on every rank.
  virtual void broadcast(std::string& data, int root) = 0;
};

class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> allGather(const std::string& mine) override { return {mine}; }
  void broadcast(std::string&, int) override {}
};

// True on every rank when `mine` is true on every rank.
bool agreeAll(Communicator& comm, bool mine);

// The largest of every rank's `mine` (a signal number: 0 when none), on every rank.
int agreeOnMax(Communicator& comm, int mine);

// Rank 0's `mine`, on every rank.
std::string fromRankZero(Communicator& comm, std::string mine);

// How a testcase ended on one rank: its error, whether that error only reports another rank's
// failure, and the signal that interrupted it (0: none).
struct Outcome {
  std::optional<std::string> error;
  bool peerFailure = false;
  int signal = 0;
  std::string detail;  // the error's detail (core/error.h), from the same rank as `error`
};

// How the testcase ends on every rank: the error of the first rank (in rank order) whose own
// step failed, else the first peer-failure report, named "rank N: ..." when there is more than
// one process; and the largest signal any rank received.
Outcome agreeOnOutcome(Communicator& comm, const Outcome& mine);

// For collective steps: the first rank's problem ("rank N: ..." with several processes), or
// nullopt when every rank succeeded.
std::optional<std::string> agreeOnProblem(Communicator& comm,
                                          const std::optional<std::string>& mine);

}  // namespace nvbw
