// The exit statuses of the program (docs/options.md, "Exit status"), which every command shares.
#pragma once

namespace nvbw {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
// --compare/--baseline: a cell is SLOWER or UNSTABLE; --expect: a cell is BELOW; --summarize: a
// node flagged.
inline constexpr int kExitSlower = 3;
inline constexpr int kExitInterruptedBase = 128;  // + the signal number

}  // namespace nvbw
