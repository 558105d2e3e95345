#include "app/app_context.h"

#include <cerrno>
#include <cstring>
#include <ostream>

#include "core/escape.h"

namespace nvbw {

int refuseUsage(AppContext& ctx, const std::string& message) {
  ctx.err << "nvbandwidth: " + escapeForTerminal(message) + " (see nvbandwidth --help)\n"
          << std::flush;
  return kExitUsage;
}

std::optional<std::string> agreedUsageProblem(const AppContext& ctx,
                                              const std::optional<std::string>& mine) {
  if (!ctx.comm || ctx.comm->size() < 2) return mine;
  const std::vector<std::string> all = ctx.comm->allGather(mine ? "E" + *mine : "-");
  for (std::size_t rank = 0; rank < all.size(); ++rank) {
    if (all[rank].empty() || all[rank][0] != 'E') continue;
    const std::string message = all[rank].substr(1);
    return rank == 0 ? message : "rank " + std::to_string(rank) + ": " + message;
  }
  return std::nullopt;
}

std::optional<std::string> differentCommandLines(Communicator& comm,
                                                 const std::vector<std::string>& args,
                                                 const std::optional<std::string>& compat) {
  // Each argument with its length first, so that no two command lines read the same.
  std::string mine = compat ? "C" + std::to_string(compat->size()) + ":" + *compat : "-";
  for (const std::string& a : args) mine += std::to_string(a.size()) + ":" + a;
  const std::vector<std::string> all = comm.allGather(mine);
  for (std::size_t rank = 1; rank < all.size(); ++rank)
    if (all[rank] != all[0])
      return "rank " + std::to_string(rank) +
             " was given another command line (or NVBANDWIDTH_COMPAT) than rank 0: every "
             "process of a run needs the same";
  return std::nullopt;
}

void checkWritable(std::ostream& stream, const char* name) {
  if (stream.flush()) return;
  const int saved = errno;
  throw WriteFailed(std::string("cannot write to standard ") + name +
                    (saved ? std::string(": ") + std::strerror(saved) : std::string()));
}

}  // namespace nvbw
