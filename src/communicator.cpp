#include "nvbandwidth/communicator.h"

namespace nvbw {

bool agreeAll(Communicator& comm, bool mine) {
  for (const std::string& vote : comm.allGather(mine ? "1" : "0"))
    if (vote != "1") return false;
  return true;
}

std::optional<std::string> agreeOnError(Communicator& comm,
                                        const std::optional<std::string>& mine) {
  // "E<message>" for an error, "-" for none.
  const std::vector<std::string> all = comm.allGather(mine ? "E" + *mine : "-");
  for (std::size_t rank = 0; rank < all.size(); ++rank) {
    if (all[rank].empty() || all[rank][0] != 'E') continue;
    const std::string message = all[rank].substr(1);
    if (comm.size() == 1) return message;
    return "rank " + std::to_string(rank) + ": " + message;
  }
  return std::nullopt;
}

}  // namespace nvbw
