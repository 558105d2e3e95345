// Numbers as the reports print them, whatever the global locale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace nvbw {

// Fixed notation with `decimals` digits (the text report's two by default), in the classic locale
// whatever the global one: "55.45".
std::string fixed(double value, int decimals = 2);

// iostream's default notation with `digits` significant digits, in the classic locale: "55.4859",
// "1.23457e+06", "1e+300" (upstream's cells, as it wrote them, have 6).
std::string significant(double value, int digits = 6);

// A CUDA version integer (1000 * major + 10 * minor) as upstream v0.10 prints it: "13.0 (13000)".
std::string cudaVersionText(std::uint64_t version);

// A matrix cell as the text views name it: "[row][col]".
std::string cellName(std::size_t row, std::size_t col);

// " at 32 MiB", as the text views name a size of a sweep; "" without one.
std::string atSize(const std::optional<std::uint64_t>& sizeMiB);

// `text` padded on the left (rightAligned) or the right (leftAligned) with spaces to `width`
// characters (longer text as it is).
std::string rightAligned(const std::string& text, int width);
std::string leftAligned(const std::string& text, std::size_t width);

// Whether `token` reads as a number to the programs that scrape nvbandwidth's text (Python's
// float(): an optional sign, then digits with single underscores between them, a fraction, an
// exponent, or inf, infinity, nan in any case).
bool readsAsNumber(const std::string& token);

// `text` with every whitespace-separated token that reads as a number quoted ('1'): a line of
// ours on stdout after a testcase's banner must hold no such token, or a client that reads every
// number there as a cell value (docs/compatibility.md) would take it for one.
std::string withoutNumberTokens(const std::string& text);

}  // namespace nvbw
