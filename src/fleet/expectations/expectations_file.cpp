// Expectations files: the keys they may name, the strict line parser, and reading the file.
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "core/escape.h"
#include "core/format.h"
#include "fleet/expectations/expectations.h"

namespace nvbw {

std::string CellSelection::text() const {
  if (kind == Kind::Gpu) return "GPU" + std::to_string(gpu);
  return kind == Kind::Cell ? cellName(row, col) : "every";
}

std::string Expectation::selection() const {
  return cells.kind == CellSelection::Kind::Every ? key : key + " " + cells.text();
}

namespace {

class LineParser {
 public:
  LineParser(const std::string& label, std::size_t number, const ExpectationKeys& keys)
      : label_(label), number_(number), keys_(keys) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw ExpectationsError(label_ + " line " + std::to_string(number_) + ": " + why);
  }

  Expectation parse(const std::vector<std::string>& tokens) const {
    Expectation e;
    e.line = number_;
    e.key = tokens[0];
    const auto known = keys_.find(e.key);
    if (known == keys_.end())
      fail("unknown testcase " + quotedArgument(e.key) +
           " (nvbandwidth --list names them; one matrix of a bidirectional device-to-device "
           "testcase is <testcase>_read1, _read2, _write1, _write2 or _total)");
    e.testcase = known->second.testcase;
    e.unit = known->second.unit;
    std::size_t next = 1;
    if (next < tokens.size() && looksLikeCells(tokens[next])) e.cells = cells(tokens[next++]);
    if (next == tokens.size())
      fail(std::string("no ") + e.bound() + " after " + quotedArgument(tokens[next - 1]) +
           ": write <testcase> [cells] <" + e.unit + ">");
    if (looksLikeCells(tokens[next]))
      fail("a second selection of cells " + quotedArgument(tokens[next]) +
           ": one per line (write one line per cell)");
    const std::string& number = tokens[next++];
    std::size_t numberEnd = 0;
    e.limit = value(number, numberEnd);
    std::string unit = number.substr(numberEnd);
    std::string written = number;  // the number with its unit, as the line has it
    if (unit.empty() && next < tokens.size()) {
      if (std::isdigit(static_cast<unsigned char>(tokens[next][0])))
        fail("a second number " + quotedArgument(tokens[next]) + ": one " + e.bound() +
             " per line");
      unit = tokens[next++];
      written += " " + unit;
    }
    if (!unit.empty()) checkUnit(e, written, unit);
    checkRange(e, number);
    if (next < tokens.size())
      fail("unexpected " + quotedArgument(tokens[next]) + " after the " + e.bound() +
           " (one expectation per line; comments start with #)");
    return e;
  }

 private:
  static bool looksLikeCells(const std::string& token) {
    return token[0] == '[' || token.compare(0, 3, "GPU") == 0 || token.compare(0, 3, "gpu") == 0;
  }

  // A whole number of at most 5 digits starting at `text[pos]`; advances `pos`.
  std::optional<std::size_t> index(const std::string& text, std::size_t& pos) const {
    const std::size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == start || pos - start > 5) return std::nullopt;
    return static_cast<std::size_t>(std::stoul(text.substr(start, pos - start)));
  }

  CellSelection cells(const std::string& token) const {
    const std::string form = " is not a cell: write [row][column] or GPU<n>";
    CellSelection s;
    std::size_t pos = 0;
    if (token[0] != '[') {
      pos = 3;
      const auto gpu = token.compare(0, 3, "GPU") == 0 ? index(token, pos) : std::nullopt;
      if (!gpu || pos != token.size()) fail(quotedArgument(token) + form);
      if (*gpu >= kMaxReportGpus)
        fail(quotedArgument(token) + ": no report has more than " + std::to_string(kMaxReportGpus) +
             " GPUs");
      s.kind = CellSelection::Kind::Gpu;
      s.gpu = *gpu;
      return s;
    }
    std::optional<std::size_t> rc[2];
    for (auto& part : rc) {
      if (pos >= token.size() || token[pos] != '[') fail(quotedArgument(token) + form);
      ++pos;
      part = index(token, pos);
      if (!part || pos >= token.size() || token[pos] != ']') fail(quotedArgument(token) + form);
      ++pos;
    }
    if (pos != token.size()) fail(quotedArgument(token) + form);
    // Upstream stacks three matrices in one entry: rows up to 3 x GPUs (report_shape.h).
    if (*rc[0] >= 3 * kMaxReportGpus || *rc[1] >= kMaxReportGpus)
      fail(quotedArgument(token) + ": no report has a matrix that large");
    s.kind = CellSelection::Kind::Cell;
    s.row = *rc[0];
    s.col = *rc[1];
    return s;
  }

