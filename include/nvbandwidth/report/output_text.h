// The text report: upstream v0.8's console layout, with the lines of our own that
// docs/compatibility.md#additions allows.
#pragma once

#include <iosfwd>
#include <memory>

#include "report/output.h"

namespace nvbw {

// Text: results to `out`, run-level errors to `err`.
std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       OutputSettings settings);

}  // namespace nvbw
