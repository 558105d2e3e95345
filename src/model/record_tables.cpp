// The tables of the model's small records (record_fields.h): each key once, with its field.
#include "model/matrix_parts.h"
#include "model/record_fields.h"
#include "model/report_keys.h"

namespace nvbw::model {

// ---- An entry's members other than its name, status and grids ----

const std::vector<Field<ReportEntry>>& entryFields() {
  using R = ReportEntry;
  static const std::vector<Field<R>> fields = {
      field(keys::kBandwidthDescription, &R::description),
      field(keys::kStatistic, &R::statistic),
      field(keys::kTestcase, &R::testcase),
      field(keys::kWaiveReason, &R::waiveReason),
      field(keys::kError, &R::error),
      field(keys::kErrorDetail, &R::errorDetail),
      field(keys::kUnit, &R::unitText),
      field(keys::kSum, &R::sum),
      field(keys::kMin, &R::min),
      field(keys::kMax, &R::max),
      field(keys::kAverage, &R::average),
      field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
      field(keys::kConfirmationRun, &R::confirmationRun),
      field(keys::kRowLabels, &R::rowLabels),
      field(keys::kSchedule, &R::schedule),
      field(keys::kRounds, &R::rounds),
      records(keys::kOutliers, &R::outliers, outlierFields),
      records(keys::kLinkPeaks, &R::linkPeaks, linkPeakFields),
      {keys::kAbovePeak,
       [](R& r, const Json& v) {
         r.abovePeak = v;
         return true;
       },
       [](const R& r) -> std::optional<Json> { return r.abovePeak; }}};
  return fields;
}

// ---- The run's records ----

const std::vector<Field<SettingsRecord>>& settingsFields() {
  using R = SettingsRecord;
  static const std::vector<Field<R>> fields = {field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
                                               field(keys::kTestSamples, &R::testSamples),
                                               field(keys::kLoopCount, &R::loopCount),
                                               field(keys::kStatistic, &R::statistic),
                                               field(keys::kVerify, &R::verify),
                                               field(keys::kCpuAffinity, &R::cpuAffinity),
                                               field(keys::kUseHugePages, &R::useHugePages),
                                               field(keys::kTargetNumPairs, &R::targetNumPairs),
                                               field(keys::kPair, &R::pair),
                                               field(keys::kSweepMiB, &R::sweepMiB),
                                               field(keys::kSchedule, &R::schedule),
                                               field(keys::kInterface, &R::interface)};
  return fields;
}

const std::vector<Field<TimingRecord>>& timingFields() {
  using R = TimingRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kWallSeconds, &R::wallSeconds),
      field(keys::kReleaseSeconds, &R::releaseSeconds),
      field(keys::kAllocationSeconds, &R::allocationSeconds),
      field(keys::kFillSeconds, &R::fillSeconds),
      field(keys::kEnqueueSeconds, &R::enqueueSeconds),
      field(keys::kWaitSeconds, &R::waitSeconds),
      field(keys::kVerificationSeconds, &R::verificationSeconds),
      field(keys::kLatencySeconds, &R::latencySeconds),
      field(keys::kTimedCopiesSeconds, &R::timedCopiesSeconds)};
  return fields;
}

const std::vector<Field<MemoryRecord>>& memoryFields() {
  using R = MemoryRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kHostBytesAllocated, &R::hostBytesAllocated),
      field(keys::kDeviceBytesAllocated, &R::deviceBytesAllocated),
      field(keys::kPeakHostBytes, &R::peakHostBytes),
      field(keys::kPeakDeviceBytes, &R::peakDeviceBytes),
      field(keys::kHostAllocations, &R::hostAllocations),
      field(keys::kDeviceAllocations, &R::deviceAllocations)};
  return fields;
}

const std::vector<Field<ProcessRecord>>& processFields() {
  using R = ProcessRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kRank, &R::rank), field(keys::kHost, &R::host), field(keys::kDevice, &R::device),
      field(keys::kName, &R::name), field(keys::kPci, &R::pci),   field(keys::kUuid, &R::uuid)};
  return fields;
}

namespace {

const std::vector<Field<PcieRecord>>& pcieFields() {
  using R = PcieRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kCurrentGts, &R::currentGts), field(keys::kCurrentWidth, &R::currentWidth),
      field(keys::kMaxGts, &R::maxGts),         field(keys::kMaxWidth, &R::maxWidth),
      field(keys::kCurrent, &R::current),       field(keys::kMax, &R::max)};
  return fields;
}

