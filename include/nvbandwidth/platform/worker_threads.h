// Work shared out over threads, sized by the CPUs this thread may run on (its affinity mask).
#pragma once

#include <cstddef>
#include <functional>

namespace nvbw {

// How many CPUs this thread may run on; at least 1, also when the mask cannot be read.
int usableCpus();

// The threads for `units` of work: at least 1, at most `maxThreads` and usableCpus(), and none
// with fewer than `minUnitsPerThread` units.
std::size_t workerCount(std::size_t units, std::size_t minUnitsPerThread, std::size_t maxThreads);

// Runs work(0) on the calling thread and work(1) to work(threads - 1) on threads of their own
// (which start with the calling thread's CPU affinity), all at once; once every one has returned,
// rethrows the exception of the first, in index order, that threw. No threads: no work.
void onThreads(std::size_t threads, const std::function<void(std::size_t)>& work);

}  // namespace nvbw
