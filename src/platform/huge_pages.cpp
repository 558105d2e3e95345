#include "platform/huge_pages.h"

#include <fstream>
#include <sstream>

namespace nvbw {

HugePageInfo parseMeminfo(const std::string& text) {
  HugePageInfo info;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    std::string unit;
    if (!(fields >> name >> value)) continue;
    fields >> unit;
    if (name == "HugePages_Total:")
      info.total = value;
    else if (name == "HugePages_Free:")
      info.free = value;
    else if (name == "Hugepagesize:")
      info.pageBytes = unit == "kB" ? value * 1024 : value;
    else if (name == "MemTotal:" && unit == "kB")
      info.memTotalBytes = value * 1024;
    else if (name == "MemAvailable:" && unit == "kB")
      info.memAvailableBytes = value * 1024;
  }
  return info;
}

HugePageInfo readHugePageInfo() {
  std::ifstream file("/proc/meminfo");
  std::ostringstream text;
  text << file.rdbuf();
  return parseMeminfo(text.str());
}

std::optional<std::string> hugePageProblem(const HugePageInfo& info) {
  if (info.pageBytes == 0) return std::string("-H: this system reports no huge page size");
  if (info.total == 0)
    return std::string(
        "-H: no huge pages are reserved (HugePages_Total is 0 in /proc/meminfo; reserve some "
        "with sysctl vm.nr_hugepages=N)");
  return std::nullopt;
}

std::string hugePageNote(const HugePageInfo& info) {
  return "NOTE: -H: pinned host buffers come from " + std::to_string(info.pageBytes / 1024) +
         " KiB huge pages (" + std::to_string(info.free) + " of " + std::to_string(info.total) +
         " free at start).";
}

std::uint64_t roundUpToPages(std::uint64_t bytes, std::uint64_t pageBytes) {
  return pageBytes == 0 ? bytes : (bytes + pageBytes - 1) / pageBytes * pageBytes;
}

}  // namespace nvbw
