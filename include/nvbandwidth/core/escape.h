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

// The length of the well-formed UTF-8 sequence at text[at] (RFC 3629: no overlong form, no
// surrogate, at most U+10FFFF) with its code point in `codePoint`; 0 when the bytes there are
// none. What the HTML and metrics views keep of a report's text, and what they escape.
std::size_t utf8Sequence(const std::string& text, std::size_t at, char32_t& codePoint);

// C0 controls, DEL and the C1 controls (U+0080-U+009F, NEL among them).
bool isControlCharacter(char32_t codePoint);

}  // namespace nvbw
