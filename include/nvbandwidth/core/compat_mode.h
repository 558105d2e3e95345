// Which upstream interface the program presents (--compat, NVBANDWIDTH_COMPAT): v0.8's, the
// project's specification and the default, or v0.10's indices, listing and text lines; measuring,
// JSON keys and all of our own are the same in both (docs/compatibility.md).
#pragma once

#include <optional>
#include <string>

namespace nvbw {

enum class CompatMode { V0_8, V0_10 };

// "v0.8" or "v0.10", as --compat takes and --version prints them.
const char* compatModeName(CompatMode mode);

// The mode `text` names exactly ("v0.8", "v0.10"); nullopt for anything else.
std::optional<CompatMode> parseCompatMode(const std::string& text);

// "v0.8 or v0.10": the choices, for usage errors.
const char* compatModeChoices();

}  // namespace nvbw
