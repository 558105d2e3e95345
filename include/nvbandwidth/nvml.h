// NVML, loaded at run time where it is installed (never linked): the tool works without it, and
// what only NVML can say is then unknown rather than guessed.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace nvbw {

class Nvml {
 public:
  // nullopt when libnvidia-ml.so.1 is missing or nvmlInit fails.
  static std::optional<Nvml> open();
  Nvml(Nvml&& other) noexcept;
  Nvml& operator=(Nvml&&) = delete;
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  ~Nvml();

  // nvmlSystemGetDriverVersion; "" when it fails.
  std::string driverVersion() const;
  // nvmlSystemGetConfComputeState's ccFeature; nullopt when this NVML cannot say (too old, or
  // the query is not supported).
  std::optional<bool> confidentialComputing() const;

 private:
  explicit Nvml(void* library);
  void* library_;
};

}  // namespace nvbw
