// The text report: upstream v0.8's console layout, with the lines of our own that
// docs/compatibility.md#additions allows.
#pragma once

#include <iosfwd>
#include <memory>

#include "report/output.h"

namespace nvbw {

// The first line of a run's text on a confidential-computing host, as upstream v0.10 prints it.
inline constexpr const char* kConfidentialComputingNotice =
    "Detected platform using encrypted bounce buffers for CPU<->GPU traffic.";

// Text: results to `out`, run-level errors to `err`.
std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       OutputSettings settings);

}  // namespace nvbw
