// How long-running work learns that the user asked it to stop (SIGINT, SIGTERM, SIGHUP).
#pragma once

#include <cstddef>
#include <functional>

namespace nvbw {

// Asked between steps whether to stop; returns the signal number, or 0. Empty: never stop.
using StopRequest = std::function<int()>;

// Throws Interrupted when `stop` reports a signal.
void throwIfStopped(const StopRequest& stop);

// For loops over millions of values: asks `stop` every `every`-th tick, so that a signal is acted
// on within a fraction of a second at almost no cost. Holds `stop` by reference.
class PeriodicStop {
 public:
  PeriodicStop(const StopRequest& stop, std::size_t every) : stop_(stop), every_(every) {}
  void tick() {
    if (++count_ < every_) return;
    count_ = 0;
    throwIfStopped(stop_);
  }

 private:
  const StopRequest& stop_;
  std::size_t every_;
  std::size_t count_ = 0;
};

}  // namespace nvbw
