// What a saved report must look like before a view reads it: this tool's layout and upstream
// v0.8's pass; wrong types, impossible values and matrices too large for the report's GPUs are
// refused with the place and the reason.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "json_documents.h"
#include "model/record_fields.h"

namespace nvbw {
namespace test_report_shape {

using nlohmann::json;

json load(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

json golden(const std::string& name) { return load(std::string(NVBW_GOLDEN_DIR) + "/" + name); }

// The problem checkReportShape finds, or "" when there is none.
std::string problemOf(const json& doc, ReportKind kind = ReportKind::Run) {
  try {
    checkReportShape(doc, kind);
  } catch (const ReportShapeError& e) {
    return e.what();
  }
  return "";
}

// A copy of this tool's two-GPU report with `change` applied.
json mutated(const std::function<void(json&)>& change) {
  json doc = golden("fleet/fake_base.json");
  change(doc["nvbandwidth"]);
  return doc;
}

json& firstMatrixEntry(json& run) {
  for (json& entry : run["testcases"])
    if (entry.contains("values")) return entry;
  throw std::logic_error("no matrix entry");
}

TEST(ReportShape, ReportsOfThisToolAndOfUpstreamPass) {
  for (const char* name :
       {"fleet/fake_base.json", "fleet/fake_slower.json", "run_to_run_x2/issue11_full.json",
        "json_one_gpu.json", "json_verbose.json", "json_startup_failed.json",
        "json_no_testcases.json", "d2d/json_four_gpu.json", "upstream/default.json",
        "html/features.json"})
    EXPECT_EQ(problemOf(golden(name)), "") << name;
}

TEST(ReportShape, AComparisonDocumentIsAReportOnlyWhereOneIsAllowed) {
  const json doc = {
      {"nvbandwidth", {{"version", "v"}, {"comparison", {{"cells", json::array()}}}}}};
  EXPECT_EQ(problemOf(doc, ReportKind::RunOrComparison), "");
  EXPECT_NE(problemOf(doc, ReportKind::Run).find("has no \"testcases\""), std::string::npos);
}

TEST(ReportShape, WhatIsNotAReport) {
  EXPECT_NE(problemOf(json::array()).find("is array, not an object"), std::string::npos);
  EXPECT_NE(problemOf(json(3)).find("not an object"), std::string::npos);
  EXPECT_NE(problemOf(json::object()).find("no \"nvbandwidth\""), std::string::npos);
  // `nvbandwidth -j -l`: testcases without a status.
  const json listing = load(std::string(NVBW_GOLDEN_DIR) + "/listing.json");
  EXPECT_NE(problemOf(listing).find("has no \"status\""), std::string::npos) << problemOf(listing);
}

TEST(ReportShape, WrongTypesNameThePlace) {
  const std::string cell =
      problemOf(mutated([](json& run) { firstMatrixEntry(run)["values"][0][1] = "x"; }));
  EXPECT_NE(cell.find("nvbandwidth.testcases[0] (\"host_to_device_memcpy_ce\").values[0][1]: is "
                      "string, not a number"),
            std::string::npos)
      << cell;
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["cells"][0][0]["samples"][0] = "a";
            })).find(".cells[0][0].samples[0]: is string"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["sum"] = "fast";
            })).find(".sum: is string"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) { run["testcases"][0]["name"] = 5; })).find(".name"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              run["testcases"][0]["status"] = json();
            })).find(".status: is null"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              run["settings"]["x"] = {{"y", 1}};
            })).find("settings.x"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              run["GPU Device list"][0] = 7;
            })).find("GPU Device list[0]"),
            std::string::npos);
}

TEST(ReportShape, ImpossibleValuesAreRefused) {
  // Above 0 and below 1e-9: no bandwidth, and a divisor that would make a ratio infinite.
  for (double bad : {-5.0, 2e7, 4.9e-324, 1e-300, 9.9e-10}) {
    EXPECT_NE(problemOf(mutated([bad](json& run) {
                firstMatrixEntry(run)["values"][0][1] = bad;
              })).find("is not a bandwidth"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["bandwidth_matrix"][0][1] = "-5";
            })).find("is not a bandwidth"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["bandwidth_matrix"][0][1] = "1e400";
            })).find("neither a number nor \"N/A\""),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["cells"][0][0]["median"] = -1;
            })).find("median"),
            std::string::npos);
  EXPECT_EQ(problemOf(mutated([](json& run) { firstMatrixEntry(run)["values"][0][1] = 0; })), "");
  EXPECT_EQ(problemOf(mutated([](json& run) { firstMatrixEntry(run)["values"][0][1] = 1e-9; })),
            "");
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["bandwidth_matrix"][0][1] = "4.9e-324";
            })).find("is not a bandwidth (0, or 1e-9 to 1e7 GB/s)"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["cells"][0][0]["stddev"] = 1e300;
            })).find("stddev: 1e+300 is not a spread of bandwidths"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["percent_of_peak"][0][0] = 1e-300;
            })).find("is not a percent of peak"),
            std::string::npos);
  // A spread may be as small as rounding leaves it.
  EXPECT_EQ(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["cells"][0][0]["stddev"] = 1e-300;
              firstMatrixEntry(run)["cells"][0][0]["cv"] = 1e-300;
            })),
            "");
}

