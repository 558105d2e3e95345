// The HTML report rendered from real and fake documents and read back strictly: python3's
// xml.etree (expat, a conforming XML parser) must accept the page, and what it finds (heatmaps,
// cells with their data-* attributes and texts, sweep charts, entries, lists) is compared with
// the JSON the page was rendered from. python3 is part of the CI setup (the schema tests need it
// too), so a missing one fails here rather than skipping.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fleet/expectations/expectations.h"
#include "fleet/html/html_report.h"
#include "golden.h"
#include "json_documents.h"
#include "report/text_format.h"
#include "run_binary.h"
#include "temp_file.h"

namespace test_html_report {

using nlohmann::json;
using nvbw::test::readFile;

const std::string kPython = "/usr/bin/python3";
const std::string kRealReport = std::string(NVBW_GOLDEN_DIR) + "/run_to_run_x2/issue11_full.json";
const std::string kFeatures = std::string(NVBW_GOLDEN_DIR) + "/html/features.json";

// Parses the page given as argv[1] strictly and prints, as JSON, what the tests compare with the
// report: any well-formedness error (bad nesting, unquoted attribute, unknown entity) raises.
constexpr const char* kReader = R"PY(
import collections, json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
def classes(e): return (e.get('class') or '').split()
def text(e): return '' if e is None else ''.join(e.itertext())
def cell(g):
    rect = g.find('rect')
    return {'row': g.get('data-row'), 'col': g.get('data-col'), 'value': g.get('data-value'),
            'percent': g.get('data-percent'), 'verdict': g.get('data-verdict'),
            'outlier': g.get('data-outlier'), 'below': g.get('data-below'),
            'above_peak': g.get('data-above-peak'), 'failing': g.get('data-failing'),
            'fill': rect.get('fill'),
            'stroke': rect.get('stroke'), 'texts': [text(t) for t in g.findall('text')],
            'title': text(g.find('title'))}
out = {'root': root.tag, 'heatmaps': [], 'sweeps': [], 'entries': [], 'lists': {},
       'verdict_rows': [], 'urls': [], 'classes': collections.Counter(), 'text': text(root)}
for e in root.iter():
    for c in classes(e): out['classes'][c] += 1
    for k, v in e.attrib.items():
        if '://' in v or 'url(' in v or k in ('href', 'src') or k.endswith('}href'):
            out['urls'].append(v)
    if e.tag == 'svg' and 'heatmap' in classes(e):
        out['heatmaps'].append({
            'name': e.get('data-name'), 'rows': int(e.get('data-rows')),
            'cols': int(e.get('data-cols')),
            'row_labels': [text(t) for t in e.iter('text') if 'row-label' in classes(t)],
            'cells': [cell(g) for g in e.iter('g') if 'cell' in classes(g)]})
    if e.tag == 'svg' and 'sweep' in classes(e):
        out['sweeps'].append({'name': e.get('data-name'), 'size90': e.get('data-size-90'),
                              'points': len(list(e.iter('circle')))})
    if e.tag == 'article' and 'entry' in classes(e):
        out['entries'].append({'name': e.get('data-name'), 'status': e.get('data-status'),
                               'text': text(e)})
    if e.tag == 'tr' and e.get('data-verdict') is not None:
        out['verdict_rows'].append(e.get('data-verdict'))
    if e.tag in ('div', 'ul') and classes(e):
        out['lists'][classes(e)[0]] = [text(li) for li in e.iter('li')]
print(json.dumps(out))
)PY";

// What the strict reader found in `html`; null (with a failure recorded) when it rejected it.
json readPage(const std::string& html) {
  if (access(kPython.c_str(), X_OK) != 0) {
    ADD_FAILURE() << kPython << " is missing: the HTML tests read pages with python3's XML parser";
    return nullptr;
  }
  const nvbw::test::TempFile page("html", html);
  const nvbw::test::RunResult run =
      nvbw::test::runProgram(nvbw::test::RunSpec(kPython, {"-c", kReader, page.path()}));
  if (run.exitCode != 0) {
    ADD_FAILURE() << "the page is not well-formed XML:\n" << run.err;
    return nullptr;
  }
  return json::parse(run.out);
}

