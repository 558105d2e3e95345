// A fake libcuda.so.1 for the start-up tests (tests/cli/test_startup.cpp): a machine without a GPU
// can then drive every way in which loading and initialising the driver fails.
//
// It exports only cuGetProcAddress_v2 (the library is built with hidden visibility), the one
// symbol nvbandwidth dlsym()s; every other entry point is handed out through it, so a direct
// dlsym of one would fail the tests. The environment variable FAKE_CUDA_MODE picks the failure:
//   stub        cuGetProcAddress_v2 answers CUDA_ERROR_STUB_LIBRARY, as the toolkit's stub does
//   stub-init   the look-ups succeed, cuInit answers CUDA_ERROR_STUB_LIBRARY
//   no-device   cuInit answers CUDA_ERROR_NO_DEVICE
//   zero        cuInit succeeds, cuDeviceGetCount gives 0
//   negative    cuDeviceGetCount gives -5
//   absurd      cuDeviceGetCount gives 1000000
//   init-fails  cuInit answers CUDA_ERROR_UNKNOWN
// Any other value (or none) makes every look-up fail with CUDA_ERROR_INVALID_VALUE and says why
// on stderr, so a test that forgot to set the mode cannot pass by accident.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

enum class Mode { Stub, StubInit, NoDevice, Zero, Negative, Absurd, InitFails, Unknown };

Mode mode() {
  const char* value = std::getenv("FAKE_CUDA_MODE");
  if (!value) return Mode::Unknown;
  const struct {
    const char* name;
    Mode mode;
  } modes[] = {{"stub", Mode::Stub},           {"stub-init", Mode::StubInit},
               {"no-device", Mode::NoDevice},  {"zero", Mode::Zero},
               {"negative", Mode::Negative},   {"absurd", Mode::Absurd},
               {"init-fails", Mode::InitFails}};
  for (const auto& m : modes)
    if (std::strcmp(value, m.name) == 0) return m.mode;
  return Mode::Unknown;
}

// The real driver refuses every call but the version and error queries before a successful
// cuInit; the fake does the same for cuDeviceGetCount, so a caller that ignored a failed cuInit
// would get an error rather than a count.
bool initialised = false;

CUresult CUDAAPI fakeInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  switch (mode()) {
  case Mode::StubInit:
    return CUDA_ERROR_STUB_LIBRARY;
  case Mode::NoDevice:
    return CUDA_ERROR_NO_DEVICE;
  case Mode::InitFails:
    return CUDA_ERROR_UNKNOWN;
  default:
    initialised = true;
    return CUDA_SUCCESS;
  }
}

CUresult CUDAAPI fakeDeviceGetCount(int* count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
  switch (mode()) {
  case Mode::Negative:
    *count = -5;
    break;
  case Mode::Absurd:
    *count = 1000000;
    break;
  default:
    *count = 0;
    break;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

// Names and descriptions as the real driver gives them, for the codes the fake can return.
struct ErrorText {
  CUresult code;
  const char* name;
  const char* description;
};
constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText* findError(CUresult code) {
  for (const ErrorText& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}

// An unknown code gives CUDA_ERROR_INVALID_VALUE and a null string, as the real driver does.
CUresult CUDAAPI fakeGetErrorName(CUresult code, const char** name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  const ErrorText* e = findError(code);
  *name = e ? e->name : nullptr;
  return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI fakeGetErrorString(CUresult code, const char** description) {
  if (!description) return CUDA_ERROR_INVALID_VALUE;
  const ErrorText* e = findError(code);
  *description = e ? e->description : nullptr;
  return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// Every other entry point. nvbandwidth looks all of them up at load time but, in these modes,
// never gets far enough to call one; if it did, it gets an error, not a crash. The arguments
// differ from entry point to entry point; on x86-64 and aarch64 a function that reads none of
// them may be called through any of those signatures.
CUresult CUDAAPI fakeNotSupported() { return CUDA_ERROR_NOT_SUPPORTED; }

struct Entry {
  const char* name;
  void* function;
};
const Entry kEntries[] = {
    {"cuInit", reinterpret_cast<void*>(&fakeInit)},
    {"cuDeviceGetCount", reinterpret_cast<void*>(&fakeDeviceGetCount)},
    {"cuDriverGetVersion", reinterpret_cast<void*>(&fakeDriverGetVersion)},
    {"cuGetErrorName", reinterpret_cast<void*>(&fakeGetErrorName)},
    {"cuGetErrorString", reinterpret_cast<void*>(&fakeGetErrorString)},
};

}  // namespace

// The one exported symbol. Any name that is not implemented above gets fakeNotSupported rather
// than "not found", so an entry point added to NVBW_DRIVER_FUNCTIONS does not turn every mode
// into "driver too old".
extern "C" __attribute__((visibility("default"))) CUresult CUDAAPI
cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                    CUdriverProcAddressQueryResult* symbolStatus) {
  (void)cudaVersion;
  (void)flags;
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const Mode m = mode();
  if (m == Mode::Stub) {
    if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_STUB_LIBRARY;
  }
  if (m == Mode::Unknown) {
    const char* value = std::getenv("FAKE_CUDA_MODE");
    std::fprintf(stderr, "fake libcuda: unknown FAKE_CUDA_MODE \"%s\"\n", value ? value : "");
    if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pfn = reinterpret_cast<void*>(&fakeNotSupported);
  for (const Entry& e : kEntries)
    if (std::strcmp(symbol, e.name) == 0) *pfn = e.function;
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}
