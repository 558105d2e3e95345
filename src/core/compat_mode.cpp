#include "core/compat_mode.h"

namespace nvbw {

const char* compatModeName(CompatMode mode) { return mode == CompatMode::V0_10 ? "v0.10" : "v0.8"; }

std::optional<CompatMode> parseCompatMode(const std::string& text) {
  for (CompatMode mode : {CompatMode::V0_8, CompatMode::V0_10})
    if (text == compatModeName(mode)) return mode;
  return std::nullopt;
}

const char* compatModeChoices() { return "v0.8 or v0.10"; }

}  // namespace nvbw
