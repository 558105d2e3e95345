#include "engine/host_check.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "platform/worker_threads.h"

namespace nvbw::engine {
namespace {

// Enough to be worth a thread (its start costs some tens of microseconds) when the CPU checks only
// its share of a buffer.
constexpr std::size_t kWordsPerThreadMin = (std::size_t{8} << 20) / 4;
constexpr std::size_t kMaxThreads = 16;
// Neither side is left out for good: a check that was slow once may not be the next time.
constexpr double kMinShare = 0.05;
constexpr double kMaxShare = 0.95;

// Words [from, to) of data against the pattern: memcmp one pattern period at a time (the fast
// path), word by word only in a period that differs.
PatternCheck checkRange(const std::uint32_t* data, std::size_t from, std::size_t to,
                        const std::uint32_t* pattern, std::size_t period) {
  PatternCheck result;
  for (std::size_t w = from; w < to;) {
    const std::size_t phase = w % period;
    const std::size_t length = std::min(period - phase, to - w);
    if (std::memcmp(data + w, pattern + phase, length * 4) != 0) {
      for (std::size_t i = 0; i < length; ++i) {
        if (data[w + i] == pattern[phase + i]) continue;
        if (result.mismatches++ == 0) result.firstWord = w + i;
      }
    }
    w += length;
  }
  return result;
}

}  // namespace

PatternCheck checkHostPattern(const std::uint32_t* data, std::size_t words,
                              const std::uint32_t* pattern, std::size_t patternWords) {
  if (words == 0 || patternWords == 0) return {};
  const std::size_t threads = workerCount(words, kWordsPerThreadMin, kMaxThreads);
  // Each thread takes whole pattern periods, so its slices line up with the pattern's.
  const std::size_t periods = (words + patternWords - 1) / patternWords;
  const std::size_t chunk = (periods + threads - 1) / threads * patternWords;
  std::vector<PatternCheck> parts(threads);
  onThreads(threads, [&](std::size_t t) {
    const std::size_t from = std::min(words, t * chunk);
    parts[t] = checkRange(data, from, std::min(words, from + chunk), pattern, patternWords);
  });
  PatternCheck total;
  for (const PatternCheck& p : parts) {
    total.mismatches += p.mismatches;
    total.firstWord = std::min(total.firstWord, p.firstWord);
  }
  return total;
}

std::size_t HostCheckShare::gpuBytes(std::size_t bytes, std::size_t periodBytes) const {
  if (periodBytes == 0) return 0;
  const auto periods = static_cast<std::size_t>(share_ * static_cast<double>(bytes / periodBytes));
  return periods * periodBytes;
}

void HostCheckShare::measured(std::size_t cpuBytes, double cpuSeconds, std::size_t gpuBytes,
                              double gpuSeconds) {
  // Only a check both sides took part in says how their speeds compare.
  if (cpuBytes == 0 || gpuBytes == 0 || !(cpuSeconds > 0) || !(gpuSeconds > 0)) return;
  const double cpuRate = static_cast<double>(cpuBytes) / cpuSeconds;
  const double gpuRate = static_cast<double>(gpuBytes) / gpuSeconds;
  share_ = std::clamp(gpuRate / (cpuRate + gpuRate), kMinShare, kMaxShare);
}

}  // namespace nvbw::engine
