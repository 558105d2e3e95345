// Where a copy's buffer is, as one process sees it.
#pragma once

#include <cuda.h>

namespace nvbw {

// The address the GPU uses; for pinned host memory also the host address; for a multicast object
// the address of this process's own backing memory, which is what can be filled and checked
// (stores to `ptr` reach every process that backs the object).
struct BufferView {
  CUdeviceptr ptr = 0;
  void* host = nullptr;
  CUdeviceptr checkPtr = 0;  // 0: `ptr`
  CUdeviceptr checked() const { return checkPtr ? checkPtr : ptr; }
};

}  // namespace nvbw