json readJson(const std::string& path) { return json::parse(readFile(path)); }

// The page of `document` as the program renders it: its text (bytes that are not UTF-8 as
// U+FFFD) read into a Report as --from reads it.
std::string renderHtmlReport(const json& document) {
  return nvbw::renderHtmlReport(
      nvbw::readReportText(document.dump(-1, ' ', false, json::error_handler_t::replace),
                           nvbw::ReadOptions{nvbw::ReportKind::RunOrComparison}));
}

bool hasMatrix(const json& entry) {
  return entry.at("status") == "Passed" &&
         (entry.contains("values") || entry.contains("bandwidth_matrix"));
}

// "55.4859" from upstream's string matrices; null for "N/A".
json valueOf(const json& entry, std::size_t row, std::size_t col) {
  if (entry.contains("values")) return entry.at("values").at(row).at(col);
  const std::string text = entry.at("bandwidth_matrix").at(row).at(col).get<std::string>();
  return text == "N/A" ? json(nullptr) : json(std::stod(text));
}

void expectCell(const json& entry, const json& cell, std::size_t row, std::size_t col) {
  SCOPED_TRACE(entry.at("name").get<std::string>() + "[" + std::to_string(row) + "][" +
               std::to_string(col) + "]");
  EXPECT_EQ(cell.at("row"), std::to_string(row));
  EXPECT_EQ(cell.at("col"), std::to_string(col));
  const json value = valueOf(entry, row, col);
  const std::string shown = cell.at("texts").at(0).get<std::string>();
  if (value.is_null()) {
    EXPECT_EQ(cell.at("value"), "");
    EXPECT_EQ(shown, "N/A");
    EXPECT_TRUE(cell.at("percent").is_null());
    return;
  }
  EXPECT_EQ(std::stod(cell.at("value").get<std::string>()), value.get<double>());
  EXPECT_EQ(shown, nvbw::fixed(value.get<double>()));
  const bool latency = entry.value("unit", "") == "ns";
  const json percent = entry.contains("percent_of_peak") && !latency
                           ? entry.at("percent_of_peak").at(row).at(col)
                           : json(nullptr);
  if (percent.is_null())
    EXPECT_TRUE(cell.at("percent").is_null());
  else
    EXPECT_EQ(std::stod(cell.at("percent").get<std::string>()), percent.get<double>());
}

void expectHeatmap(const json& entry, const json& heatmap) {
  const std::string name = entry.at("name").get<std::string>();
  EXPECT_EQ(heatmap.at("name"), name);
  const json grid = entry.contains("values") ? entry.at("values") : entry.at("bandwidth_matrix");
  const std::size_t rows = grid.size(), cols = grid.at(0).size();
  ASSERT_EQ(heatmap.at("rows").get<std::size_t>(), rows) << name;
  ASSERT_EQ(heatmap.at("cols").get<std::size_t>(), cols) << name;
  ASSERT_EQ(heatmap.at("cells").size(), rows * cols) << name;
  for (std::size_t k = 0; k < rows * cols; ++k)
    expectCell(entry, heatmap.at("cells").at(k), k / cols, k % cols);
  // Every outlier framed, and nothing else.
  std::size_t framed = 0;
  for (const json& cell : heatmap.at("cells")) {
    if (cell.at("outlier") != "true") continue;
    ++framed;
    EXPECT_EQ(cell.at("stroke"), "#e00000") << name;
  }
  EXPECT_EQ(framed, entry.value("outliers", json::array()).size()) << name;
}

// What every page must be: it starts as HTML5, fetches nothing, runs nothing.
void expectSelfContained(const std::string& html, const json& page) {
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html", 0), 0u);
  EXPECT_EQ(page.at("root"), "html");
  std::string lower = html;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_EQ(lower.find("http://"), std::string::npos);
  EXPECT_EQ(lower.find("https://"), std::string::npos);
  EXPECT_EQ(lower.find("@import"), std::string::npos);
  for (const json& url : page.at("urls"))
    EXPECT_EQ(url.get<std::string>().rfind("url(#", 0), 0u) << "reference out of the page: " << url;
}

