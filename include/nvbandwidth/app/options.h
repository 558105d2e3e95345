// Command-line options (upstream v0.8 names, types and defaults) and their parser.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/compat_mode.h"
#include "core/error.h"

namespace nvbw {

struct SettingsRecord;

constexpr std::uint64_t kDefaultBufferSizeMiB = 512;
constexpr std::uint64_t kMiB = 1048576;

struct Options {
  bool help = false;
  bool list = false;
  std::uint64_t bufferSizeMiB = kDefaultBufferSizeMiB;
  std::vector<std::string> testcases;         // -t tokens, in order (names or indices)
  std::vector<std::string> testcasePrefixes;  // -p prefixes
  bool verbose = false;
  bool skipVerification = false;
  bool disableAffinity = false;
  unsigned testSamples = 3;
  bool useMean = false;
  bool json = false;  // -j or --format json
  std::uint64_t loopCount = 16;
  bool perfFormatter = false;
  // v0.9/v0.10 additions.
  bool version = false;
  std::vector<std::string> pair;  // --pair A B: GPU indices or UUIDs
  bool useHugePages = false;
  long long targetNumPairs = -1;         // -P; -1: every pair
  CompatMode compat = CompatMode::V0_8;  // --compat, else NVBANDWIDTH_COMPAT, else v0.8
  // Fleet validation.
  // --compare BASELINE... CURRENT: saved reports (a baseline may be a directory of them).
  std::vector<std::string> compare;
  // --baseline FILE...: compare this run with saved reports (files or directories).
  std::vector<std::string> baseline;
  double tolerancePercent = 5.0;  // --tolerance: cells without samples on both sides
  std::string sweep;              // --sweep MIN:MAX[:FACTOR] as given (sweep.h parses it)
  bool noProgress = false;        // --no-progress
  std::string html;               // --html FILE
  std::string from;               // --from REPORT.json (with --html): render, run nothing
  // Verdicts.
  unsigned confirmRuns = 2;                // --confirm N: suspect testcases measured N more times
  std::string expect;                      // --expect FILE: floors and ceilings
  std::optional<double> minPercentOfPeak;  // --min-percent-of-peak P
  // --expect or --min-percent-of-peak: the report is judged against absolute expectations.
  bool judgesExpectations() const { return !expect.empty() || minPercentOfPeak.has_value(); }
  // Many nodes.
  std::vector<std::string> summarize;  // --summarize REPORT...: saved reports or directories
  std::string metrics;                 // --metrics FILE: the Prometheus text exposition
  std::string output;                  // --output FILE, before %h %r %j are substituted
  // --schedule pairs|rounds|force-rounds as given ("": not given): how pairs are measured.
  std::string schedule;
  // The long names of the options on the command line (not those left at their defaults).
  std::set<std::string> given;
  bool isGiven(const std::string& name) const { return given.count(name) > 0; }

  std::uint64_t bufferBytes() const { return bufferSizeMiB * kMiB; }
};

// What the report records of how the run measures (JSON "settings"), from these options.
SettingsRecord settingsRecord(const Options& o);

// Parses argv[1..]. Throws UsageError on syntax errors (unknown option, missing or malformed
// value, repeated scalar option, stray positional argument). Value checks that only matter when
// running (-b 0, -i 0, --loopCount 0, -t with -p) are done by validateOptions, so that -h and -l
// still work next to them. `compatVariable` is the value of NVBANDWIDTH_COMPAT (nullopt or empty:
// not set); --compat wins over it, and a bad value in either is a usage error.
Options parseOptions(const std::vector<std::string>& args,
                     const std::optional<std::string>& compatVariable = std::nullopt);

// The environment variable that chooses the interface when --compat is not given.
constexpr const char* kCompatVariable = "NVBANDWIDTH_COMPAT";

// Throw UsageError for impossible values, conflicting options and every option the command
// (-l and --version, or the others) cannot honour: docs/options.md lists them.
void validateInformationOptions(const Options& options);
void validateOptions(const Options& options);

// The --help text (without the version block), ending with a newline.
std::string helpText();

// One row of --help, from the same description as the parser's and helpText() (the man page is
// made from these): the option's names, whether it takes a value, the default --help shows and
// its text.
struct HelpEntry {
  std::string shortName;     // "b", or "" when it has none
  std::string longName;      // "bufferSize"
  bool takesValue = false;   // false for a switch
  std::string defaultValue;  // "512", or "" when --help shows none
  std::string description;
};
std::vector<HelpEntry> helpEntries();

}  // namespace nvbw
