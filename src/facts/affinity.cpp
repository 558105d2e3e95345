#include "facts/affinity.h"

namespace nvbw {

AffinityGuard::AffinityGuard(const std::vector<int>& cpus) {
  if (cpus.empty() || sched_getaffinity(0, sizeof previous_, &previous_) != 0) return;
  cpu_set_t wanted;
  CPU_ZERO(&wanted);
  for (int cpu : cpus)
    if (cpu < CPU_SETSIZE) CPU_SET(cpu, &wanted);
  applied_ = sched_setaffinity(0, sizeof wanted, &wanted) == 0;
}

AffinityGuard::~AffinityGuard() {
  if (applied_) sched_setaffinity(0, sizeof previous_, &previous_);
}

}  // namespace nvbw
