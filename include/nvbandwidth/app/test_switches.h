// The switches that the GPU tests set in the environment of a real run, and that no user sets
// (docs/building-and-testing.md says what each does): faults in chosen copies
// (NVBW_TEST_CORRUPT_COPIES, engine/copy_corruption.h) and buffers allocated afresh for every
// measurement (NVBW_TEST_FRESH_BUFFERS=1, ExecHooks::freshBuffers).
#pragma once

#include "engine/exec_hooks.h"
#include "platform/gpu.h"

namespace nvbw {

inline constexpr const char* kFreshBuffersVariable = "NVBW_TEST_FRESH_BUFFERS";

// `hooks` with what the switches of this process's environment ask for. Throws StartupError for
// a value it cannot read.
ExecHooks withTestSwitches(ExecHooks hooks, const Gpu& gpu);

}  // namespace nvbw
