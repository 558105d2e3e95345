// The keys of the report documents that more than one place spells: the record tables
// (record_fields.cpp) and the reader's checks, the writer's grids, the views that show members as
// they are named. A key that one table or writer alone spells is spelled there. Upstream v0.8's
// keys (docs/compatibility.md#u6) are spelled exactly as upstream spells them, spaces and all.
#pragma once

namespace nvbw::keys {

// The document: {"nvbandwidth": {...}}.
inline constexpr const char* kRoot = "nvbandwidth";

// The run object (upstream's keys first).
inline constexpr const char* kCudaRuntimeVersion = "CUDA Runtime Version";
inline constexpr const char* kDriverVersion = "Driver Version";
inline constexpr const char* kGpuDeviceList = "GPU Device list";
inline constexpr const char* kTestcases = "testcases";
inline constexpr const char* kError = "error";
inline constexpr const char* kCudaDriverVersion = "CUDA Driver Version";
inline constexpr const char* kSchemaVersion = "schema_version";
inline constexpr const char* kInterrupted = "interrupted";
inline constexpr const char* kMpiVersion = "MPI version";
inline constexpr const char* kProcesses = "processes";
inline constexpr const char* kMemorySharing = "memory_sharing";
inline constexpr const char* kComparison = "comparison";
inline constexpr const char* kHostname = "hostname";
inline constexpr const char* kLogicalGpus = "logical_gpus";
inline constexpr const char* kExpectations = "expectations";
inline constexpr const char* kConfirmations = "confirmations";

// A testcase entry (upstream's keys first).
inline constexpr const char* kName = "name";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kBandwidthMatrix = "bandwidth_matrix";
inline constexpr const char* kSum = "sum";
inline constexpr const char* kMin = "min";
inline constexpr const char* kMax = "max";
inline constexpr const char* kValues = "values";
inline constexpr const char* kCells = "cells";
inline constexpr const char* kUnit = "unit";
inline constexpr const char* kTestcase = "testcase";
inline constexpr const char* kLinks = "links";
inline constexpr const char* kPeakGBps = "peak_GBps";
inline constexpr const char* kPercentOfPeak = "percent_of_peak";
inline constexpr const char* kLinkPeaks = "link_peaks";
inline constexpr const char* kOutliers = "outliers";
inline constexpr const char* kAbovePeak = "above_peak";
inline constexpr const char* kRounds = "rounds";

// A cell's statistics.
inline constexpr const char* kSamples = "samples";
inline constexpr const char* kMean = "mean";
inline constexpr const char* kMedian = "median";
inline constexpr const char* kStddev = "stddev";
inline constexpr const char* kCv = "cv";

// Keys of several sections (the comparison, expectations, the fleet summary).
inline constexpr const char* kRow = "row";
inline constexpr const char* kCol = "col";
inline constexpr const char* kNotes = "notes";
inline constexpr const char* kRule = "rule";
inline constexpr const char* kSlower = "slower";
inline constexpr const char* kUnstable = "unstable";
inline constexpr const char* kBelow = "below";
inline constexpr const char* kSummary = "summary";
inline constexpr const char* kReason = "reason";
inline constexpr const char* kFile = "file";

// A process of a multi-process run.
inline constexpr const char* kRank = "rank";
inline constexpr const char* kHost = "host";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kPci = "pci";
inline constexpr const char* kUuid = "uuid";

// The peaks of an entry's cells.
inline constexpr const char* kCell = "cell";
inline constexpr const char* kLink = "link";
inline constexpr const char* kBelowMedianPercent = "below_median_percent";
inline constexpr const char* kClassMedian = "class_median";

}  // namespace nvbw::keys
