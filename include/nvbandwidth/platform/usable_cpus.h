// How many CPUs this thread may run on (its affinity mask), for sizing worker threads.
#pragma once

namespace nvbw {

// At least 1, also when the mask cannot be read.
int usableCpus();

}  // namespace nvbw
