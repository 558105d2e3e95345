#include "app/test_switches.h"

#include <cstdlib>
#include <memory>
#include <string>

#include "engine/copy_corruption.h"

namespace nvbw {

ExecHooks withTestSwitches(ExecHooks hooks, const Gpu& gpu) {
  if (const char* list = std::getenv(kCorruptCopiesVariable); list && *list)
    hooks.faults = std::make_shared<CopyCorruption>(gpu, corruptedCopiesFrom(list));
  if (const char* fresh = std::getenv(kFreshBuffersVariable))
    hooks.freshBuffers = std::string(fresh) == "1";
  return hooks;
}

}  // namespace nvbw
