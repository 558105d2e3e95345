// The text report: upstream v0.8's console layout, with the lines of our own that
// docs/compatibility.md#additions allows, printed from the run's Report as it grows.
#pragma once

#include <iosfwd>
#include <memory>

#include "report/report_text.h"
#include "report/report_view.h"

namespace nvbw {

// The first line of a run's text on a confidential-computing host, as upstream v0.10 prints it.
inline constexpr const char* kConfidentialComputingNotice =
    "Detected platform using encrypted bounce buffers for CPU<->GPU traffic.";

// Text: each testcase's lines to `out` as its entries are appended, lines of ours to `err`.
std::unique_ptr<ReportView> makeTextView(std::ostream& out, std::ostream& err,
                                         const OutputSettings& settings);

}  // namespace nvbw
