// The JSON report: upstream v0.8's document with this tool's additions beside its keys.
#pragma once

#include <iosfwd>
#include <memory>

#include "report/output.h"

namespace nvbw {

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings);

// The version of the JSON document's layout (top-level "schema_version"); docs/ holds the schema.
inline constexpr const char* kJsonSchemaVersion = "1.0";

}  // namespace nvbw