// Renders `document`, reads the page back and checks every matrix entry's heatmap against it.
json renderAndCheck(const json& document) {
  const std::string html = renderHtmlReport(document);
  const json page = readPage(html);
  if (page.is_null()) return page;
  expectSelfContained(html, page);
  const json testcases = document.at("nvbandwidth").value("testcases", json::array());
  std::vector<const json*> matrices;
  for (const json& entry : testcases)
    if (hasMatrix(entry)) matrices.push_back(&entry);
  EXPECT_EQ(page.at("heatmaps").size(), matrices.size());
  for (std::size_t i = 0; i < std::min(matrices.size(), page.at("heatmaps").size()); ++i)
    expectHeatmap(*matrices[i], page.at("heatmaps").at(i));
  return page;
}

bool contains(const json& page, const std::string& text) {
  return page.at("text").get<std::string>().find(text) != std::string::npos;
}

int classCount(const json& page, const std::string& cls) {
  return page.at("classes").value(cls, 0);
}

// ---- documents of real and fake runs ------------------------------------------------------

TEST(HtmlReport, RealTwoGpuReport) {
  const json document = readJson(kRealReport);
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  EXPECT_EQ(page.at("heatmaps").size(), 54u);
  EXPECT_EQ(page.at("entries").size(), document.at("nvbandwidth").at("testcases").size());
  for (const char* fact :
       {"v0.8", "3f6a841", "13.0 (13000)", "580.159.04", "0: NVIDIA H200 (00000000:00:06): (vm)",
        "Intel(R) Xeon(R) Processor", "PCIe Gen5 x16", "SUM host_to_device_memcpy_ce 110.80 GB/s"})
    EXPECT_TRUE(contains(page, fact)) << fact;
  // numa_node is null in the environment: shown as unknown, not as 0 or left blank.
  EXPECT_EQ(classCount(page, "unknown"), 4);
  EXPECT_EQ(classCount(page, "environment-start"), 1);
  EXPECT_EQ(classCount(page, "environment-end"), 1);
}

json fakeRun(int gpus, const char* links) {
  nvbw::test::RunSpec spec(NVBW_FAKE_BINARY, {"-j", "-v"});
  spec.env = {{"NVBW_FAKE_GPUS", std::to_string(gpus)}};
  if (links)
    spec.env.emplace_back("NVBW_FAKE_LINKS", links);
  else
    spec.unsetEnv.push_back("NVBW_FAKE_LINKS");
  spec.killAfter = std::chrono::seconds(60);
  const nvbw::test::RunResult run = nvbw::test::runProgram(spec);
  EXPECT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  return json::parse(run.out);
}

// Eight GPUs behind NVSwitch: peaks known, so cells are coloured by percent, and the fake's
// slow links give outliers, which must be framed and listed.
TEST(HtmlReport, FakeEightGpuNvswitchReportFlagsOutliers) {
  const json document = fakeRun(8, "nvswitch");
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  std::size_t outliers = 0, percents = 0;
  for (const json& heatmap : page.at("heatmaps"))
    for (const json& cell : heatmap.at("cells"))
      outliers += cell.at("outlier") == "true", percents += !cell.at("percent").is_null();
  EXPECT_GT(outliers, 0u);
  EXPECT_GT(percents, 0u);
  EXPECT_GT(classCount(page, "outliers"), 0);
  EXPECT_TRUE(contains(page, "outlier(s), framed in red"));
}

// Without link facts no cell has a peak: every heatmap says it is coloured by value.
TEST(HtmlReport, FakeReportWithoutLinksColoursByValue) {
  const json document = fakeRun(3, nullptr);
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  for (const json& heatmap : page.at("heatmaps"))
    for (const json& cell : heatmap.at("cells")) EXPECT_TRUE(cell.at("percent").is_null());
  EXPECT_TRUE(contains(page, "value relative to this matrix's range"));
  EXPECT_FALSE(contains(page, "percent of the theoretical peak"));
}

