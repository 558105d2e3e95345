// A CUDA driver table without a GPU, for the tests of the code that calls the driver: devices,
// their primary contexts and the current context, with what was retained and released recorded.
// A test adds the entries its code needs (allocations, streams, mappings) to the table, and may
// make calls fail, with functions of its own.
#pragma once

#include <vector>

#include "platform/driver.h"

namespace nvbw {

// What the fake driver's calls answer from and record. One for the process: a driver table holds
// plain functions.
struct FakeDriverState {
  int devices = 1;
  int firstDevice = 0;     // cuDeviceGet(&d, i) gives firstDevice + i
  int failingRetain = -1;  // retaining this device fails with CUDA_ERROR_OUT_OF_MEMORY
  CUcontext current = nullptr;
  std::vector<CUdevice> retained;
  std::vector<CUdevice> released;
};
FakeDriverState& fakeDriver();

// Device d's primary context.
CUcontext fakeContext(CUdevice d);

// A fresh state of `devices` GPUs numbered from `firstDevice`, and the table of cuInit, the
// device, primary context and current context calls, and the names and descriptions of the errors
// the fake and the tests' own calls return (out of memory, unsupported peer access, invalid value).
DriverApi fakeDriverApi(int devices, int firstDevice = 0);

}  // namespace nvbw
