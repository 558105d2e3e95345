// The keys of the JSON report, defined once: the writer (report/output_json.cpp) and every reader
// (the comparison, the HTML page, the shape check, metrics, expectations, the fleet summary) spell
// them from here, so a key can never be written one way and read another. Upstream v0.8's keys
// (docs/compatibility.md#u6) are spelled exactly as upstream spells them, spaces and all.
// Here in fleet/, the lowest layer that reads reports, so that report/ (which writes them) and
// every reader below it can use it.
#pragma once

namespace nvbw::keys {

// The document: {"nvbandwidth": {...}}.
inline constexpr const char* kRoot = "nvbandwidth";

// The run object (upstream's keys first).
inline constexpr const char* kVersion = "version";
inline constexpr const char* kGitVersion = "git_version";
inline constexpr const char* kCudaRuntimeVersion = "CUDA Runtime Version";
inline constexpr const char* kDriverVersion = "Driver Version";
inline constexpr const char* kGpuDeviceList = "GPU Device list";
inline constexpr const char* kTestcases = "testcases";
inline constexpr const char* kWarning = "warning";
inline constexpr const char* kError = "error";
inline constexpr const char* kErrorDetail = "error_detail";
inline constexpr const char* kCudaDriverVersion = "CUDA Driver Version";
inline constexpr const char* kSchemaVersion = "schema_version";
// This project's release (semantic versioning) beside upstream's interface version.
inline constexpr const char* kRelease = "release";
inline constexpr const char* kSettings = "settings";
inline constexpr const char* kWarnings = "warnings";
inline constexpr const char* kInterrupted = "interrupted";
inline constexpr const char* kTiming = "timing";
inline constexpr const char* kMemory = "memory";
// What the executor did (counts of rounds, samples, copies, fills and checks).
inline constexpr const char* kOperations = "operations";
inline constexpr const char* kMpiVersion = "MPI version";
inline constexpr const char* kProcesses = "processes";
inline constexpr const char* kMemorySharing = "memory_sharing";
inline constexpr const char* kEnvironment = "environment";
inline constexpr const char* kEnvironmentAtEnd = "environment_at_end";
inline constexpr const char* kSweep = "sweep";
inline constexpr const char* kComparison = "comparison";
inline constexpr const char* kHostname = "hostname";
inline constexpr const char* kStartedAt = "started_at";
inline constexpr const char* kExpectations = "expectations";
inline constexpr const char* kSummary = "summary";
// The confirmation runs of a run with --baseline: report entries of this tool's layout, each
// with its run number (kConfirmationRun).
inline constexpr const char* kConfirmations = "confirmations";

// A testcase entry (upstream's keys first).
inline constexpr const char* kName = "name";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kBandwidthDescription = "bandwidth_description";
inline constexpr const char* kBandwidthMatrix = "bandwidth_matrix";
inline constexpr const char* kSum = "sum";
inline constexpr const char* kMin = "min";
inline constexpr const char* kMax = "max";
inline constexpr const char* kAverage = "average";
inline constexpr const char* kValues = "values";
inline constexpr const char* kCells = "cells";
inline constexpr const char* kUnit = "unit";
inline constexpr const char* kStatistic = "statistic";
inline constexpr const char* kRowLabels = "row_labels";
inline constexpr const char* kTestcase = "testcase";
inline constexpr const char* kBufferSizeMiB = "bufferSize_MiB";
inline constexpr const char* kWaiveReason = "waive_reason";
inline constexpr const char* kLinks = "links";
inline constexpr const char* kPeakGBps = "peak_GBps";
inline constexpr const char* kPercentOfPeak = "percent_of_peak";
inline constexpr const char* kLinkPeaks = "link_peaks";
inline constexpr const char* kOutliers = "outliers";
inline constexpr const char* kAbovePeak = "above_peak";  // cells above 100% of their peak
inline constexpr const char* kConfirmationRun = "confirmation_run";  // a confirmation entry's run
// A pair testcase's schedule ("pair_by_pair" or "rounds"), and its rounds when in rounds; in
// "settings", what --schedule asked for.
inline constexpr const char* kSchedule = "schedule";
inline constexpr const char* kRounds = "rounds";

// The statuses of an entry.
inline constexpr const char* kPassed = "Passed";
inline constexpr const char* kWaived = "Waived";
inline constexpr const char* kErrorStatus = "ERROR";
inline constexpr const char* kRunning = "Running";

// A cell's statistics (kMin and kMax as above).
inline constexpr const char* kSamples = "samples";
inline constexpr const char* kMean = "mean";
inline constexpr const char* kMedian = "median";
inline constexpr const char* kStddev = "stddev";
inline constexpr const char* kCv = "cv";

// The sweep section (kName, kUnit and kTestcase as above).
inline constexpr const char* kSizesMiB = "sizes_MiB";
inline constexpr const char* kSeries = "series";
inline constexpr const char* kSums = "sums";
inline constexpr const char* kSizeReaching90 = "size_reaching_90_percent_MiB";

// The comparison section and its cells (kName, kUnit, kCells, kSummary as above).
inline constexpr const char* kRow = "row";
inline constexpr const char* kCol = "col";
inline constexpr const char* kBaseline = "baseline";
inline constexpr const char* kCurrent = "current";
inline constexpr const char* kChangePercent = "change_percent";
inline constexpr const char* kVerdict = "verdict";
inline constexpr const char* kBasis = "basis";
inline constexpr const char* kBandPercent = "band_percent";
inline constexpr const char* kNoisy = "noisy";
inline constexpr const char* kOnlyInBaseline = "only_in_baseline";
inline constexpr const char* kOnlyInCurrent = "only_in_current";
// Also, at a run report's root: lines for the person running it (text prints them on stderr),
// such as why --schedule rounds measured pair by pair.
inline constexpr const char* kNotes = "notes";
inline constexpr const char* kTolerancePercent = "tolerance_percent";
inline constexpr const char* kRunToRunFloorPercent = "run_to_run_floor_percent";  // before issue 19
inline constexpr const char* kRule = "rule";
inline constexpr const char* kSuspect = "suspect";
inline constexpr const char* kSeparationPercent = "separation_percent";
inline constexpr const char* kConfirmedMedian = "confirmed_median";
inline constexpr const char* kConfirmedChangePercent = "confirmed_change_percent";
inline constexpr const char* kConfirmation = "confirmation";  // how a run confirmed (an object)
inline constexpr const char* kRuns = "runs";
inline constexpr const char* kSeconds = "seconds";
inline constexpr const char* kUnconfirmed = "unconfirmed";
inline constexpr const char* kSame = "same";
inline constexpr const char* kSlower = "slower";
inline constexpr const char* kFaster = "faster";
// Since the band comes from the healthy side alone ("band": "healthy side").
inline constexpr const char* kBand = "band";
inline constexpr const char* kBaselineReports = "baseline_reports";
inline constexpr const char* kUnstable = "unstable";
inline constexpr const char* kRunToRunPercent = "run_to_run_percent";
inline constexpr const char* kHealthySpreadPercent = "healthy_spread_percent";
inline constexpr const char* kUnstableLimitPercent = "unstable_limit_percent";
inline constexpr const char* kSpreadPercent = "spread_percent";
inline constexpr const char* kConfirmationSpreads = "confirmation_spreads";
inline constexpr const char* kConfirmedSpreadPercent = "confirmed_spread_percent";

}  // namespace nvbw::keys
