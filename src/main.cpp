// nvbandwidth: the application core (application.h) on this machine's GPUs, with SIGINT, SIGTERM
// and SIGHUP turned into a request to stop. It says which exit status to return (README
// "Exit status").
#include <iostream>
#include <string>
#include <vector>

#include "nvbandwidth/application.h"
#include "nvbandwidth/gpu_platform.h"
#include "nvbandwidth/signals.h"

int main(int argc, char** argv) {
  nvbw::SignalStop signals;
  nvbw::AppContext context{nvbw::openGpuPlatform, std::cout, std::cerr,
                           [&signals] { return signals.pending(); }, {}, nullptr};
  return nvbw::runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context);
}
