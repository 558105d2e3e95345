// The platform of a real run: the CUDA driver loaded at run time, this machine's GPUs.
#pragma once

#include <memory>

#include "app/platform.h"

namespace nvbw {

// Loads the driver and opens every GPU, touching `start`'s host buffers meanwhile. Throws
// DriverUnavailable when that fails.
std::unique_ptr<Platform> openGpuPlatform(const PlatformStart& start);

}  // namespace nvbw
