// Runs a start-up or collective step and turns its exception into the problem text that the
// ranks then agree on (nullopt: the step succeeded).
#pragma once

#include <exception>
#include <optional>
#include <string>

namespace nvbw::multinode {

template <typename Step> std::optional<std::string> attempt(Step&& step) {
  try {
    step();
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace nvbw::multinode
