#include "app/platform.h"

#include "plans/host_buffer_forecast.h"

namespace nvbw {

EnvironmentSnapshot Platform::environment() const {
  EnvironmentSnapshot unknown;
  unknown.nvmlProblem = "this platform does not read it";
  return unknown;
}

PlatformStart platformStart(const Options& options, const std::vector<TestcaseDef>& registry,
                            const std::vector<Selection>& selection,
                            const std::optional<std::string>& onlineNumaNodes) {
  PlatformStart start;
  if (options.useHugePages || !options.sweep.empty() || onlineNumaNodes != std::string("0"))
    return start;
  std::vector<const TestcaseDef*> selected;
  for (const Selection& s : selection)
    if (s.index && *s.index < registry.size()) selected.push_back(&registry[*s.index]);
  start.hostBuffers = oneGpuHostBuffers(selected, static_cast<std::size_t>(options.bufferBytes()));
  return start;
}

}  // namespace nvbw
