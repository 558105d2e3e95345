// The steps of a sample that involve other processes. A single-process run uses the local
// coordinator (a pinned host flag set by this process, cuStreamSynchronize); a multi-process run
// replaces each step with a collective one, and the sample protocol never asks which it has.
#pragma once

#include <cuda.h>

#include <memory>
#include <vector>

#include "nvbandwidth/gpu.h"
#include "nvbandwidth/measurement_record.h"
#include "nvbandwidth/plan.h"

namespace nvbw {

// Device-visible words the spin kernel uses: it polls `latch` until it is non-zero and writes 1
// to `timedOut` if its timeout passes first.
struct SpinFlags {
  const volatile int* latch = nullptr;
  int* timedOut = nullptr;
};

class SampleCoordinator {
 public:
  virtual ~SampleCoordinator() = default;
  // Before a sample's buffers are filled: closes the latch (multi-process: every rank is ready).
  virtual void beginSample() = 0;
  // What the spin kernel holding a stream of `device` polls.
  virtual SpinFlags spinFlags(int device) = 0;
  // Every stream of the sample is queued: open the latch (multi-process: on every rank).
  virtual void release() = 0;
  // Opens this process's latch without waiting for anyone: the sample is being abandoned after
  // an error, and no stream may stay blocked.
  virtual void abandon() noexcept = 0;
  // Returns once every stream in `streams` has finished.
  virtual void waitFor(const std::vector<CUstream>& streams) = 0;
  // True when a spin kernel of the last sample released itself after its timeout.
  virtual bool timedOut() = 0;
  // Completes a measurement's samples with those of the copies other processes executed (each
  // process measured its own copies). Nothing to do in a single process.
  virtual void combine(const Measurement& m, MeasurementSamples& samples) = 0;
  // Whether this process issues `copy`.
  virtual bool executes(const CopySpec& copy) const = 0;
};

std::unique_ptr<SampleCoordinator> makeLocalCoordinator(const Gpu& gpu);

}  // namespace nvbw
