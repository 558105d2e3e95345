// The keys of the JSON documents the tool writes and reads, defined once: the report model's
// reader and writer (model/) spell them from here, so a key can never be written one way and read
// another; no other part of the program meets a key. Upstream v0.8's keys
// (docs/compatibility.md#u6) are spelled exactly as upstream spells them, spaces and all.
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
inline constexpr const char* kLogicalGpus = "logical_gpus";
inline constexpr const char* kConfidentialComputing = "confidential_computing";
inline constexpr const char* kDifferentMachines = "different_machines";
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
inline constexpr const char* kInterface = "interface";
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
// The comparison of reports written before the band came from the healthy side alone.
inline constexpr const char* kRunToRunFloorPercent = "run_to_run_floor_percent";
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

// The settings object (kBufferSizeMiB and kStatistic as above).
inline constexpr const char* kTestSamples = "testSamples";
inline constexpr const char* kLoopCount = "loopCount";
inline constexpr const char* kVerify = "verify";
inline constexpr const char* kCpuAffinity = "cpuAffinity";
inline constexpr const char* kUseHugePages = "useHugePages";
inline constexpr const char* kTargetNumPairs = "targetNumPairs";
inline constexpr const char* kPair = "pair";
inline constexpr const char* kSweepMiB = "sweep_MiB";

// The timing and memory objects.
inline constexpr const char* kWallSeconds = "wall_seconds";
inline constexpr const char* kReleaseSeconds = "release_seconds";
inline constexpr const char* kAllocationSeconds = "allocation_seconds";
inline constexpr const char* kFillSeconds = "fill_seconds";
inline constexpr const char* kEnqueueSeconds = "enqueue_seconds";
inline constexpr const char* kWaitSeconds = "wait_seconds";
inline constexpr const char* kVerificationSeconds = "verification_seconds";
inline constexpr const char* kLatencySeconds = "latency_seconds";
inline constexpr const char* kTimedCopiesSeconds = "timed_copies_seconds";
inline constexpr const char* kHostBytesAllocated = "host_bytes_allocated";
inline constexpr const char* kDeviceBytesAllocated = "device_bytes_allocated";
inline constexpr const char* kPeakHostBytes = "peak_host_bytes";
inline constexpr const char* kPeakDeviceBytes = "peak_device_bytes";
inline constexpr const char* kHostAllocations = "host_allocations";
inline constexpr const char* kDeviceAllocations = "device_allocations";

// "operations": what the run did to measure (kRounds, kSamples as above).
inline constexpr const char* kMeasurements = "measurements";
inline constexpr const char* kCopies = "copies";
inline constexpr const char* kCopyBytes = "copy_bytes";
inline constexpr const char* kLongestCopyBytes = "longest_copy_bytes";
inline constexpr const char* kChases = "chases";
inline constexpr const char* kFills = "fills";
inline constexpr const char* kTailFills = "tail_fills";
inline constexpr const char* kChecks = "checks";
inline constexpr const char* kCount = "count";
inline constexpr const char* kHostBytes = "host_bytes";
inline constexpr const char* kDeviceBytes = "device_bytes";

// A process of a multi-process run (kName as above: its GPU's).
inline constexpr const char* kRank = "rank";
inline constexpr const char* kHost = "host";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kPci = "pci";
inline constexpr const char* kUuid = "uuid";

// An environment snapshot (kHost, kDevice, kCurrent and kMax as above).
inline constexpr const char* kCpuModel = "cpu_model";
inline constexpr const char* kNumaNodes = "numa_nodes";
inline constexpr const char* kNvmlProblem = "nvml_problem";
inline constexpr const char* kGpus = "gpus";
inline constexpr const char* kSmClockMhz = "sm_clock_mhz";
inline constexpr const char* kSmClockMaxMhz = "sm_clock_max_mhz";
inline constexpr const char* kMemoryClockMhz = "memory_clock_mhz";
inline constexpr const char* kMemoryClockMaxMhz = "memory_clock_max_mhz";
inline constexpr const char* kClocksLocked = "clocks_locked";
inline constexpr const char* kPowerLimitW = "power_limit_w";
inline constexpr const char* kPowerDrawW = "power_draw_w";
inline constexpr const char* kTemperatureC = "temperature_c";
inline constexpr const char* kEccEnabled = "ecc_enabled";
inline constexpr const char* kPersistenceMode = "persistence_mode";
inline constexpr const char* kMigEnabled = "mig_enabled";
inline constexpr const char* kComputeMode = "compute_mode";
inline constexpr const char* kThrottleSeconds = "throttle_seconds";
inline constexpr const char* kPcie = "pcie";
inline constexpr const char* kNumaNode = "numa_node";
inline constexpr const char* kHostBufferCpus = "host_buffer_cpus";
inline constexpr const char* kCurrentGts = "current_gts";
inline constexpr const char* kCurrentWidth = "current_width";
inline constexpr const char* kMaxGts = "max_gts";
inline constexpr const char* kMaxWidth = "max_width";

