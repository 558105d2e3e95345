#include "multinode/sample_exchange.h"

#include <nlohmann/json.hpp>

namespace nvbw {

std::string samplesContribution(const Measurement& m, const MeasurementSamples& samples, int rank) {
  nlohmann::json mine = nlohmann::json::object();
  for (std::size_t i = 0; i < m.copies.size(); ++i)
    if (m.copies[i].execProcess == rank) mine[std::to_string(i)] = samples.copies.at(i);
  return mine.dump();
}

void mergeSamples(const std::vector<std::string>& contributions, MeasurementSamples& samples) {
  for (const std::string& text : contributions) {
    // Named: a temporary in a range-for initializer would die before the loop body runs.
    const nlohmann::json contribution = nlohmann::json::parse(text);
    for (const auto& [index, values] : contribution.items())
      samples.copies.at(std::stoul(index)) = values.get<std::vector<double>>();
  }
}

}  // namespace nvbw
