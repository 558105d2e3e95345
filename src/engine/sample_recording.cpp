#include "engine/sample_recording.h"

#include <stdexcept>

namespace nvbw {

std::string endpointName(const BufferSpec& b) {
  if (b.kind == MemoryKind::Host) return "Host";
  if (b.sharing != Sharing::Private) return "Multinode node " + std::to_string(b.process);
  return "Device " + std::to_string(b.device);
}

std::string copyLabel(const CopySpec& c) {
  return endpointName(c.src) + " -> " + endpointName(c.dst);
}

namespace {

// "Device 0 reading Host"
std::string latencyLabel(const LatencySpec& l) {
  return "Device " + std::to_string(l.chaseDevice) + " reading " + endpointName(l.target);
}

std::vector<double> perSampleSums(const std::vector<std::vector<double>>& copies) {
  std::vector<double> sums;
  for (const std::vector<double>& copy : copies) {
    if (sums.empty()) sums.assign(copy.size(), 0.0);
    if (copy.size() != sums.size())
      throw std::logic_error("copies of one measurement have different sample counts");
    for (std::size_t k = 0; k < copy.size(); ++k) sums[k] += copy[k];
  }
  return sums;
}

std::vector<double> samplesFor(const OutputTarget& t, const MeasurementSamples& s) {
  switch (t.source) {
  case ValueSource::Copy:
    return s.copies.at(t.copyIndex);
  case ValueSource::Total:
    return s.total;
  case ValueSource::SumOfCopies:
    return perSampleSums(s.copies);
  }
  return {};
}

}  // namespace

MeasurementRecord recordMeasurement(const Measurement& m, const MeasurementSamples& samples,
                                    Statistic stat, std::vector<MatrixResult>& matrices) {
  for (const OutputTarget& t : m.outputs)
    matrices.at(t.matrix).at(t.row, t.col) = CellResult(samplesFor(t, samples), stat);

  MeasurementRecord record;
  if (m.latency) {
    record.series.push_back({latencyLabel(*m.latency), Unit::Nanoseconds, samples.copies.at(0)});
    return record;
  }
  for (std::size_t i = 0; i < m.copies.size(); ++i)
    if (isReportedCopy(m, i))
      record.series.push_back({copyLabel(m.copies[i]), Unit::GBps, samples.copies.at(i)});
  if (!samples.total.empty())
    record.series.push_back({"Total Bandwidth ", Unit::GBps, samples.total});
  return record;
}

}  // namespace nvbw
