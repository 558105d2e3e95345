// The application core: everything a run does between a parsed command line and an exit status
// (help, listing, validation, selection, start-up, warnings, the run, the report and its write
// errors). main only parses the command line and calls runApplication; tests drive whole runs
// through it with a faked platform.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "nvbandwidth/communicator.h"
#include "nvbandwidth/environment.h"
#include "nvbandwidth/executor.h"
#include "nvbandwidth/options.h"
#include "nvbandwidth/progress.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/system_info.h"
#include "nvbandwidth/topology.h"

namespace nvbw {

// The driver/topology seam of a whole run: what the application asks the machine.
class Platform {
 public:
  virtual ~Platform() = default;
  // Versions, host name and devices.
  virtual SystemInfo systemInfo() const = 0;
  virtual const Topology& topology() const = 0;
  // The machine's state now (clocks, power, modes, PCIe link as trained): read at the start and
  // at the end of the run. By default nothing is known.
  virtual EnvironmentSnapshot environment() const;
  virtual std::unique_ptr<PlanRunner> makePlanRunner(const ExecSettings& settings,
                                                     ExecHooks hooks) = 0;
};

// Opens the machine. Throws (StartupError, or any exception) when the run cannot start.
using PlatformFactory = std::function<std::unique_ptr<Platform>()>;

struct AppContext {
  PlatformFactory platform;
  std::ostream& out;
  std::ostream& err;
  StopRequest stopRequested;   // empty: never stop early
  ProgressSink progress;       // empty: no progress display
  Communicator* comm = nullptr;  // empty: this process alone
  RegistryScope scope = RegistryScope::SingleNode;  // which testcases this build has
  bool errIsTerminal = false;  // stderr is a terminal: the progress line may be shown there
};

// Exit statuses (README "Exit status").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSlower = 3;  // --compare/--baseline: a cell is SLOWER
inline constexpr int kExitInterruptedBase = 128;  // + the signal number

int runApplication(const Options& options, AppContext& context);

// Parses `args` (argv without the program name) and runs the application; a command line that
// does not parse is a usage error (one line on context.err, exit status 2). This is all of main
// but for the signal handlers and the real platform.
int runCommandLine(const std::vector<std::string>& args, AppContext& context);

// A write to standard output or standard error failed (full disk, closed descriptor): exit 1.
class WriteFailed : public Error {
 public:
  using Error::Error;
};

// Throws WriteFailed when `stream` (standard `name`: "output" or "error") is in a failed state.
void checkWritable(std::ostream& stream, const char* name);

// The one stderr line of a usage error: "nvbandwidth: <message> (see nvbandwidth --help)".
std::string usageErrorLine(const std::string& message);

// The start-up note about a buffer smaller than the default.
std::string smallBufferWarning();

// The SystemInfo known without a driver: versions of this build and the host name.
SystemInfo buildSystemInfo();

}  // namespace nvbw