const std::vector<Field<GpuStateRecord>>& gpuStateFields() {
  using R = GpuStateRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kDevice, &R::device),
      nullable(keys::kSmClockMhz, &R::smClockMHz),
      nullable(keys::kSmClockMaxMhz, &R::smClockMaxMHz),
      nullable(keys::kMemoryClockMhz, &R::memoryClockMHz),
      nullable(keys::kMemoryClockMaxMhz, &R::memoryClockMaxMHz),
      nullable(keys::kClocksLocked, &R::clocksLocked),
      nullable(keys::kPowerLimitW, &R::powerLimitW),
      nullable(keys::kPowerDrawW, &R::powerDrawW),
      nullable(keys::kTemperatureC, &R::temperatureC),
      nullable(keys::kEccEnabled, &R::eccEnabled),
      nullable(keys::kPersistenceMode, &R::persistenceMode),
      nullable(keys::kMigEnabled, &R::migEnabled),
      nullable(keys::kComputeMode, &R::computeMode),
      nullable(keys::kThrottleSeconds, &R::throttleSeconds),
      {keys::kPcie,
       [](R& r, const Json& v) {
         if (v.is_null()) return true;
         r.pcie = recordOf(v, pcieFields());
         return r.pcie.has_value();
       },
       [](const R& r) -> std::optional<Json> {
         return r.pcie ? writeRecord(*r.pcie, pcieFields()) : Json();
       }},
      nullable(keys::kNumaNode, &R::numaNode),
      nullable(keys::kHostBufferCpus, &R::hostBufferCpus),
      field(keys::kUuid, &R::uuid)};
  return fields;
}

}  // namespace

const std::vector<Field<EnvironmentRecord>>& environmentFields() {
  using R = EnvironmentRecord;
  static const std::vector<Field<R>> fields = {
      {keys::kHost,
       [](R& r, const Json& v) {
         if (!v.is_object()) return false;
         for (auto [key, into] :
              {std::pair{keys::kCpuModel, &r.cpuModel}, std::pair{keys::kNumaNodes, &r.numaNodes}})
           if (const Json* m = findMember(v, key); m && !m->is_null()) take(*m, *into);
         return true;
       },
       [](const R& r) -> std::optional<Json> {
         Json host = Json::object();
         host[keys::kCpuModel] = give(r.cpuModel);
         host[keys::kNumaNodes] = give(r.numaNodes);
         return host;
       }},
      nullable(keys::kNvmlProblem, &R::nvmlProblem),
      records(keys::kGpus, &R::gpus, gpuStateFields)};
  return fields;
}

// ---- Sections ----

const std::vector<Field<SweepSeriesRecord>>& sweepSeriesFields() {
  using R = SweepSeriesRecord;
  static const std::vector<Field<R>> fields = {
      always(keys::kName, &R::name), field(keys::kTestcase, &R::testcase),
      field(keys::kUnit, &R::unitText), always(keys::kSums, &R::sums),
      nullable(keys::kSizeReaching90, &R::sizeReaching90)};
  return fields;
}

const std::vector<Field<SweepSection>>& sweepFields() {
  using R = SweepSection;
  static const std::vector<Field<R>> fields = {
      always(keys::kSizesMiB, &R::sizesMiB),
      nested<R, std::vector<SweepSeriesRecord>>(
          keys::kSeries, &R::series,
          [](const Json& v) -> std::optional<std::vector<SweepSeriesRecord>> {
            auto series = recordsOf(v, sweepSeriesFields());
            if (series)
              for (SweepSeriesRecord& s : *series) s.unit = unitOfEntry(s.unitText, s.name);
            return series;
          },
          [](const std::vector<SweepSeriesRecord>& s) {
            return writeRecords(s, sweepSeriesFields());
          })};
  return fields;
}

