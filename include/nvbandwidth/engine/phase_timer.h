// Adds the wall time of its scope to one field of PhaseTimes (private to the executor).
#pragma once

#include <chrono>

namespace nvbw::engine {

class PhaseTimer {
 public:
  explicit PhaseTimer(double& phase) : phase_(phase), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() { stop(); }
  // Adds the time so far; later calls and the destructor add nothing more.
  void stop() {
    if (stopped_) return;
    stopped_ = true;
    phase_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double& phase_;
  std::chrono::steady_clock::time_point start_;
  bool stopped_ = false;
};

}  // namespace nvbw::engine
