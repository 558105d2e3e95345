// Facts about the machine printed at start-up, as types (the readers in facts/ fill them in).
#pragma once

#include <string>
#include <vector>

namespace nvbw {

struct DeviceInfo {
  std::string name;
  unsigned pciDomain = 0;
  unsigned pciBus = 0;
  unsigned pciDevice = 0;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (--pair accepts it)
};

// One process of a multi-process run and the GPU it measures with.
struct ProcessInfo {
  std::string host;
  int device = 0;  // among the GPUs the process sees
  DeviceInfo gpu;
};

struct SystemFacts {
  std::string version;         // "v0.8"
  std::string gitVersion;      // git describe at configure time
  std::string release;         // this project's release, "1.0.0"
  int cudaRuntimeVersion = 0;  // the CUDA version the tool was built with
  int cudaDriverVersion = 0;   // cuDriverGetVersion
  std::string driverVersion;   // kernel driver, e.g. "580.159.04"
  std::string hostname;
  std::vector<DeviceInfo> devices;
  // N when `devices` are N logical GPUs of one (platform/logical_gpus.h); 0 when they are real.
  int logicalGpus = 0;
  // Host traffic goes through encrypted bounce buffers (NVML's confidential-computing state).
  bool confidentialComputing = false;
  // Multi-process runs only (empty otherwise): every rank, in rank order, the MPI library and
  // how the ranks share GPU memory.
  std::vector<ProcessInfo> processes;
  std::string mpiVersion;
  std::string memorySharing;  // "fabric", "posix_fd" or "none"
  std::string memorySharingDescription;
};

// "00000000:9b:00": PCI domain (8 hex), bus (2 hex), device (2 hex), lowercase.
std::string formatBdf(const DeviceInfo& d);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from the 16 bytes of a CUuuid, as nvidia-smi and
// NVML spell it.
std::string formatUuid(const unsigned char (&bytes)[16]);

std::string hostName();

}  // namespace nvbw
