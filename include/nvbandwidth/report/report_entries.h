// A testcase's result as the entries of the run's Report, the one place the engine's results
// become the Report's: one entry per matrix, with its values, the strings upstream wrote, every
// cell's samples and statistics, its links, peaks, percents of peak, outliers and cells above
// their peak, and (on the first) -v's sample lines; or the waive reason, or the error.
#pragma once

#include <string>
#include <vector>

#include "engine/results.h"
#include "model/report.h"

namespace nvbw {

// What an entry of testcase `testcase` is, from the registry's facts of that testcase
// (plans/testcase.h, findTestcase): its unit and its one matrix (the run writes each matrix of a
// testcase as an entry of its own) with the axes the testcase declares. A name the registry does
// not know (results made up in tests) takes `unit`, the matrix's own, and its title's axes.
// `entry` holds its values and title already.
void shapeEntry(ReportEntry& entry, const std::string& testcase, Unit unit);

// The entries of one testcase's result, as -j writes them. `verbose`: -v's min, max and average;
// `statistic`: "median" or "mean", what the cells' values are of their samples.
std::vector<ReportEntry> entriesOf(const TestcaseResult& result, bool verbose,
                                   const std::string& statistic);

}  // namespace nvbw
