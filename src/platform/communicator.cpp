#include "platform/communicator.h"

#include <algorithm>
#include <exception>

namespace nvbw {
namespace {

// `step`'s answer, or `fallback` when the processes can no longer agree (a wait for them was
// given up, now or earlier): the caller then goes by this rank's own view.
template <typename T, typename Step> T unlessLost(Communicator& comm, T fallback, Step step) {
  if (comm.lost()) return fallback;
  try {
    return step();
  } catch (const std::exception&) {
    if (comm.lost()) return fallback;
    throw;
  }
}

std::optional<std::vector<std::string>> gatherUnlessLost(Communicator& comm,
                                                         const std::string& mine) {
  return unlessLost<std::optional<std::vector<std::string>>>(comm, std::nullopt,
                                                             [&] { return comm.allGather(mine); });
}

}  // namespace

bool agreeAll(Communicator& comm, bool mine) {
  const auto votes = gatherUnlessLost(comm, mine ? "1" : "0");
  if (!votes) return mine;
  return std::all_of(votes->begin(), votes->end(), [](const std::string& v) { return v == "1"; });
}

int agreeOnMax(Communicator& comm, int mine) {
  const auto values = gatherUnlessLost(comm, std::to_string(mine));
  if (!values) return mine;
  int largest = mine;
  for (const std::string& value : *values) largest = std::max(largest, std::stoi(value));
  return largest;
}

std::string fromRankZero(Communicator& comm, std::string mine) {
  return unlessLost(comm, mine, [&] {
    std::string agreed = mine;
    comm.broadcast(agreed, 0);
    return agreed;
  });
}

Outcome agreeOnOutcome(Communicator& comm, const Outcome& mine) {
  // "<signal> <kind><length of message>:<message><detail>", kind E (own error), P (a peer's), -.
  const char kind = !mine.error ? '-' : mine.peerFailure ? 'P' : 'E';
  const std::string message = mine.error ? *mine.error : std::string();
  const auto gathered =
      gatherUnlessLost(comm, std::to_string(mine.signal) + " " + kind +
                                 std::to_string(message.size()) + ":" + message + mine.detail);
  if (!gathered) return mine;
  const std::vector<std::string>& all = *gathered;
  Outcome agreed;
  for (const char wanted : {'E', 'P'}) {
    for (std::size_t rank = 0; rank < all.size() && !agreed.error; ++rank) {
      const std::size_t space = all[rank].find(' ');
      if (all[rank].at(space + 1) != wanted) continue;
      const std::size_t colon = all[rank].find(':', space + 2);
      const std::size_t length = std::stoul(all[rank].substr(space + 2, colon - space - 2));
      const std::string text = all[rank].substr(colon + 1, length);
      agreed.error = comm.size() == 1 ? text : "rank " + std::to_string(rank) + ": " + text;
      agreed.detail = all[rank].substr(colon + 1 + length);
      agreed.peerFailure = wanted == 'P';
    }
  }
  for (const std::string& entry : all)
    agreed.signal = std::max(agreed.signal, std::stoi(entry.substr(0, entry.find(' '))));
  return agreed;
}

std::optional<std::string> agreeOnProblem(Communicator& comm,
                                          const std::optional<std::string>& mine) {
  return agreeOnOutcome(comm, Outcome{mine}).error;
}

}  // namespace nvbw