// The peaks of an entry's cells (kRow, kCol, kPeakGBps, kPercentOfPeak as above).
inline constexpr const char* kCell = "cell";
inline constexpr const char* kLink = "link";
inline constexpr const char* kConvention = "convention";
inline constexpr const char* kBelowMedianPercent = "below_median_percent";
inline constexpr const char* kClassMedian = "class_median";

// An expectation check (kCells, kSummary, kNotes, kName, kTestcase, kUnit, kRow, kCol and the
// percent-of-peak keys as above; kExpectations for the file's lines).
inline constexpr const char* kCheck = "check";
inline constexpr const char* kLabel = "label";
inline constexpr const char* kPassedCheck = "passed";  // whether a check passed
inline constexpr const char* kMet = "met";
inline constexpr const char* kBelow = "below";
inline constexpr const char* kBelowNotListed = "below_not_listed";
inline constexpr const char* kUnmet = "unmet";
inline constexpr const char* kNotJudged = "not_judged";
inline constexpr const char* kMatrices = "matrices";
inline constexpr const char* kLines = "lines";
inline constexpr const char* kLine = "line";
inline constexpr const char* kValue = "value";
inline constexpr const char* kBound = "bound";
inline constexpr const char* kLimit = "limit";
inline constexpr const char* kExpectation = "expectation";
inline constexpr const char* kReason = "reason";
inline constexpr const char* kDetail = "detail";
inline constexpr const char* kFile = "file";
inline constexpr const char* kMinPercentOfPeak = "min_percent_of_peak";

// The fleet summary (--summarize -j; kName, kTestcase, kUnit, kStatus, kSum, kPercentOfPeak,
// kSlower, kUnstable, kBelow, kHost, kFile, kNotes, kReason, kDescription as above).
inline constexpr const char* kMadFactor = "mad_factor";
inline constexpr const char* kMadToSigma = "mad_to_sigma";
inline constexpr const char* kFloorPercent = "floor_percent";
inline constexpr const char* kPriorFactor = "prior_factor";
inline constexpr const char* kMinGroupNodes = "min_group_nodes";
inline constexpr const char* kKey = "key";
inline constexpr const char* kNodes = "nodes";
inline constexpr const char* kJudged = "judged";
inline constexpr const char* kSumMedian = "sum_median";
inline constexpr const char* kSumMad = "sum_mad";
inline constexpr const char* kSumBandPercent = "sum_band_percent";
inline constexpr const char* kWorstMedian = "worst_median";
inline constexpr const char* kWorstMad = "worst_mad";
inline constexpr const char* kWorstBandPercent = "worst_band_percent";
inline constexpr const char* kGpuModel = "gpu_model";
inline constexpr const char* kGpuCount = "gpu_count";
inline constexpr const char* kEntryStatus = "entry_status";
inline constexpr const char* kMessage = "message";
inline constexpr const char* kWorst = "worst";
inline constexpr const char* kWorstCell = "worst_cell";
inline constexpr const char* kWorstRow = "worst_row";
inline constexpr const char* kWorstCol = "worst_col";
inline constexpr const char* kSumPercentOfMedian = "sum_percent_of_median";
inline constexpr const char* kWorstPercentOfMedian = "worst_percent_of_median";
inline constexpr const char* kWorstPercentOfPeak = "worst_percent_of_peak";
inline constexpr const char* kSumFlagged = "sum_flagged";
inline constexpr const char* kWorstFlagged = "worst_flagged";
inline constexpr const char* kReportVerdicts = "report_verdicts";
inline constexpr const char* kHostSource = "host_source";
inline constexpr const char* kGroup = "group";
inline constexpr const char* kGroups = "groups";
inline constexpr const char* kUpstream = "upstream";
inline constexpr const char* kFlagged = "flagged";
inline constexpr const char* kSlow = "slow";
inline constexpr const char* kFailedItsVerdicts = "failed_its_verdicts";
inline constexpr const char* kFailed = "failed";
inline constexpr const char* kWaivedTestcases = "waived";
inline constexpr const char* kMissing = "missing";
inline constexpr const char* kResults = "results";
inline constexpr const char* kCounts = "counts";
inline constexpr const char* kReports = "reports";
inline constexpr const char* kUnreadable = "unreadable";
inline constexpr const char* kExitStatus = "exit_status";

// The listing (-j -l; kName as above).
inline constexpr const char* kIndex = "index";
inline constexpr const char* kDescription = "description";
}  // namespace nvbw::keys
