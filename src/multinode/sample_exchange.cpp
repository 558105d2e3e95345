#include "multinode/sample_exchange.h"

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
      std::vector<double> copy;
      copy.reserve(values.size());
      for (const Json& v : values) {
        if (!v.is_number()) throw std::runtime_error("a rank's sample is not a number");
        copy.push_back(v.get<double>());
      }
      samples.copies.at(std::stoul(index)) = std::move(copy);
    }
  }
}

}  // namespace nvbw
