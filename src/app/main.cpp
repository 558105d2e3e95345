// nvbandwidth: the application core (application.h) in this build's world of processes, with
// SIGINT, SIGTERM and SIGHUP turned into a request to stop. It says which exit status to return
// (docs/options.md, "Exit status").
#include <unistd.h>

#include <string>
#include <vector>

#include "app/application.h"
#include "app/world.h"
#include "platform/signals.h"

int main(int argc, char** argv) {
  const std::unique_ptr<nvbw::World> world = nvbw::openWorld(argc, argv);
  nvbw::SignalStop signals;
  world->watchStop([&signals] { return signals.pending(); });
  nvbw::AppContext context{world->platform(),
                           world->out(),
                           world->err(),
                           [&signals] { return signals.pending(); },
                           {},
                           &world->comm(),
                           world->registryScope()};
  // Only the rank that prints shows progress, and only to a person at a terminal.
  context.errIsTerminal = world->comm().rank() == 0 && isatty(STDERR_FILENO) == 1;
  return world->close(
      nvbw::runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context));
}
