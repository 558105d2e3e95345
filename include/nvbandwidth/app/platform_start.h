// What a run lets the machine prepare while its driver starts (PlatformStart).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/options.h"
#include "app/platform.h"
#include "app/selection.h"
#include "plans/registry.h"

namespace nvbw {

// The host buffers of the selected testcases (one GPU's, host_buffer_forecast.h), to be touched
// while the driver starts; none when their pages could be placed otherwise than a buffer's own
// allocation places them: huge pages (-H), or a machine whose `onlineNumaNodes` (sysfs's list,
// "0" for one node) names more than one node or is unknown. A --sweep run starts with its
// smallest size, which the forecast of -b does not know: nothing is touched ahead for it.
PlatformStart platformStart(const Options& options, const std::vector<TestcaseDef>& registry,
                            const std::vector<Selection>& selection,
                            const std::optional<std::string>& onlineNumaNodes);

}  // namespace nvbw
