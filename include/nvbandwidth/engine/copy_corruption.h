// NVBW_TEST_CORRUPT_COPIES (app/gpu_platform.h): the fake's NVBW_FAKE_FAIL_COPY on real copies,
// so a GPU test can show that verification catches a wrong peer copy by every copy method.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "engine/fault_injection.h"
#include "platform/gpu.h"

namespace nvbw {

inline constexpr const char* kCorruptCopiesVariable = "NVBW_TEST_CORRUPT_COPIES";
inline constexpr int kHostEnd = -1;  // a copy's host end in the pairs below

// "0-1,host-2" as (source, destination) pairs; throws StartupError for anything else.
std::set<std::pair<int, int>> corruptedCopiesFrom(const std::string& list);

class CopyCorruption final : public FaultInjector {
 public:
  CopyCorruption(const Gpu& gpu, std::set<std::pair<int, int>> copies)
      : gpu_(gpu), copies_(std::move(copies)) {}
  void beforeVerification(const std::vector<CopiedBuffer>& copies) override;

 private:
  const Gpu& gpu_;
  std::set<std::pair<int, int>> copies_;
};

}  // namespace nvbw
