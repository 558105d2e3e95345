// Upstream's measurement method (doMemcpyCore, docs/compatibility.md#u3) for the copies of
// sample_protocol.h. The latch starts all copies together after all the enqueueing, so that the
// measurement leaves out host-side launch overhead.
//
// A sample is three local stages separated by the coordinator's steps; a stage that fails is
// remembered, the step still happens (other processes may be waiting in it), then the failure is
// rethrown.
#include "engine/sample_protocol.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "core/statistics.h"
#include "engine/phase_timer.h"
#include "platform/worker_threads.h"

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

SampleProtocol::SampleProtocol(Parts parts, std::vector<CopyRun>& runs, std::vector<Group> groups,
                               SampleTiming timing)
    : p_(parts), runs_(runs), groups_(std::move(groups)), timing_(timing),
      totalEnd_(groups_.size()) {
  if (timing_ == SampleTiming::InOrder)
    for (const Group& g : groups_)
      if (g.total) throw std::logic_error("a sample timed in order has no aggregate");
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].begin < groups_[g].end)
      totalEnd_[g].emplace(p_.gpu, runs_[groups_[g].begin].spec->execDevice);
}

std::vector<SampleTimes> SampleProtocol::run(unsigned sample) {
  if (timing_ == SampleTiming::InOrder) return runInOrder(sample);
  SampleCoordinator& coordinator = p_.coordinator;
  std::exception_ptr failure = attempt([&] { fill(false); });
  coordinator.beginSample(!failure);
  rethrowIf(failure);

  failure = attempt([&] {
    blockAndEnqueue();
    awaitFills();
  });
  if (failure) coordinator.abandon();  // no stream of ours may stay blocked
  coordinator.release(!failure);
  rethrowIf(failure);

  std::vector<SampleTimes> times;
  failure = attempt([&] {
    wait();
    if (coordinator.timedOut())
      throw SpinTimeoutError("a stream stayed blocked for longer than the " +
                             std::to_string(p_.settings.spinTimeoutMs) +
                             " ms spin timeout while copies were being queued; the timing would "
                             "include queueing time, so the measurement was discarded");
    verify(sample, true);
    times = timings();
  });
  coordinator.checkpoint(!failure);
  rethrowIf(failure);
  return times;
}

std::vector<SampleTimes> SampleProtocol::runInOrder(unsigned sample) {
  fill(true);
  awaitFills();
  {
    // The host is held by each copy it issues until the copy is done: most of this is waiting.
    PhaseTimer timer(p_.times.wait);
    for (const Group& g : groups_)
      onThreads(g.end - g.begin, [&](std::size_t i) { issueInOrder(runs_[g.begin + i]); });
  }
  wait();
  verify(sample, false);
  return timings();
}

// One stream's copies, each issued once the host has the last back: its warm-up, then the
// measured ones between its events.
void SampleProtocol::issueInOrder(CopyRun& c) {
  ContextScope scope(p_.gpu, c.spec->execDevice);
  const CUstream stream = c.stream->get();
  enqueueCopy(p_.gpu, c, kWarmupCopies);
  c.start->record(stream);
  enqueueCopy(p_.gpu, c, p_.settings.loopCount);
  c.end->record(stream);
}

// What a buffer holds decides what each sample fills (buffer_content.h). The fills run while the
// copies are queued behind them (stream order); awaitFills waits for them before the latch opens
// (a fill left behind a spin would never end: LogicalGpus/EveryPeerTestcasePasses would time out).
void SampleProtocol::fill(bool hostByCpu) {
  PhaseTimer timer(p_.times.fill);
  for (CopyRun& c : runs_) planFills(c, p_.settings.verify, p_.counts);
  for (CopyRun& c : runs_) {
    fillCopy(p_.gpu, p_.patterns, c, hostByCpu);
    c.filled->record(c.stream->get());
  }
}

// Every fill has finished before any copy may start: a stream whose fill ran late would start
// its copies after the others', and another process's copies use these buffers once the latch
// opens.
void SampleProtocol::awaitFills() {
  PhaseTimer timer(p_.times.fill);
  for (const CopyRun& c : runs_) c.filled->synchronize();
}

// Each stream: the spin kernel, then the warm-up copies; then the timed part of each group.
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
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].begin < groups_[g].end) enqueueMeasured(g);
}

// Every stream of a group starts timing when the group's first does (after its warm-up). For
// the aggregate, that stream also waits for every other copy's end before recording the
// total's end.
void SampleProtocol::enqueueMeasured(std::size_t group) {
  const DriverApi& api = p_.gpu.api();
  const Group& g = groups_[group];
  CopyRun& first = runs_[g.begin];
  first.start->record(first.stream->get());
  for (std::size_t i = g.begin + 1; i < g.end; ++i) {
    NVBW_CU(api, cuStreamWaitEvent, runs_[i].stream->get(), first.start->get(), 0);
    runs_[i].start->record(runs_[i].stream->get());
  }
  for (std::size_t i = g.begin; i < g.end; ++i) {
    CopyRun& c = runs_[i];
    ContextScope scope(p_.gpu, c.spec->execDevice);
    enqueueCopy(p_.gpu, c, p_.settings.loopCount);
    c.end->record(c.stream->get());
    if (g.total && i != g.begin)
      NVBW_CU(api, cuStreamWaitEvent, first.stream->get(), c.end->get(), 0);
  }
  totalEnd_[group]->record(first.stream->get());
}

void SampleProtocol::wait() {
  PhaseTimer timer(p_.times.wait);
  std::vector<CUstream> streams;
  for (const CopyRun& c : runs_) streams.push_back(c.stream->get());
  p_.coordinator.waitFor(streams);
}

// The checks of every copy run together (host memory by the CPU, device memory by its GPU); the
// first copy, in order, whose data is wrong is the one reported.
void SampleProtocol::verify(unsigned sample, bool hostOnGpu) {
  std::vector<CopiedBuffer> copied;
  for (const CopyRun& c : runs_) copied.push_back(copiedBuffer(c));
  p_.faults.beforeVerification(copied);
  if (p_.settings.verify) {
    PhaseTimer timer(p_.times.verification);
    const unsigned long long passes = kWarmupCopies + p_.settings.loopCount;
    std::vector<Check> checks;
    for (const CopyRun& c : runs_) addChecks(c, passes, checks);
    p_.verifier.run(checks, sample, hostOnGpu);
  }
  for (CopyRun& c : runs_) recordCopied(c, p_.settings.verify);
}

std::vector<SampleTimes> SampleProtocol::timings() const {
  std::vector<SampleTimes> all;
  std::uint64_t longest = 0;
  for (std::size_t group = 0; group < groups_.size(); ++group) {
    const Group& g = groups_[group];
    SampleTimes t;
    for (std::size_t i = g.begin; i < g.end; ++i) {
      const CopyRun& c = runs_[i];
      const double seconds = checkedSeconds(c.end->elapsedSince(*c.start), "a measured copy");
      t.copies.push_back(seconds);
      p_.times.timedCopies += seconds;
      ++p_.counts.copies;
      p_.counts.copyBytes += c.bytes;
      longest = std::max<std::uint64_t>(longest, c.bytes);
    }
    if (g.total && g.begin < g.end)
      t.total =
          checkedSeconds(totalEnd_[group]->elapsedSince(*runs_[g.begin].start), "the aggregate");
    all.push_back(std::move(t));
  }
  ++p_.counts.samples;
  p_.counts.longestCopyBytes += longest;
  return all;
}

}  // namespace nvbw::engine
