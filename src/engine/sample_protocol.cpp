// The measurement method of upstream's doMemcpyCore (docs/compatibility.md#u3) for any list of
// simultaneous copies. The latch makes all copies start together, after all the enqueueing work, so
// that the measurement does not include host-side launch overhead.
//
// A sample is three local stages separated by the coordinator's steps; a stage that fails is
// remembered, the step still happens (other processes may be waiting in it), then the failure is
// rethrown.
#include "engine/sample_protocol.h"

#include <exception>
#include <string>

#include "core/statistics.h"
#include "engine/phase_timer.h"

namespace nvbw::engine {
namespace {

constexpr unsigned kWarmupCopies = 4;

template <typename Stage> std::exception_ptr attempt(Stage&& stage) {
  try {
    stage();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

void rethrowIf(const std::exception_ptr& failure) {
  if (failure) std::rethrow_exception(failure);
}

// What a copy produced, for fault injection: its destination, or for a read-only pass the sum of
// what it read (a host word), which is what its verification checks.
CopiedBuffer copiedBuffer(const CopyRun& c) {
  if (c.readSum) return {c.spec, c.readSum->ptr(), nullptr, sizeof(unsigned long long)};
  return {c.spec, c.dst.checked(), c.dst.host, c.checked};
}

}  // namespace

SampleProtocol::SampleProtocol(Parts parts, std::vector<CopyRun>& runs, bool total)
    : p_(parts), runs_(runs), total_(total) {
  if (!runs_.empty()) totalEnd_.emplace(p_.gpu, runs_.front().spec->execDevice);
}

SampleTimes SampleProtocol::run(unsigned sample) {
  SampleCoordinator& coordinator = p_.coordinator;
  std::exception_ptr failure = attempt([&] { fill(sample); });
  coordinator.beginSample(!failure);
  rethrowIf(failure);

  failure = attempt([&] { blockAndEnqueue(); });
  if (failure) coordinator.abandon();  // no stream of ours may stay blocked
  coordinator.release(!failure);
  rethrowIf(failure);

  SampleTimes times;
  failure = attempt([&] {
    wait();
    if (coordinator.timedOut())
      throw SpinTimeoutError("a stream stayed blocked for longer than the " +
                             std::to_string(p_.settings.spinTimeoutMs) +
                             " ms spin timeout while copies were being queued; the timing would "
                             "include queueing time, so the measurement was discarded");
    verify(sample);
    times = timings();
  });
  coordinator.checkpoint(!failure);
  rethrowIf(failure);
  return times;
}

void SampleProtocol::fill(unsigned sample) {
  PhaseTimer timer(p_.times.fill);
  for (CopyRun& c : runs_) fillCopy(p_.gpu, p_.patterns, c, sample == 0);
  for (CopyRun& c : runs_) c.stream->synchronize();
}

// Each stream: the spin kernel, then the warm-up copies; then the timed part.
void SampleProtocol::blockAndEnqueue() {
  PhaseTimer timer(p_.times.enqueue);
  for (CopyRun& c : runs_) {
    const int device = c.spec->execDevice;
    ContextScope scope(p_.gpu, device);
    const SpinFlags flags = p_.coordinator.spinFlags(device);
    const auto khz =
        static_cast<unsigned long long>(p_.gpu.attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
    kernels::spin(c.stream->get(), flags.latch, flags.timedOut, khz * p_.settings.spinTimeoutMs);
    enqueueCopy(p_.gpu, c, kWarmupCopies);
  }
  if (!runs_.empty()) enqueueMeasured();
}

// Every stream starts timing when stream 0 does (after its warm-up). For the aggregate, stream 0
// also waits for every other copy's end before recording the total's end.
void SampleProtocol::enqueueMeasured() {
  const DriverApi& api = p_.gpu.api();
  CopyRun& first = runs_.front();
  first.start->record(first.stream->get());
  for (std::size_t i = 1; i < runs_.size(); ++i) {
    NVBW_CU(api, cuStreamWaitEvent, runs_[i].stream->get(), first.start->get(), 0);
    runs_[i].start->record(runs_[i].stream->get());
  }
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    CopyRun& c = runs_[i];
    ContextScope scope(p_.gpu, c.spec->execDevice);
    enqueueCopy(p_.gpu, c, p_.settings.loopCount);
    c.end->record(c.stream->get());
    if (total_ && i != 0) NVBW_CU(api, cuStreamWaitEvent, first.stream->get(), c.end->get(), 0);
  }
  totalEnd_->record(first.stream->get());
}

void SampleProtocol::wait() {
  PhaseTimer timer(p_.times.wait);
  std::vector<CUstream> streams;
  for (const CopyRun& c : runs_) streams.push_back(c.stream->get());
  p_.coordinator.waitFor(streams);
}

void SampleProtocol::verify(unsigned sample) {
  std::vector<CopiedBuffer> copied;
  for (const CopyRun& c : runs_) copied.push_back(copiedBuffer(c));
  p_.faults.beforeVerification(copied);
  if (!p_.settings.verify) return;
  PhaseTimer timer(p_.times.verification);
  const unsigned long long passes = kWarmupCopies + p_.settings.loopCount;
  for (const CopyRun& c : runs_) verifyCopy(p_.gpu, p_.verifier, c, sample, passes);
}

SampleTimes SampleProtocol::timings() const {
  SampleTimes t;
  for (const CopyRun& c : runs_) {
    const double seconds = checkedSeconds(c.end->elapsedSince(*c.start), "a measured copy");
    t.copies.push_back(seconds);
    p_.times.timedCopies += seconds;
  }
  if (total_ && !runs_.empty())
    t.total = checkedSeconds(totalEnd_->elapsedSince(*runs_.front().start), "the aggregate");
  return t;
}

}  // namespace nvbw::engine
