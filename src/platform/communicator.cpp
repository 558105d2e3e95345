#include "platform/communicator.h"

#include <algorithm>

namespace nvbw {

bool agreeAll(Communicator& comm, bool mine) {
  for (const std::string& vote : comm.allGather(mine ? "1" : "0"))
    if (vote != "1") return false;
  return true;
}

int agreeOnMax(Communicator& comm, int mine) {
  int largest = mine;
  for (const std::string& value : comm.allGather(std::to_string(mine)))
    largest = std::max(largest, std::stoi(value));
  return largest;
}

std::string fromRankZero(Communicator& comm, std::string mine) {
  comm.broadcast(mine, 0);
  return mine;
}

Outcome agreeOnOutcome(Communicator& comm, const Outcome& mine) {
  // "<signal> <kind><length of message>:<message><detail>": kind E (own error), P (another
  // rank's), - (none).
  const char kind = !mine.error ? '-' : mine.peerFailure ? 'P' : 'E';
  const std::string message = mine.error ? *mine.error : std::string();
  const std::vector<std::string> all =
      comm.allGather(std::to_string(mine.signal) + " " + kind + std::to_string(message.size()) +
                     ":" + message + mine.detail);
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
  Outcome outcome;
  outcome.error = mine;
  return agreeOnOutcome(comm, outcome).error;
}

}  // namespace nvbw