  // The number at the start of `token` (digits, an optional fraction, an optional exponent);
  // `end` is where it stops (a unit may follow).
  double value(const std::string& token, std::size_t& end) const {
    if (token.find(',') != std::string::npos)
      fail(quotedArgument(token) +
           " has a comma: numbers take a decimal point (48.5), cells are written [row][column]");
    const char* afterSign = token.c_str() + (token[0] == '-' || token[0] == '+');
    if (::strncasecmp(afterSign, "nan", 3) == 0 || ::strncasecmp(afterSign, "inf", 3) == 0)
      fail(quotedArgument(token) + " is not a finite number");
    if (token[0] == '-') fail(quotedArgument(token) + " is negative");
    std::size_t pos = 0;
    auto digits = [&token, &pos] {
      const std::size_t start = pos;
      while (pos < token.size() && std::isdigit(static_cast<unsigned char>(token[pos]))) ++pos;
      return pos > start;
    };
    if (!digits())
      fail(quotedArgument(token) +
           " is neither a number nor a cell (write <testcase> [cells] <number>[unit])");
    if (pos < token.size() && token[pos] == '.') {
      ++pos;
      if (!digits()) fail(quotedArgument(token) + ": a decimal point must have digits after it");
    }
    if (pos < token.size() && (token[pos] == 'e' || token[pos] == 'E')) {
      const std::size_t mark = pos++;
      if (pos < token.size() && (token[pos] == '+' || token[pos] == '-')) ++pos;
      if (!digits()) pos = mark;  // not an exponent: the unit check reports what follows
    }
    // The digits scanned are a number from_chars reads whole: it fails only out of range.
    double number = 0.0;
    if (std::from_chars(token.data(), token.data() + pos, number).ec != std::errc())
      fail(quotedArgument(token) + " is out of range");
    end = pos;
    return number;
  }

  // `written`: the number and its unit as the line has them ("48MB/s", "335 ns").
  void checkUnit(const Expectation& e, const std::string& written, const std::string& unit) const {
    if (unit != "GB/s" && unit != "ns")
      fail("unit " + quotedArgument(unit) + " of " + quotedArgument(written) +
           " is neither GB/s nor ns");
    if (unit == e.unit) return;
    const auto what = [](const std::string& u) { return u == "ns" ? "latency" : "bandwidth"; };
    fail(e.key + " is a " + what(e.unit) + " in " + e.unit + ", but " + quotedArgument(written) +
         " is a " + what(unit) + " (a " + e.bound() + " in " + e.unit + " is expected)");
  }

  void checkRange(const Expectation& e, const std::string& number) const {
    if (e.unit == "ns") {
      if (e.limit <= 0.0)
        fail("a ceiling of " + quotedArgument(number) + " ns fails every cell; it must be above 0");
      if (e.limit > kMaxLatencyNs)
        fail(quotedArgument(number) + " is not a latency (above 0, at most 1e9 ns)");
    } else if (e.limit > kMaxBandwidthGBps) {
      fail(quotedArgument(number) + " is not a bandwidth (0 to 1e7 GB/s)");
    }
  }

  const std::string& label_;
  std::size_t number_;
  const ExpectationKeys& keys_;
};

// The line without its comment, split at spaces and tabs; control characters refused anywhere
// (in comments too, so a binary file is refused at its first line).
std::vector<std::string> tokensOf(const std::string& line, const LineParser& parser) {
  if (line.size() > kMaxExpectationLineBytes)
    parser.fail("longer than " + std::to_string(kMaxExpectationLineBytes) + " bytes");
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      parser.fail("control character " + escapeForTerminal(std::string(1, line[i])) +
                  " at column " + std::to_string(i + 1));
  }
  std::vector<std::string> tokens;
  const std::size_t end = std::min(line.find('#'), line.size());
  std::size_t pos = 0;
  while (pos < end) {
    while (pos < end && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    const std::size_t start = pos;
    while (pos < end && line[pos] != ' ' && line[pos] != '\t') ++pos;
    if (pos > start) tokens.push_back(line.substr(start, pos - start));
  }
  return tokens;
}

}  // namespace

Expectations parseExpectations(const std::string& text, const std::string& fileLabel,
                               const ExpectationKeys& keys) {
  if (text.size() > kMaxExpectationsBytes)
    throw ExpectationsError(fileLabel + ": is " + std::to_string(text.size()) +
                            " bytes; expectations files larger than " +
                            std::to_string(kMaxExpectationsBytes >> 20) + " MiB are not read");
  Expectations result;
  result.label = fileLabel;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;  // (key, cells) -> line
  std::size_t pos = 0;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) pos = 3;  // a UTF-8 byte-order mark
  for (std::size_t number = 1; pos < text.size() || number == 1; ++number) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF line ends
    pos = end + 1;
    const LineParser parser(fileLabel, number, keys);
    const std::vector<std::string> tokens = tokensOf(line, parser);
    if (tokens.empty()) continue;
    Expectation e = parser.parse(tokens);
    const auto [at, fresh] = seen.emplace(std::make_pair(e.key, e.cells.text()), e.line);
    if (!fresh)
      parser.fail(e.selection() + " again (first on line " + std::to_string(at->second) +
                  "): give each selection of cells one value");
    result.lines.push_back(std::move(e));
  }
  if (result.lines.empty())
    throw ExpectationsError(fileLabel +
                            ": holds no expectation (lines of <testcase> [cells] <number>)");
  return result;
}

Expectations readExpectations(const NamedFile& file, const ExpectationKeys& keys,
                              const StopRequest& stop) {
  Expectations result = parseExpectations(readReportBytes(file, stop), file.label(), keys);
  result.path = file.path;
  return result;
}

}  // namespace nvbw
