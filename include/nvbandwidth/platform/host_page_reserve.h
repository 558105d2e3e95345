// Host pages faulted in ahead of need. A run's first host buffers are known before the driver
// starts (from the selected testcases and -b), and while cuInit and the contexts leave the other
// CPUs idle a thread maps and touches their pages, so that a HostBuffer made from them only pins
// them. They are the pages HostBuffer's own allocation would touch (4 KiB, the same CPU
// affinity); the caller decides when their placement cannot differ (one NUMA node).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace nvbw {

// Touches one byte of every 4 KiB page of [p, p + bytes) on up to `maxThreads` threads (as
// workerCount allows) with the calling thread's affinity: pages land as one toucher's would.
void touchPages(char* p, std::size_t bytes, std::size_t maxThreads = 16);

class HostPageReserve {
 public:
  // Starts mapping and touching one region of each of `sizes` (in that order) on a thread.
  explicit HostPageReserve(const std::vector<std::size_t>& sizes);
  ~HostPageReserve();  // waits for the thread, then unmaps what was not taken

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