TEST(ReportShape, MatricesAreBoundedByTheReportsGpus) {
  // Two GPUs: at most 6 rows (upstream stacks three matrices) and 2 columns.
  const std::string wide = problemOf(mutated([](json& run) {
    json& e = firstMatrixEntry(run);
    e = {{"name", e["name"]},
         {"status", "Passed"},
         {"values", json::array({json::array({1, 2, 3})})}};
  }));
  EXPECT_NE(wide.find("has 3 cells; a report of 2 GPUs has 1 to 2"), std::string::npos) << wide;
  const std::string tall = problemOf(mutated([](json& run) {
    json& e = firstMatrixEntry(run);
    e = {{"name", e["name"]}, {"status", "Passed"}, {"values", json::array()}};
    for (int r = 0; r < 7; ++r) e["values"].push_back(json::array({1, 2}));
  }));
  EXPECT_NE(tall.find("has 7 rows"), std::string::npos) << tall;
  EXPECT_NE(problemOf(mutated([](json& run) {
              run.erase("GPU Device list");
            })).find("without a \"GPU Device list\""),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              firstMatrixEntry(run)["values"][1] = json::array({1});
            })).find("different lengths"),
            std::string::npos);
  EXPECT_NE(problemOf(mutated([](json& run) {
              json& e = firstMatrixEntry(run);
              e["cells"].push_back(e["cells"][0]);
            })).find(".cells: is 2 x 2 but \"values\" is 1 x 2"),
            std::string::npos);
}

// The first matrix entry's `key` given twice: `before` ahead of the report's own value, or
// `after` behind it (a document nlohmann cannot hold: the key spelled twice in the text), read in
// `scope`. The problem, or "" (the Report's matrix of that key in `cells`).
std::string repeatedKeyProblem(const char* key, const json& before, const json& after,
                               ReadScope scope, std::size_t* cells = nullptr) {
  std::string earlier = key;
  --earlier.back();
  earlier += "~";
  json doc = mutated([&](json& run) {
    json& e = firstMatrixEntry(run);
    // Keys that sort right before and after `key` ("valuer~", "values~"), renamed to it in the
    // text.
    if (!before.is_null()) e[earlier] = before;
    if (!after.is_null()) e[std::string(key) + "~"] = after;
  });
  std::string text = doc.dump();
  for (const std::string& spelledKey : {earlier, std::string(key) + "~"}) {
    const std::string spelled = "\"" + spelledKey + "\"";
    const std::size_t at = text.find(spelled);
    if (at != std::string::npos) text.replace(at, spelled.size(), "\"" + std::string(key) + "\"");
  }
  ReadOptions options;
  options.scope = scope;
  try {
    const Report report = readReportText(text, options);
    if (cells) {
      const ReportEntry& e = report.testcases->front();
      *cells = std::string(key) == "values" ? e.values->cells.size() : e.texts->cells.size();
    }
  } catch (const ReportShapeError& e) {
    return e.what();
  }
  return "";
}

// A key given twice counts as its later value, whether the reader read the matrix straight into
// cells or as a value.
TEST(ReportShape, ARepeatedMatrixKeyCountsAsItsLaterValue) {
  for (const ReadScope scope : {ReadScope::Whole, ReadScope::Matrices}) {
    std::size_t cells = 0;
    const std::string later =
        repeatedKeyProblem("values", json(), json::array({json::array({1, "x"})}), scope);
    EXPECT_NE(later.find(".values[0][1]: is string, not a number"), std::string::npos) << later;
    EXPECT_EQ(
        repeatedKeyProblem("values", json::array({json::array({1, "x"})}), json(), scope, &cells),
        "");
    EXPECT_EQ(cells, 2u);
    EXPECT_EQ(
        repeatedKeyProblem("values", json::array({json::array({1, 2, 3})}), json(), scope, &cells),
        "");
    EXPECT_EQ(cells, 2u);
    const std::string small =
        repeatedKeyProblem("values", json(), json::array({json::array({1})}), scope);
    EXPECT_NE(small.find("but \"values\" is 1 x 1"), std::string::npos) << small;
    const std::string text = repeatedKeyProblem("bandwidth_matrix", json(),
                                                json::array({json::array({"1", "x"})}), scope);
    EXPECT_NE(text.find(".bandwidth_matrix[0][1]: \"x\" is neither a number nor \"N/A\""),
              std::string::npos)
        << text;
    // The summary keeps no texts where the entry has values.
    cells = 0;
    EXPECT_EQ(repeatedKeyProblem("bandwidth_matrix", json::array({json::array({5, "x"})}), json(),
                                 scope, scope == ReadScope::Whole ? &cells : nullptr),
              "");
    if (scope == ReadScope::Whole) {
      EXPECT_EQ(cells, 2u);
    }
  }
}

TEST(ReportShape, SweepsAndComparisonsHoldOnlyPossibleNumbers) {
  json features = golden("html/features.json");
  features["nvbandwidth"]["sweep"]["series"][0]["sums"][0] = 1e300;
  EXPECT_NE(problemOf(features).find("sweep.series[0].sums[0]"), std::string::npos)
      << problemOf(features);
  json compared = golden("html/features.json");
  compared["nvbandwidth"]["comparison"]["cells"][0]["baseline"] = -5;
  EXPECT_NE(problemOf(compared).find("comparison.cells[0].baseline"), std::string::npos);
}

TEST(ParseCellText, UpstreamCells) {
  using Cell = std::optional<double>;
  EXPECT_EQ(model::cellTextValue("55.4859"), Cell(55.4859));
  EXPECT_EQ(model::cellTextValue("1.23457e+06"), Cell(1.23457e+06));
  EXPECT_EQ(model::cellTextValue("N/A"), std::optional<Cell>(Cell()));
  for (const char* bad : {"", " 5", "5 ", "x", "5x", "inf", "nan"})
    EXPECT_FALSE(model::cellTextValue(bad)) << bad;
}

}  // namespace test_report_shape
}  // namespace nvbw
