#include "engine/copy_corruption.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/text.h"
#include "platform/cuda_raii.h"

namespace nvbw {
namespace {

constexpr std::size_t kCorruptedBytes = 4096;

int endOf(const std::string& token, const std::string& list) {
  if (token == "host") return kHostEnd;
  if (token.size() > 4 || !allDigits(token))
    throw StartupError(std::string(kCorruptCopiesVariable) + "=" + list +
                       ": expected pairs like 0-1 or host-2, separated by commas");
  return std::stoi(token);
}

int endOf(const BufferSpec& b) { return b.kind == MemoryKind::Host ? kHostEnd : b.device; }

}  // namespace

std::set<std::pair<int, int>> corruptedCopiesFrom(const std::string& list) {
  std::set<std::pair<int, int>> pairs;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string item = list.substr(from, comma - from);
    const std::size_t dash = item.find('-');
    if (dash == std::string::npos) endOf("", list);  // throws
    pairs.emplace(endOf(item.substr(0, dash), list), endOf(item.substr(dash + 1), list));
    if (comma == list.size()) return pairs;
    from = comma + 1;
  }
}

void CopyCorruption::beforeVerification(const std::vector<CopiedBuffer>& copies) {
  for (const CopiedBuffer& c : copies) {
    if (copies_.count({endOf(c.copy->src), endOf(c.copy->dst)}) == 0) continue;
    const std::size_t length = std::min(kCorruptedBytes, c.checkedBytes);
    const std::size_t offset = (c.checkedBytes - length) / 2 / 4 * 4;
    if (c.hostDestination) {
      std::memset(static_cast<char*>(c.hostDestination) + offset, 0x5a, length);
      continue;
    }
    const BufferSpec& dst = c.copy->dst;
    const bool ownGpu = dst.kind == MemoryKind::Device && dst.sharing == Sharing::Private;
    ContextScope scope(gpu_, ownGpu ? dst.device : c.copy->execDevice);
    NVBW_CU(gpu_.api(), cuMemsetD8, c.destination + offset, 0x5a, length);
  }
}

}  // namespace nvbw
