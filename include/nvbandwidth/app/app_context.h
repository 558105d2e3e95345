// What the application core runs with (the machine to open, where to print, how to learn of a
// stop request, the processes of the run) and how it ends (exit statuses, failed writes, usage
// errors): shared by the run and by the commands that need no GPU.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "app/platform.h"
#include "core/error.h"
#include "core/exit_status.h"
#include "core/progress.h"
#include "core/stop_request.h"
#include "plans/registry.h"
#include "platform/communicator.h"

namespace nvbw {

struct AppContext {
  PlatformFactory platform;
  std::ostream& out;
  std::ostream& err;
  StopRequest stopRequested;                        // empty: never stop early
  ProgressSink progress;                            // empty: no progress display
  Communicator* comm = nullptr;                     // empty: this process alone
  RegistryScope scope = RegistryScope::SingleNode;  // which testcases this build has
  bool errIsTerminal = false;  // stderr is a terminal: the progress line may be shown there
};

// A write to standard output or standard error failed (full disk, closed descriptor): exit 1.
class WriteFailed : public Error {
 public:
  using Error::Error;
};

// Flushes `stream` (standard `name`: "output" or "error"); throws WriteFailed when it has failed.
void checkWritable(std::ostream& stream, const char* name);

// Prints the one stderr line of a usage error on `ctx`'s stderr, "nvbandwidth: <message> (see
// nvbandwidth --help)"; kExitUsage.
int refuseUsage(AppContext& ctx, const std::string& message);

// The usage problem every process of the run stops with, so that none goes on alone into steps
// the others never reach: this process's `mine` where there is one process; else rank 0's
// (every rank parses the same command line, so it is every rank's), else the first rank's,
// named "rank N: ..."; nullopt when no rank has one.
std::optional<std::string> agreedUsageProblem(const AppContext& ctx,
                                              const std::optional<std::string>& mine);

// "rank N was given another command line than rank 0 ..." for the first rank whose arguments
// (or NVBANDWIDTH_COMPAT) differ from rank 0's; nullopt when all are the same.
std::optional<std::string> differentCommandLines(Communicator& comm,
                                                 const std::vector<std::string>& args,
                                                 const std::optional<std::string>& compat);

}  // namespace nvbw
