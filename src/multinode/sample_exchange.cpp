#include "multinode/sample_exchange.h"

#include <stdexcept>

#include "model/report_reader.h"
#include "model/report_writer.h"
#include "model/value.h"

namespace nvbw {

std::string samplesContribution(const Measurement& m, const MeasurementSamples& samples, int rank) {
  Value mine = Value::object();
  for (std::size_t i = 0; i < m.copies.size(); ++i) {
    if (m.copies[i].execProcess != rank) continue;
    Value values = Value::array();
    for (double v : samples.copies.at(i)) values.push(v);
    mine.set(std::to_string(i), std::move(values));
  }
  return compactJson(mine);
}

void mergeSamples(const std::vector<std::string>& contributions, MeasurementSamples& samples) {
  for (const std::string& text : contributions) {
    const Value contribution = parseJson(text);
    if (!contribution.isObject()) throw std::runtime_error("a rank's samples are not an object");
    for (const auto& [index, values] : contribution.members()) {
      if (!values.isArray()) throw std::runtime_error("a rank's samples of a copy are no list");
      std::vector<double> copy;
      copy.reserve(values.items().size());
      for (const Value& v : values.items()) {
        if (!v.isNumber()) throw std::runtime_error("a rank's sample is not a number");
        copy.push_back(v.asDouble());
      }
      samples.copies.at(std::stoul(index)) = std::move(copy);
    }
  }
}

}  // namespace nvbw
