#include "platform/host_page_reserve.h"

#include <sys/mman.h>

#include <algorithm>

#include "platform/worker_threads.h"

namespace nvbw {

void touchPages(char* p, std::size_t bytes, std::size_t maxThreads) {
  constexpr std::size_t kPage = 4096;
  constexpr std::size_t kPerThreadMin = std::size_t{64} << 20;
  const std::size_t threads = workerCount(bytes, kPerThreadMin, maxThreads);
  const std::size_t chunk = (bytes / threads + kPage - 1) / kPage * kPage;
  onThreads(threads, [&](std::size_t t) {
    for (std::size_t i = t * chunk; i < std::min((t + 1) * chunk, bytes); i += kPage)
      static_cast<volatile char*>(p)[i] = 0;
  });
}

HostPageReserve::HostPageReserve(const std::vector<std::size_t>& sizes) {
  for (std::size_t bytes : sizes)
    if (bytes > 0) regions_.push_back({bytes});
  if (!regions_.empty()) worker_ = std::thread([this] { fault(); });
}

HostPageReserve::~HostPageReserve() { releaseRest(); }

void HostPageReserve::fault() {
  for (std::size_t i = 0;; ++i) {
    std::size_t bytes = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (i == regions_.size() || stop_) break;
      bytes = regions_[i].bytes;
    }
    void* raw = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char* pages = raw == MAP_FAILED ? nullptr : static_cast<char*>(raw);
    if (pages) {
      // 4 KiB pages, as HostBuffer's own mapping (huge pages are -H's, never reserved).
      madvise(pages, bytes, MADV_NOHUGEPAGE);
      // Half the CPUs: the driver's start-up, which this overlaps, is slower with all of them.
      touchPages(pages, bytes, std::max(1, usableCpus() / 2));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    regions_[i].pages = pages;
    regions_[i].ready = true;
    changed_.notify_all();
  }
  // Regions never started count as failed, so that no take() waits for them.
  std::lock_guard<std::mutex> lock(mutex_);
  for (Region& r : regions_) r.ready = true;
  changed_.notify_all();
}

void* HostPageReserve::take(std::size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = std::find_if(regions_.begin(), regions_.end(),
                         [bytes](const Region& r) { return r.bytes == bytes && !r.taken; });
  if (it == regions_.end()) return nullptr;
  Region& r = *it;  // regions_ keeps its elements in place until releaseRest()
  changed_.wait(lock, [&] { return r.ready; });
  r.taken = true;
  return r.pages;
}

void HostPageReserve::releaseRest() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  if (worker_.joinable()) worker_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  for (Region& r : regions_)
    if (!r.taken && r.pages) munmap(r.pages, r.bytes);
  regions_.clear();
}

}  // namespace nvbw