const std::vector<Field<ComparedCellRecord>>& comparedCellFields() {
  using R = ComparedCellRecord;
  static const std::vector<Field<R>> fields = {
      always(keys::kName, &R::name),
      field(keys::kTestcase, &R::testcase),
      field(keys::kUnit, &R::unitText),
      field(keys::kVerdict, &R::verdict),
      field(keys::kBasis, &R::basis),
      field(keys::kRow, &R::row),
      field(keys::kCol, &R::col),
      field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
      field(keys::kBaselineReports, &R::baselineReports),
      field(keys::kBaseline, &R::baseline),
      field(keys::kCurrent, &R::current),
      field(keys::kChangePercent, &R::changePercent),
      field(keys::kBandPercent, &R::bandPercent),
      field(keys::kRunToRunPercent, &R::runToRunPercent),
      field(keys::kHealthySpreadPercent, &R::healthySpreadPercent),
      field(keys::kUnstableLimitPercent, &R::unstableLimitPercent),
      field(keys::kSpreadPercent, &R::spreadPercent),
      field(keys::kSeparationPercent, &R::separationPercent),
      field(keys::kUnstable, &R::unstable),
      field(keys::kSuspect, &R::suspect),
      field(keys::kNoisy, &R::noisy),
      field(keys::kConfirmations, &R::confirmations),
      field(keys::kConfirmationSpreads, &R::confirmationSpreads),
      field(keys::kConfirmedMedian, &R::confirmedMedian),
      field(keys::kConfirmedChangePercent, &R::confirmedChangePercent),
      field(keys::kConfirmedSpreadPercent, &R::confirmedSpreadPercent)};
  return fields;
}

namespace {

const std::vector<Field<ComparisonCounts>>& comparisonCountFields() {
  using R = ComparisonCounts;
  static const std::vector<Field<R>> fields = {field(keys::kCells, &R::cells),
                                               field(keys::kSame, &R::same),
                                               field(keys::kSlower, &R::slower),
                                               field(keys::kFaster, &R::faster),
                                               field(keys::kNoisy, &R::noisy),
                                               field(keys::kUnstable, &R::unstable),
                                               field(keys::kSuspect, &R::suspect),
                                               field(keys::kOnlyInBaseline, &R::onlyInBaseline),
                                               field(keys::kOnlyInCurrent, &R::onlyInCurrent)};
  return fields;
}

const std::vector<Field<SuspectRecord>>& suspectFields() {
  using R = SuspectRecord;
  static const std::vector<Field<R>> fields = {field(keys::kTestcase, &R::testcase),
                                               field(keys::kBufferSizeMiB, &R::bufferSizeMiB)};
  return fields;
}

const std::vector<Field<ConfirmationRecord>>& confirmationFields() {
  using R = ConfirmationRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kRuns, &R::runs), records(keys::kTestcases, &R::testcases, suspectFields),
      field(keys::kSeconds, &R::seconds), field(keys::kUnconfirmed, &R::unconfirmed)};
  return fields;
}

}  // namespace

const std::vector<Field<ComparisonSection>>& comparisonFields() {
  using R = ComparisonSection;
  static const std::vector<Field<R>> fields = {
      field(keys::kRule, &R::rule),
      field(keys::kBand, &R::band),
      field(keys::kBaselineReports, &R::baselineReports),
      field(keys::kTolerancePercent, &R::tolerancePercent),
      field(keys::kRunToRunFloorPercent, &R::runToRunFloorPercent),
      record(keys::kSummary, &R::summary, comparisonCountFields),
      records(keys::kCells, &R::cells, comparedCellFields),
      field(keys::kOnlyInBaseline, &R::onlyInBaseline),
      field(keys::kOnlyInCurrent, &R::onlyInCurrent),
      field(keys::kNotes, &R::notes),
      field(keys::kDifferentMachines, &R::differentMachines),
      record(keys::kConfirmation, &R::confirmation, confirmationFields)};
  return fields;
}

namespace {

const std::vector<Field<ExpectationCounts>>& expectationCountFields() {
  using R = ExpectationCounts;
  static const std::vector<Field<R>> fields = {
      field(keys::kCells, &R::cells), field(keys::kMet, &R::met),
      field(keys::kBelow, &R::below), field(keys::kBelowNotListed, &R::belowNotListed),
      field(keys::kUnmet, &R::unmet), field(keys::kNotJudged, &R::notJudged)};
  return fields;
}

const std::vector<Field<JudgedMatrixRecord>>& judgedMatrixFields() {
  using R = JudgedMatrixRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kName, &R::name),     field(keys::kTestcase, &R::testcase),
      field(keys::kUnit, &R::unitText), field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
      field(keys::kCells, &R::cells),   field(keys::kMet, &R::met),
      field(keys::kBelow, &R::below),   field(keys::kLines, &R::lines)};
  return fields;
}

