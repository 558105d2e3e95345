#include "multinode/mpi/mpi_coordinator.h"

#include <thread>

#include "multinode/sample_exchange.h"

namespace nvbw::multinode {

MpiCoordinator::MpiCoordinator(const SharingContext& ctx, MpiCommunicator& comm)
    : gpu_(ctx.gpu), device_(ctx.device), comm_(comm), latch_(ctx, 0, sizeof(int)),
      timedOut_(ctx.gpu, sizeof(int)), latchStream_(ctx.gpu, ctx.device) {
  *static_cast<int*>(timedOut_.data()) = 0;
}

void MpiCoordinator::setLatch(int value) {
  ContextScope scope(gpu_, device_);
  NVBW_CU(gpu_.api(), cuMemsetD32Async, latch_.ptr(), static_cast<unsigned>(value), 1,
          latchStream_.get());
  latchStream_.synchronize();
}

void MpiCoordinator::agree(bool ok, const char* step) {
  if (agreeAll(comm_, ok) || !ok) return;  // a rank that failed reports its own error
  throw PeerFailed(std::string("another process failed ") + step);
}

void MpiCoordinator::beginSample(bool ok) {
  *static_cast<volatile int*>(timedOut_.data()) = 0;
  if (comm_.rank() == 0 && ok) setLatch(0);
  agree(ok, "before the sample");  // nobody queues a spin kernel before the latch is closed
}

SpinFlags MpiCoordinator::spinFlags(int) {
  return {reinterpret_cast<const volatile int*>(latch_.ptr()),
          reinterpret_cast<int*>(timedOut_.devicePtr())};
}

void MpiCoordinator::release(bool ok) {
  if (!agreeAll(comm_, ok)) {
    abandon();
    if (ok) throw PeerFailed("another process could not queue its copies");
    return;
  }
  if (comm_.rank() == 0) setLatch(1);
}

void MpiCoordinator::abandon() noexcept {
  // Any rank can open the latch: it is mapped read-write everywhere.
  try {
    setLatch(1);
  } catch (...) {
    // The spin kernels release themselves after their timeout.
  }
}

void MpiCoordinator::waitFor(const std::vector<CUstream>& streams) {
  const auto start = std::chrono::steady_clock::now();
  for (CUstream s : streams) {
    for (;;) {
      const CUresult rc = gpu_.api().cuStreamQuery(s);
      if (rc == CUDA_SUCCESS) break;
      if (rc != CUDA_ERROR_NOT_READY)
        throwCudaError(gpu_.api(), rc, "cuStreamQuery", "cuStreamQuery(s)", __FILE__, __LINE__);
      if (std::chrono::steady_clock::now() - start > gpuTimeout_)
        throw Error("the copies of a sample did not finish within " +
                    std::to_string(gpuTimeout_.count()) + " s");
      comm_.progress();
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
}

void MpiCoordinator::checkpoint(bool ok) { agree(ok, "during the sample"); }

bool MpiCoordinator::timedOut() { return *static_cast<volatile int*>(timedOut_.data()) != 0; }

void MpiCoordinator::combine(const Measurement& m, MeasurementSamples& samples) {
  mergeSamples(comm_.allGather(samplesContribution(m, samples, comm_.rank())), samples);
}

}  // namespace nvbw::multinode
