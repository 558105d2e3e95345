// The steps of a sample that involve other processes. A single-process run uses the local
// coordinator (a pinned host flag set by this process, cuStreamSynchronize, no agreement); a
// multi-process run replaces each step with a collective one, and the sample protocol never
// asks which it has.
//
// Every collective step carries whether this process got there cleanly (`ok`), so that a failure
// on one process never leaves the others waiting: when another process failed, the step throws
// PeerFailed on every process that did not, and the one that failed reports its own error.
#pragma once

#include <cuda.h>

#include <memory>
#include <vector>

#include "core/error.h"
#include "engine/sample_recording.h"
#include "plans/plan.h"
#include "platform/gpu.h"

namespace nvbw {

// Another process of the run failed the step; its own message says why.
class PeerFailed : public Error {
 public:
  using Error::Error;
};

// Device-visible words the spin kernel uses: it polls `latch` until it is non-zero and writes 1
// to `timedOut` if its timeout passes first.
struct SpinFlags {
  const volatile int* latch = nullptr;
  int* timedOut = nullptr;
};

class SampleCoordinator {
 public:
  virtual ~SampleCoordinator() = default;
  // Before a sample's copies are queued: closes the latch.
  virtual void beginSample(bool ok) = 0;
  // What the spin kernel holding a stream of `device` polls.
  virtual SpinFlags spinFlags(int device) = 0;
  // Every stream of the sample is queued (on every process, `ok`): opens the latch. When any
  // process failed to queue, every process abandons the sample instead.
  virtual void release(bool ok) = 0;
  // Opens this process's latch without waiting for anyone, so no stream stays blocked.
  virtual void abandon() noexcept = 0;
  // Returns once every stream in `streams` has finished (bounded).
  virtual void waitFor(const std::vector<CUstream>& streams) = 0;
  // After the sample: every process has finished it (`ok` as for the other steps).
  virtual void checkpoint(bool ok) = 0;
  // True when a spin kernel of the last sample released itself after its timeout.
  virtual bool timedOut() = 0;
  // Completes a measurement's samples with those of the copies other processes executed (each
  // process measured its own copies). Nothing to do in a single process.
  virtual void combine(const Measurement& m, MeasurementSamples& samples) = 0;
};

std::unique_ptr<SampleCoordinator> makeLocalCoordinator(const Gpu& gpu);

}  // namespace nvbw
