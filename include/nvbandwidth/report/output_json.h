// The JSON report: upstream v0.8's document with this tool's additions beside its keys.
#pragma once

#include <iosfwd>
#include <memory>

#include "report/output.h"
#include "report/report_builder.h"  // kJsonSchemaVersion

namespace nvbw {

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings);

}  // namespace nvbw