// A run that fails every way the page marks: UNSTABLE cells (noisy copies), SLOWER ones, BELOW
// cells of --expect, and host cells above their peak (the fake's host copies unscaled). Every
// failing cell of the document is marked failing on its heatmap and no other is; the impossible
// cells are framed; the expectations have a section.
TEST(HtmlReport, FailingCellsAreMarkedUnstableAndBelowIncluded) {
  const nvbw::test::TempFile base("html_fail_base", fakeRun(2, nullptr).dump());
  const nvbw::test::TempFile floors("html_floors", "host_to_device_memcpy_ce 500\n");
  nvbw::test::RunSpec spec(NVBW_FAKE_BINARY, {"-j", "-t", "0", "4", "32", "--baseline", base.path(),
                                              "--confirm", "0", "--expect", floors.path()});
  spec.env = {{"NVBW_FAKE_GPUS", "2"},
              {"NVBW_FAKE_NOISE", "20"},
              {"NVBW_FAKE_LINKS", "direct"},
              {"NVBW_FAKE_HOST_SCALE", "100"}};
  const nvbw::test::RunResult run = nvbw::test::runProgram(spec);
  ASSERT_EQ(run.exitCode, 3) << nvbw::test::describe(run);
  const json document = json::parse(run.out);
  const json& doc = document.at("nvbandwidth");
  std::set<std::string> failing, above;
  std::size_t unstable = 0;
  for (const json& c : doc.at("comparison").at("cells")) {
    const std::string where =
        c.at("name").get<std::string>() + c.at("row").dump() + c.at("col").dump();
    if (c.at("verdict") == "SLOWER" || c.at("verdict") == "UNSTABLE") failing.insert(where);
    unstable += c.at("verdict") == "UNSTABLE";
  }
  for (const json& b : doc.at("expectations").at(0).at("below"))
    failing.insert(b.at("name").get<std::string>() + b.at("row").dump() + b.at("col").dump());
  for (const json& e : doc.at("testcases"))
    if (e.contains("above_peak"))
      for (const json& a : e.at("above_peak"))
        above.insert(e.at("name").get<std::string>() + a.at("row").dump() + a.at("col").dump());
  ASSERT_GT(unstable, 0u) << run.out;
  ASSERT_FALSE(above.empty());
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  std::set<std::string> markedFailing, markedAbove;
  for (const json& heatmap : page.at("heatmaps"))
    for (const json& cell : heatmap.at("cells")) {
      const std::string where = heatmap.at("name").get<std::string>() +
                                cell.at("row").get<std::string>() +
                                cell.at("col").get<std::string>();
      if (cell.at("failing") == "true") markedFailing.insert(where);
      if (cell.at("above_peak") == "true") markedAbove.insert(where);
      if (cell.at("verdict") == "UNSTABLE") {
        EXPECT_NE(cell.at("title").get<std::string>().find("unstable above"), std::string::npos);
      }
    }
  EXPECT_EQ(markedFailing, failing);
  EXPECT_EQ(markedAbove, above);
  EXPECT_EQ(classCount(page, "below-marker"), 2);
  EXPECT_EQ(classCount(page, "above-peak-marker"), static_cast<int>(above.size()));
  EXPECT_GT(classCount(page, "verdict-UNSTABLE"), 0);
  EXPECT_EQ(classCount(page, "expectations"), 1);
  EXPECT_TRUE(contains(page, "FAILED: 2 cells: 0 met, 2 BELOW; 0 unmet."));
  // The check's list holds its text view's lines (the summary line above it): each BELOW cell's.
  std::vector<std::string> lines = nvbw::expectationLines(
      nvbw::readReportText(run.out, nvbw::ReadOptions{nvbw::ReportKind::Run}).expectations->at(0));
  lines.pop_back();
  EXPECT_EQ(page.at("lists").at("expectation-check"), json(lines));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("BELOW host_to_device_memcpy_ce [0][0]: ", 0), 0u) << lines[0];
  EXPECT_TRUE(contains(page, "UNSTABLE"));
  EXPECT_TRUE(contains(page, "above 100% of their link's theoretical peak"));
}

TEST(HtmlReport, UpstreamReportWithStringMatricesOnly) {
  const json page =
      renderAndCheck(readJson(std::string(NVBW_GOLDEN_DIR) + "/upstream/default.json"));
  ASSERT_FALSE(page.is_null());
  EXPECT_GT(page.at("heatmaps").size(), 0u);
}

