// The processes of a run and what they agree on. A plain build is a world of one (SingleProcess);
// the multinode build adds an MPI implementation. Nothing else asks which build it is in.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nvbw {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void barrier() = 0;
  // Every rank's `mine`, in rank order, on every rank.
  virtual std::vector<std::string> allGather(const std::string& mine) = 0;
  // Rank `root`'s `data` on every rank.
  virtual void broadcast(std::string& data, int root) = 0;
};

class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  std::vector<std::string> allGather(const std::string& mine) override { return {mine}; }
  void broadcast(std::string&, int) override {}
};

// True on every rank when `mine` is true on every rank.
bool agreeAll(Communicator& comm, bool mine);

// The error a testcase ends with on every rank: the first rank's (in rank order) that had one,
// named "rank N: ..." when there is more than one process; nullopt when no rank had one.
std::optional<std::string> agreeOnError(Communicator& comm, const std::optional<std::string>& mine);

}  // namespace nvbw
