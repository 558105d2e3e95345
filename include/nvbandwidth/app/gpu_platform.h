// The platform of a real run: the CUDA driver loaded at run time, this machine's GPUs.
#pragma once

#include <memory>

#include "app/platform.h"
#include "engine/executor.h"
#include "platform/gpu.h"

namespace nvbw {

// Loads the driver and opens every GPU, touching `start`'s host buffers meanwhile. Throws
// DriverUnavailable when that fails.
std::unique_ptr<Platform> openGpuPlatform(const PlatformStart& start);

// What a run on `gpu` says of the machine (for the plain and the MPI platform alike): this
// build's facts (buildSystemFacts), the driver's versions, the devices and their logical GPUs.
SystemFacts gpuSystemFacts(const Gpu& gpu);

// `hooks` with what the switches that the GPU tests set in a real run's environment (and no user
// sets; docs/building-and-testing.md says what each does) ask for: faults in chosen copies
// (NVBW_TEST_CORRUPT_COPIES, engine/copy_corruption.h) and buffers allocated afresh for every
// measurement (NVBW_TEST_FRESH_BUFFERS=1, ExecHooks::freshBuffers). Throws StartupError for a
// value it cannot read.
ExecHooks withTestSwitches(ExecHooks hooks, const Gpu& gpu);

}  // namespace nvbw