TEST(HtmlReport, RunThatCouldNotStart) {
  const json page =
      renderAndCheck(readJson(std::string(NVBW_GOLDEN_DIR) + "/json_startup_failed.json"));
  ASSERT_FALSE(page.is_null());
  EXPECT_EQ(classCount(page, "run-error"), 1);
  EXPECT_TRUE(page.at("heatmaps").empty());
}

TEST(HtmlReport, NamesTheReleaseThatWroteTheReport) {
  const std::string golden = std::string(NVBW_GOLDEN_DIR) + "/json_startup_failed.json";
  json report = readJson(golden);
  EXPECT_NE(renderHtmlReport(report).find("<th>Release</th><td>1.2.3</td>"), std::string::npos);
  report.at("nvbandwidth").erase("release");
  EXPECT_EQ(renderHtmlReport(report).find("<th>Release</th>"), std::string::npos);
}

// ---- the features fixture: comparison, sweep, every entry kind ----------------------------

class HtmlFeatures : public ::testing::Test {
 protected:
  void SetUp() override {
    document = readJson(kFeatures);
    page = renderAndCheck(document);
    ASSERT_FALSE(page.is_null());
  }
  const json& run() const { return document.at("nvbandwidth"); }
  const json& heatmap(const std::string& name, std::size_t nth = 0) const {
    for (const json& h : page.at("heatmaps"))
      if (h.at("name") == name && nth-- == 0) return h;
    throw std::runtime_error("no heatmap " + name);
  }
  json document, page;
};

TEST_F(HtmlFeatures, ComparisonSummaryChangedCellsAndOneSidedLists) {
  EXPECT_EQ(classCount(page, "comparison"), 1);
  // The summary line of --compare's text view; this older report counts no NOISY or UNSTABLE.
  EXPECT_TRUE(contains(page, "Comparison: 9 cells: 6 SAME, 2 SLOWER, 1 FASTER, unknown NOISY, "
                             "unknown UNSTABLE; 2 only in baseline, 1 only in current."));
  EXPECT_EQ(page.at("verdict_rows"), json({"SLOWER", "FASTER", "SLOWER"}));
  EXPECT_TRUE(contains(page, "+5.95%"));  // a change as the text view writes it, signed
  EXPECT_EQ(page.at("lists").at("only-in-baseline"), run().at("comparison").at("only_in_baseline"));
  EXPECT_EQ(page.at("lists").at("only-in-current"), run().at("comparison").at("only_in_current"));
  EXPECT_EQ(page.at("lists").at("comparison-notes"), run().at("comparison").at("notes"));
}

// Every compared cell carries its verdict, and its change is in the tooltip; no other cell has
// one. (Both sizes of the swept testcase share the matrix key, so both carry it.)
TEST_F(HtmlFeatures, HeatmapCellsCarryTheirVerdicts) {
  std::size_t marked = 0;
  for (const json& h : page.at("heatmaps")) {
    for (const json& cell : h.at("cells")) {
      const json* compared = nullptr;
      for (const json& c : run().at("comparison").at("cells"))
        if (c.at("name") == h.at("name") &&
            std::to_string(c.at("row").get<int>()) == cell.at("row") &&
            std::to_string(c.at("col").get<int>()) == cell.at("col"))
          compared = &c;
      if (!compared) {
        EXPECT_TRUE(cell.at("verdict").is_null());
        continue;
      }
      ++marked;
      EXPECT_EQ(cell.at("verdict"), compared->at("verdict"));
      EXPECT_NE(cell.at("title").get<std::string>().find(
                    nvbw::fixed(compared->at("change_percent").get<double>()) + "%"),
                std::string::npos)
          << cell.at("title");
    }
  }
  EXPECT_EQ(marked, 3u + 3u + 2u);  // three cells in each read_ce entry, two latency cells
}

TEST_F(HtmlFeatures, OneSweepChartPerSeries) {
  const json& series = run().at("sweep").at("series");
  ASSERT_EQ(page.at("sweeps").size(), series.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    const json& chart = page.at("sweeps").at(i);
    EXPECT_EQ(chart.at("name"), series[i].at("name"));
    const json& size90 = series[i].at("size_reaching_90_percent_MiB");
    EXPECT_EQ(chart.at("size90"), size90.is_null() ? "" : std::to_string(size90.get<int>()));
    std::size_t present = 0;
    for (const json& sum : series[i].at("sums")) present += sum.is_number();
    EXPECT_EQ(chart.at("points").get<std::size_t>(), present);
  }
  EXPECT_EQ(classCount(page, "ninety-percent"), 2);
  EXPECT_TRUE(contains(page, "90% at 64 MiB"));
}

