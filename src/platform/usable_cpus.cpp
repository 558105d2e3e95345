#include "platform/usable_cpus.h"

#include <sched.h>

#include <algorithm>

namespace nvbw {

int usableCpus() {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) return std::max(1, CPU_COUNT(&mask));
  return 1;
}

}  // namespace nvbw
