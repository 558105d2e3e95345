// Making text that came from the user (or the system) safe to print on one line.
#pragma once

#include <cstddef>
#include <string>

namespace nvbw {

// Control characters, DEL and bytes outside printable ASCII become \n, \t, \r or \xNN, and text
// longer than `maxChars` is cut there with "..." and the original length appended, so one
// argument can never break the one-line contract or flood the terminal.
std::string escapeForTerminal(const std::string& text, std::size_t maxChars = 300);

// An argument as a usage message quotes it: escaped, at most 64 characters, in single quotes.
std::string quotedArgument(const std::string& argument);

}  // namespace nvbw
