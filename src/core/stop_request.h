// How long-running work learns that the user asked it to stop (SIGINT, SIGTERM, SIGHUP).
#pragma once

#include <functional>

namespace nvbw {

// Asked between steps whether to stop; returns the signal number, or 0. Empty: never stop.
using StopRequest = std::function<int()>;

// Throws Interrupted when `stop` reports a signal.
void throwIfStopped(const StopRequest& stop);

}  // namespace nvbw
