// Huge pages for pinned host buffers (-H/--useHugePages): what /proc/meminfo says is available.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace nvbw {

struct HugePageInfo {
  std::uint64_t total = 0;      // HugePages_Total: pages of the default size reserved
  std::uint64_t free = 0;       // HugePages_Free
  std::uint64_t pageBytes = 0;  // Hugepagesize, in bytes; 0 when not reported
  // The host's memory, in bytes (MemTotal, MemAvailable): what an allocation that fails says.
  std::optional<std::uint64_t> memTotalBytes;
  std::optional<std::uint64_t> memAvailableBytes;
};

// Parses /proc/meminfo's text; fields it lacks stay 0 (the memory: nullopt).
HugePageInfo parseMeminfo(const std::string& text);

// /proc/meminfo of this machine (all zero when it cannot be read).
HugePageInfo readHugePageInfo();

// Why no host buffer can come from huge pages, or nullopt when some are reserved.
std::optional<std::string> hugePageProblem(const HugePageInfo& info);

// The header line of a run with -H: the page size and how many pages are free.
std::string hugePageNote(const HugePageInfo& info);

// `bytes` rounded up to whole pages of `pageBytes` (a mapping of huge pages must be).
std::uint64_t roundUpToPages(std::uint64_t bytes, std::uint64_t pageBytes);

}  // namespace nvbw
