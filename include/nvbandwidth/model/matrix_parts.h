// What an entry is, where its report says it only by names and titles: its unit, what the rows
// and columns of its matrix are, and the matrices it holds (upstream stacks a bidirectional
// device-to-device testcase's three in one entry). The reader derives them once for every entry
// of a saved report; a run takes them from its results (report/report_builder.h). Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw {

// "unit" where the entry has one; else ns for a key that names a latency ("..._latency_..."),
// GB/s for the rest (upstream v0.8's entries have no unit).
Unit unitOfEntry(const std::optional<std::string>& unitText, const std::string& key);

// What the title says the rows and columns are (report.h: MatrixAxes); `key` says whether they
// are ranks (multinode testcases). nullptr: the entry has no title.
MatrixAxes axesOfTitle(const std::string* title, const std::string& key);

// The matrices of an entry (its unit, values and title set): none without a matrix; upstream's
// stacked entry (strings only, 3N x N) in three, titled as this tool titles them ("... Read1
// bandwidth ..." for upstream's "... Total bandwidth ..."); else the entry's own.
std::vector<MatrixPart> partsOfEntry(const ReportEntry& entry);

}  // namespace nvbw
