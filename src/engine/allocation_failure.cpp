#include "engine/allocation_failure.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "core/text.h"
#include "facts/host_facts.h"
#include "platform/huge_pages.h"

namespace nvbw {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Sizes as -b takes them: whole MiB, rounded up so that a few bytes never read as "0 MiB".
std::string mib(std::uint64_t bytes) { return std::to_string((bytes + kMiB - 1) / kMiB) + " MiB"; }

std::uint64_t totalOf(const std::vector<std::size_t>& buffers) {
  return std::accumulate(buffers.begin(), buffers.end(), std::uint64_t{0});
}

// "2 buffers of 90000 MiB (180000 MiB in all)", "buffer of 2 MiB", "3 buffers (2 of 512 MiB, 1
// of 2 MiB; 1026 MiB in all)": what follows "this testcase's".
std::string buffersText(const std::vector<std::size_t>& buffers, const char* adjective) {
  std::map<std::size_t, std::size_t, std::greater<>> bySize;
  for (std::size_t b : buffers) ++bySize[b];
  const std::uint64_t total = totalOf(buffers);
  const std::string noun = std::string(adjective) + (buffers.size() == 1 ? "buffer" : "buffers");
  if (buffers.size() == 1) return noun + " of " + mib(total);
  if (bySize.size() == 1)
    return std::to_string(buffers.size()) + " " + noun + " of " + mib(bySize.begin()->first) +
           " (" + mib(total) + " in all)";
  std::vector<std::string> sizes;
  for (const auto& [size, count] : bySize)
    sizes.push_back(std::to_string(count) + " of " + mib(size));
  return std::to_string(buffers.size()) + " " + noun + " (" + joined(sizes, ", ") + "; " +
         mib(total) + " in all)";
}

// "GPU 0", "GPUs 0, 1, 2".
std::string gpusText(const std::vector<int>& devices) {
  std::vector<std::string> numbers;
  for (int d : devices) numbers.push_back(std::to_string(d));
  return (devices.size() == 1 ? "GPU " : "GPUs ") + joined(numbers, ", ");
}

// What the memory has, and what is free for this run: "it has 143771 MiB, 142908 MiB of it free".
std::string memoryText(const AllocationFailure& f, const std::string& what) {
  const MemoryState& m = f.memory;
  if (!m.totalBytes && !m.freeBytes) return "";
  std::string text = what + " has ";
  if (m.totalBytes) text += mib(*m.totalBytes);
  if (m.freeBytes)
    text += (m.totalBytes ? ", " : "") + mib(*m.freeBytes + f.heldByRun) +
            (m.totalBytes ? " of it " : " ") + (f.kind == MemoryKind::Host ? "available" : "free");
  return text;
}

// What to do: the size per buffer that would fit the free memory, and the option that sets it.
std::string remedy(const AllocationFailure& f) {
  if (f.origin == BufferSizeOrigin::Fixed)
    return "; these buffers have a fixed size: free memory there (nvidia-smi lists the processes "
           "using a GPU)";
  const std::string option = f.origin == BufferSizeOrigin::Sweep
                                 ? "--sweep sets their sizes in MiB"
                                 : "--bufferSize (-b) sets their size in MiB";
  if (f.kind == MemoryKind::Host || !f.outOfMemory || !f.memory.freeBytes || f.buffers.empty())
    return "; " + option;
  // The largest buffers are the ones the option sizes; the others (1 MiB for a kernel that only
  // reads or writes, say) stay as they are.
  const std::size_t largest = *std::max_element(f.buffers.begin(), f.buffers.end());
  const auto count =
      static_cast<std::size_t>(std::count(f.buffers.begin(), f.buffers.end(), largest));
  const std::uint64_t others = totalOf(f.buffers) - std::uint64_t{count} * largest;
  const std::uint64_t available = *f.memory.freeBytes + f.heldByRun;
  const std::uint64_t fit = available > others ? (available - others) / count / kMiB : 0;
  if (fit == 0)
    return "; almost nothing is free there: another process may be using it" +
           std::string(f.kind == MemoryKind::Device ? " (nvidia-smi lists them)" : "");
  return "; buffers of at most about " + std::to_string(fit) + " MiB would fit: " + option;
}

// Host: the locked-memory limit, where it is below what was asked (pinning may count against it).
std::string lockLimitText(const AllocationFailure& f) {
  if (f.kind != MemoryKind::Host || !f.memory.lockLimitBytes) return "";
  const std::uint64_t limit = *f.memory.lockLimitBytes;
  if (limit >= totalOf(f.buffers)) return "";
  const std::string amount =
      limit < kMiB ? std::to_string(limit / 1024) + " KiB" : std::to_string(limit / kMiB) + " MiB";
  return "; this process may lock only " + amount +
         " of memory (ulimit -l), which may be why: raise it (ulimit -l unlimited, or "
         "--ulimit memlock=-1 for a container)";
}

}  // namespace

MemoryState hostMemoryState() {
  MemoryState state;
  const HugePageInfo host = readHugePageInfo();
  state.totalBytes = host.memTotalBytes;
  state.freeBytes = host.memAvailableBytes;
  state.lockLimitBytes = lockedMemoryLimit();
  return state;
}

std::string allocationFailureMessage(const AllocationFailure& f) {
  const std::string because = "(" + f.call + ": " + f.driverError + ")";
  const bool device = f.kind == MemoryKind::Device;
  std::string text =
      device ? "GPU " + std::to_string(f.device) + " cannot hold this testcase's " +
                   buffersText(f.buffers, "")
             : "cannot pin this testcase's " + buffersText(f.buffers, "host ") + " for " +
                   gpusText(f.devices.empty() ? std::vector<int>{f.device} : f.devices);
  const std::string memory =
      f.outOfMemory || !device ? memoryText(f, device ? "it" : "the host") : std::string();
  text += memory.empty() ? " " + because : ": " + memory + " " + because;
  return text + lockLimitText(f) + remedy(f);
}

}  // namespace nvbw
