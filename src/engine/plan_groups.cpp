#include "engine/plan_groups.h"

#include <optional>
#include <stdexcept>

namespace nvbw::engine {

PlanResult runGroups(const Plan& plan, const GroupSteps& steps, Statistic statistic,
                     unsigned samples, const ProgressSink& progress, OperationCounts& counts) {
  PlanResult result{std::vector<MatrixResult>(plan.matrices.begin(), plan.matrices.end()), {}};
  const std::vector<std::vector<std::size_t>> groups = measurementGroups(plan);
  std::vector<std::optional<MeasurementRecord>> records(plan.measurements.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    auto afterSample = [&](unsigned sample) {
      if (progress) {
        ProgressEvent e;
        e.measurement = g;
        e.measurements = groups.size();
        e.sample = sample;
        e.samples = samples;
        progress(e);
      }
      if (steps.checkStop) steps.checkStop();
    };
    std::vector<MeasurementSamples> measured = steps.measure(groups[g], afterSample);
    if (measured.size() != groups[g].size())
      throw std::logic_error("a group's measurement returned samples of another size");
    ++counts.rounds;
    for (std::size_t k = 0; k < groups[g].size(); ++k) {
      const std::size_t i = groups[g][k];
      const Measurement& m = plan.measurements.at(i);
      if (steps.combine) steps.combine(m, measured[k]);
      records[i] = recordMeasurement(m, measured[k], statistic, result.matrices);
      ++counts.measurements;
    }
  }
  for (std::optional<MeasurementRecord>& r : records)
    if (r) result.measurements.push_back(std::move(*r));
  return result;
}

}  // namespace nvbw::engine
