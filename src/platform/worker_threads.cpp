#include "platform/worker_threads.h"

#include <sched.h>

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace nvbw {

int usableCpus() {
  cpu_set_t mask;
  return sched_getaffinity(0, sizeof mask, &mask) == 0 ? std::max(1, CPU_COUNT(&mask)) : 1;
}

std::size_t workerCount(std::size_t units, std::size_t minUnitsPerThread, std::size_t maxThreads) {
  return std::max<std::size_t>(
      1, std::min({maxThreads, static_cast<std::size_t>(usableCpus()), units / minUnitsPerThread}));
}

void onThreads(std::size_t threads, const std::function<void(std::size_t)>& work) {
  if (threads == 0) return;
  std::vector<std::exception_ptr> failures(threads);
  auto attempt = [&](std::size_t t) {
    try {
      work(t);
    } catch (...) {
      failures[t] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(attempt, t);
  attempt(0);
  for (std::thread& w : workers) w.join();
  for (const std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
}

}  // namespace nvbw
