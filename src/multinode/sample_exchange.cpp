#include "multinode/sample_exchange.h"

#include <algorithm>
#include <stdexcept>

#include "model/json.h"
#include "model/report_writer.h"

namespace nvbw {

std::string samplesContribution(const Measurement& m, const MeasurementSamples& samples, int rank) {
  Json mine = Json::object();
  for (std::size_t i = 0; i < m.copies.size(); ++i)
    if (m.copies[i].execProcess == rank) mine[std::to_string(i)] = samples.copies.at(i);
  return compactJson(mine);
}

void mergeSamples(const std::vector<std::string>& contributions, MeasurementSamples& samples) {
  for (const std::string& text : contributions) {
    const Json contribution = parseJson(text, kMessageDepth);
    if (!contribution.is_object()) throw std::runtime_error("a rank's samples are not an object");
    for (const auto& [index, values] : contribution.items()) {
      if (!values.is_array()) throw std::runtime_error("a rank's samples of a copy are no list");
      if (!std::all_of(values.begin(), values.end(), [](const Json& v) { return v.is_number(); }))
        throw std::runtime_error("a rank's sample is not a number");
      samples.copies.at(std::stoul(index)) = values.get<std::vector<double>>();
    }
  }
}

}  // namespace nvbw
