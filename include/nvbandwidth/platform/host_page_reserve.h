// Host pages faulted in ahead of need. A run's first host buffers are known before the driver
// starts (their sizes follow from the selected testcases and -b), and the driver's start-up
// (cuInit and the contexts) leaves the other CPUs idle: a thread maps and touches those buffers'
// pages meanwhile, so that a HostBuffer made from them only pins and maps them for the GPUs. The
// pages are the same 4 KiB pages, touched by threads with the same CPU affinity as the process,
// as HostBuffer's own allocation would touch them; the caller decides when their placement
// cannot differ (one NUMA node).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace nvbw {

// Touches one byte of every 4 KiB page of [p, p + bytes) with up to `maxThreads` threads (and
// never more than the CPUs this thread may run on), which start with the calling thread's
// affinity (so the pages are placed as a single toucher would place them).
void touchPages(char* p, std::size_t bytes, std::size_t maxThreads = 16);

class HostPageReserve {
 public:
  HostPageReserve() = default;  // holds nothing
  // Starts mapping and touching one region of each of `sizes` (in that order) on a thread.
  explicit HostPageReserve(const std::vector<std::size_t>& sizes);
  ~HostPageReserve();  // waits for the thread, then unmaps what was not taken
  HostPageReserve(const HostPageReserve&) = delete;
  HostPageReserve& operator=(const HostPageReserve&) = delete;

  // A region of exactly `bytes` whose pages are all touched, waiting for the thread to finish
  // it; the caller owns it from then on (munmap(p, bytes)). nullptr when no region of that size
  // is left, or when its mapping failed (the caller then allocates as it would have).
  void* take(std::size_t bytes);
  // Unmaps every region not taken (after waiting for the thread).
  void releaseRest();

 private:
  struct Region {
    std::size_t bytes = 0;
    char* pages = nullptr;  // null: not mapped (yet, or the mapping failed)
    bool ready = false;     // the thread is done with it
    bool taken = false;
  };
  void fault();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Region> regions_;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace nvbw