TEST_F(HtmlFeatures, EveryEntryKindIsShown) {
  const json& entries = page.at("entries");
  ASSERT_EQ(entries.size(), run().at("testcases").size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& entry = run().at("testcases").at(i);
    EXPECT_EQ(entries[i].at("name"), entry.at("name"));
    EXPECT_EQ(entries[i].at("status"), entry.at("status"));
    const std::string text = entries[i].at("text").get<std::string>();
    if (entry.contains("waive_reason")) {
      EXPECT_NE(text.find("Waived: " + entry.at("waive_reason").get<std::string>()),
                std::string::npos);
    }
    if (entry.contains("error")) {
      EXPECT_NE(text.find("ERROR: " + entry.at("error").get<std::string>()), std::string::npos);
    }
    if (entry.contains("bufferSize_MiB")) {
      EXPECT_NE(
          text.find("buffer " + std::to_string(entry.at("bufferSize_MiB").get<int>()) + " MiB"),
          std::string::npos);
    }
  }
  EXPECT_NE(entries[6].at("text").get<std::string>().find("Passed without a matrix"),
            std::string::npos);
  EXPECT_NE(entries[7].at("text").get<std::string>().find("Still running"), std::string::npos);
  EXPECT_EQ(heatmap("multinode_bisect_write_ce").at("row_labels"), json({"0->1", "1->2", "2<&>0"}));
}

// Latency: the lowest value gets the palette's best colour; bandwidth: the highest.
TEST_F(HtmlFeatures, ValueScaleRunsFromWorstToBest) {
  auto fillOf = [](const json& h, const std::string& value) {
    for (const json& cell : h.at("cells"))
      if (!cell.at("value").get<std::string>().empty() &&
          std::stod(cell.at("value").get<std::string>()) == std::stod(value))
        return cell.at("fill").get<std::string>();
    return std::string("none");
  };
  const json& latency = heatmap("device_to_device_latency_sm");
  EXPECT_EQ(fillOf(latency, "820"), "#fde725");
  EXPECT_EQ(fillOf(latency, "900.5"), "#440154");
  const json& bandwidth = heatmap("device_to_device_memcpy_read_ce", 1);  // 1 MiB: no peaks
  EXPECT_EQ(fillOf(bandwidth, "41.5"), "#fde725");
  EXPECT_EQ(fillOf(bandwidth, "39"), "#440154");
  EXPECT_TRUE(contains(page, "(latency: lower is better)"));
  // N/A cells are hatched, not coloured.
  for (const json& cell : latency.at("cells")) {
    if (cell.at("value") != "") continue;
    EXPECT_EQ(cell.at("fill").get<std::string>().rfind("url(#na-", 0), 0u);
  }
}

TEST_F(HtmlFeatures, EnvironmentShowsNullsAsUnknown) {
  EXPECT_TRUE(contains(page, "Host CPU: Fake CPU <model> & co; NUMA nodes: unknown"));
  EXPECT_TRUE(contains(page, "PCIe Gen5 x8 (max PCIe Gen5 x16)"));
  // GPU 2 has no PCIe link and no NUMA node; no GPU has a MIG mode. (The SM clock's null is
  // half of "unknown / 1980".)
  EXPECT_EQ(classCount(page, "unknown"), 2 + 3);
  EXPECT_TRUE(contains(page, "unknown / 1980"));
}

// ---- escaping -------------------------------------------------------------------------------

