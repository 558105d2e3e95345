// The one writer of the tool's JSON documents: a Report as `-j` prints it ({"nvbandwidth":
// {...}} in upstream v0.8's layout, json_style.h), and the documents of the commands that need
// no GPU (the comparison of saved reports, a saved report's checks, the fleet summary, the
// listing), which are Reports of their own: the version facts and their section. A Report that
// was read is written with the members this version knows (report.h).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "model/json.h"
#include "model/report.h"
#include "model/summary_section.h"

namespace nvbw {

// The document's text, ending in a newline (upstream printed one more after it, std::endl,
// which callers add).
std::string reportJson(const Report& report);

// The same, written to `out` as it is made. `cells`, where given, are written one at a time in
// place of report.comparison->cells, so that a comparison of hundreds of thousands of cells never
// exists whole as a document.
void writeReportJson(std::ostream& out, const Report& report,
                     const std::vector<ComparedCellRecord>* cells = nullptr);

// {"nvbandwidth": {<the facts of `versions`>, "summary": {...}}} (the schema's summaryDocument),
// its nodes written one at a time.
void writeSummaryJson(std::ostream& out, const Report& versions, const FleetSummary& summary);

// -j -l: {"nvbandwidth": {<the facts of `versions`>, "testcases": [{"index", "name",
// "description"}...]}}.
struct ListingRecord {
  std::size_t index = 0;
  std::string name;
  std::string description;
};
std::string listingJson(const Report& versions, const std::vector<ListingRecord>& testcases);

// A value as compact JSON ("[1,2]", "true", "55.39419706710477"): how a setting or an exact
// number is shown in a sentence.
std::string compactJson(const Json& value);
// A number as compactJson spells it: the shortest text that reads back as the same double
// ("55.4859", "48.0", "1e+300").
std::string jsonNumberText(double value);

}  // namespace nvbw