const std::vector<Field<BelowCellRecord>>& belowCellFields() {
  using R = BelowCellRecord;
  static const std::vector<Field<R>> fields = {field(keys::kName, &R::name),
                                               field(keys::kTestcase, &R::testcase),
                                               field(keys::kUnit, &R::unitText),
                                               field(keys::kBound, &R::bound),
                                               field(keys::kRow, &R::row),
                                               field(keys::kCol, &R::col),
                                               field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
                                               field(keys::kLine, &R::line),
                                               field(keys::kValue, &R::value),
                                               field(keys::kLimit, &R::limit),
                                               field(keys::kPercentOfPeak, &R::percentOfPeak),
                                               field(keys::kPeakGBps, &R::peakGBps),
                                               field(keys::kLink, &R::link)};
  return fields;
}

const std::vector<Field<UnmetRecord>>& unmetFields() {
  using R = UnmetRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kLine, &R::line), field(keys::kExpectation, &R::expectation),
      field(keys::kReason, &R::reason), field(keys::kDetail, &R::detail)};
  return fields;
}

const std::vector<Field<NotJudgedRecord>>& notJudgedFields() {
  using R = NotJudgedRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kName, &R::name), field(keys::kReason, &R::reason),
      field(keys::kBufferSizeMiB, &R::bufferSizeMiB), field(keys::kCells, &R::cells)};
  return fields;
}

const std::vector<Field<ExpectationLineRecord>>& expectationLineFields() {
  using R = ExpectationLineRecord;
  static const std::vector<Field<R>> fields = {
      field(keys::kLine, &R::line),         field(keys::kName, &R::name),
      field(keys::kTestcase, &R::testcase), field(keys::kCells, &R::cells),
      field(keys::kUnit, &R::unitText),     field(keys::kBound, &R::bound),
      field(keys::kLimit, &R::limit)};
  return fields;
}

}  // namespace

const std::vector<Field<ExpectationSection>>& expectationFields() {
  using R = ExpectationSection;
  static const std::vector<Field<R>> fields = {
      field(keys::kCheck, &R::check),
      field(keys::kLabel, &R::label),
      field(keys::kPassedCheck, &R::passed),
      record(keys::kSummary, &R::summary, expectationCountFields),
      records(keys::kMatrices, &R::matrices, judgedMatrixFields),
      records(keys::kBelow, &R::below, belowCellFields),
      records(keys::kUnmet, &R::unmet, unmetFields),
      records(keys::kNotJudged, &R::notJudged, notJudgedFields),
      field(keys::kNotes, &R::notes),
      field(keys::kFile, &R::file),
      records(keys::kExpectations, &R::lines, expectationLineFields),
      field(keys::kMinPercentOfPeak, &R::minPercentOfPeak)};
  return fields;
}

const std::vector<Field<OutlierRecord>>& outlierFields() {
  using R = OutlierRecord;
  static const std::vector<Field<R>> fields = {
      always(keys::kRow, &R::row),
      always(keys::kCol, &R::col),
      field(keys::kCell, &R::cell),
      field(keys::kLink, &R::link),
      field(keys::kBelowMedianPercent, &R::belowMedianPercent),
      field(keys::kClassMedian, &R::classMedian)};
  return fields;
}

const std::vector<Field<LinkPeakRecord>>& linkPeakFields() {
  using R = LinkPeakRecord;
  static const std::vector<Field<R>> fields = {field(keys::kLink, &R::link),
                                               nullable(keys::kPeakGBps, &R::peakGBps),
                                               field(keys::kConvention, &R::convention)};
  return fields;
}

}  // namespace nvbw::model

namespace nvbw {

Json membersOf(const SettingsRecord& r) { return model::writeRecord(r, model::settingsFields()); }
Json membersOf(const TimingRecord& r) { return model::writeRecord(r, model::timingFields()); }
Json membersOf(const MemoryRecord& r) { return model::writeRecord(r, model::memoryFields()); }
Json membersOf(const ProcessRecord& r) { return model::writeRecord(r, model::processFields()); }

}  // namespace nvbw