TEST(HtmlReport, EscapesEveryStringFromTheDocument) {
  json document = readJson(std::string(NVBW_GOLDEN_DIR) + "/json_verbose.json");
  json& run = document.at("nvbandwidth");
  run["GPU Device list"][0] = "0: NVIDIA <b>&amp; \"H200\" 'x' (00000000:19:00): (host)";
  run["warnings"] = {"NOTE: <b>&", "bad bytes \x01 \xff end"};
  run["warning"] = "bad bytes \x01 \xff end";
  run["testcases"].push_back({{"name", "<script>alert(1)</script>"},
                              {"status", "ERROR"},
                              {"error", "Testcase <script>alert(1)</script> not found!"}});
  const std::string html = renderHtmlReport(document);
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;&amp;amp; &quot;H200&quot; &#39;x&#39;"), std::string::npos);
  // Read back, the text is the document's again: nothing lost, nothing doubled.
  EXPECT_TRUE(contains(page, "0: NVIDIA <b>&amp; \"H200\" 'x' (00000000:19:00): (host)"));
  EXPECT_TRUE(contains(page, "NOTE: <b>&"));
  EXPECT_TRUE(contains(page, "ERROR: Testcase <script>alert(1)</script> not found!"));
  // Bytes XML cannot carry become U+FFFD instead of breaking the page.
  EXPECT_TRUE(contains(page, "bad bytes \xEF\xBF\xBD \xEF\xBF\xBD end"));
}

// A string the run puts into its report that is not UTF-8 (here the name of its --expect file)
// does not cost it its page.
TEST(HtmlReport, ARunWhoseExpectFileNameIsNotUtf8WritesItsPage) {
  const nvbw::test::TempFile floors("floors_\xff", "host_to_device_memcpy_ce 1\n");
  const nvbw::test::TempFile page("html_page");
  nvbw::test::RunSpec spec(NVBW_FAKE_BINARY,
                           {"-t", "0", "--expect", floors.path(), "--html", page.path()});
  spec.env = {{"NVBW_FAKE_GPUS", "2"}};
  spec.killAfter = std::chrono::seconds(60);
  const nvbw::test::RunResult run = nvbw::test::runProgram(spec);
  ASSERT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  const json read = readPage(page.read());
  ASSERT_FALSE(read.is_null());
  EXPECT_TRUE(contains(read, "PASSED: 2 cells: 2 met, 0 BELOW; 0 unmet."));
}

// The style sheet goes into <style> unescaped (HTML reads it as raw text): it must need none.
TEST(HtmlReport, StyleSheetNeedsNoEscaping) {
  const std::string html =
      renderHtmlReport(readJson(std::string(NVBW_GOLDEN_DIR) + "/json_one_gpu.json"));
  const std::size_t start = html.find("<style>"), end = html.find("</style>");
  ASSERT_NE(start, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  const std::string css = html.substr(start + 7, end - start - 7);
  EXPECT_EQ(css.find_first_of("<>&\"'"), std::string::npos) << css;
}

// ---- other documents ------------------------------------------------------------------------

TEST(HtmlReport, ComparisonOfTwoSavedReports) {
  const json features = readJson(kFeatures);
  const json document = {{"nvbandwidth",
                          {{"version", "v0.8"},
                           {"git_version", "abc"},
                           {"comparison", features.at("nvbandwidth").at("comparison")}}}};
  const json page = renderAndCheck(document);
  ASSERT_FALSE(page.is_null());
  EXPECT_EQ(classCount(page, "comparison"), 1);
  EXPECT_EQ(classCount(page, "testcases"), 0);
  EXPECT_EQ(page.at("verdict_rows").size(), 3u);
}

TEST(HtmlReport, RejectsDocumentsThatAreNotReports) {
  EXPECT_THROW(renderHtmlReport(readJson(std::string(NVBW_GOLDEN_DIR) + "/listing.json")),
               std::runtime_error);
  EXPECT_THROW(renderHtmlReport(json::array()), std::runtime_error);
  EXPECT_THROW(renderHtmlReport({{"nvbandwidth", {{"version", "v0.8"}}}}), std::runtime_error);
  const json badMatrix = {
      {"nvbandwidth",
       {{"testcases", {{{"name", "x"}, {"status", "Passed"}, {"values", "fast"}}}}}}};
  EXPECT_THROW(renderHtmlReport(badMatrix), std::runtime_error);
  const json badCell = {
      {"nvbandwidth",
       {{"testcases", {{{"name", "x"}, {"status", "Passed"}, {"bandwidth_matrix", {{1.5}}}}}}}}};
  EXPECT_THROW(renderHtmlReport(badCell), std::runtime_error);
}

}  // namespace test_html_report
