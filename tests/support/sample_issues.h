// The order in which one sample issues its work, as data: the one order the sample protocol
// follows (sample_protocol.cpp) for each way of timing (plans/plan.h, SampleTiming), and what a
// confidential-computing host makes of it. Pure, so the fake platform replays the same order on
// its confidential device and the tests show which order hangs there. A model of the product
// (engine/sample_protocol.cpp), kept with the tests: the product never asks it.
//
// On a confidential-computing host, a copy between pinned host memory and the device blocks the
// thread that issues it until it and everything queued before it on its stream have finished.
// A latched sample queues each stream's copies behind a spin kernel that only the host's release,
// issued after every copy, ends: the first host copy never returns. A sample timed in order has
// no latch.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plans/plan.h"

namespace nvbw::engine {

enum class IssueKind {
  Fill,        // a stream's fills (kernels on device memory; the CPU writes host memory in order)
  AwaitFills,  // the host waits until every stream's fills have finished
  Spin,        // the spin kernel that holds a stream until the release
  Warmup,      // the warm-up copies
  Start,       // the start event
  Measured,    // the measured copies
  End,         // the end event
  Release,     // the host opens the latch
  Wait,        // the host waits until every stream has finished
};

struct Issue {
  IssueKind kind;
  std::size_t stream = 0;  // the copy (and its stream) it is issued for; 0 for the host's steps
  bool operator==(const Issue& o) const { return kind == o.kind && stream == o.stream; }
};

// Per group of copies timed together (a measurement, or a round's measurements): how many
// copies it has, in stream order.
std::vector<Issue> sampleIssues(SampleTiming timing, const std::vector<std::size_t>& groupSizes);

// What a confidential-computing host does with `issues`, where `hostCopy[s]` says whether stream
// s copies between host and device memory: nullopt when they complete, else why the issuing
// thread never returns ("the warm-up copy of copy 0 waits for its stream's spin kernel, which
// only the release after it ends").
std::optional<std::string> confidentialHang(const std::vector<Issue>& issues,
                                            const std::vector<bool>& hostCopy);

}  // namespace nvbw::engine
