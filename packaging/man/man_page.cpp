#include "man_page.h"

#include <cctype>
#include <regex>
#include <stdexcept>

namespace nvbw::man {
namespace {

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// Replaces the line that is exactly `marker` with `section` (which ends with a newline).
void replaceLine(std::string& page, const std::string& marker, const std::string& section) {
  const std::string line = "\n" + marker + "\n";
  const std::size_t at = page.find(line);
  if (at == std::string::npos) throw std::runtime_error("the template has no line " + marker);
  page.replace(at + 1, line.size() - 1, section);
}

std::string bold(const std::string& text) { return "\\fB" + roffText(text) + "\\fR"; }

}  // namespace

std::string roffText(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  // A line starting with '.' or '\'' would be read as a request.
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  replaceAll(out, "\n.", "\n\\&.");
  replaceAll(out, "\n'", "\n\\&'");
  return out;
}

std::string optionsSection(const std::vector<HelpEntry>& entries) {
  std::string section;
  for (const HelpEntry& e : entries) {
    std::string names = e.shortName.empty() ? "" : bold("-" + e.shortName) + ", ";
    names += bold("--" + e.longName);
    if (e.takesValue) names += " \\fIarg\\fR";
    section += ".TP\n" + names + "\n" + roffText(e.description);
    if (!e.defaultValue.empty()) section += " (default: " + roffText(e.defaultValue) + ")";
    section += "\n";
  }
  return section;
}

std::string testcasesSection(const std::vector<TestcaseDef>& registry) {
  std::string section;
  for (const TestcaseDef& t : registry) {
    std::string description = t.description;
    replaceAll(description, "\n", " ");
    section += ".TP\n" + bold(std::to_string(t.index)) + ", " + bold(t.key) + "\n" +
               roffText(description) + "\n";
  }
  return section;
}

std::string renderManPage(const std::string& pageTemplate, const PageFacts& facts,
                          const std::vector<HelpEntry>& options,
                          const std::vector<TestcaseDef>& registry) {
  std::string page = pageTemplate;
  replaceLine(page, "@OPTIONS@", optionsSection(options));
  replaceLine(page, "@TESTCASES@", testcasesSection(registry));
  // Names and paths are put in as roff text: a hyphen in them stays an ASCII hyphen.
  replaceAll(page, "@PROGRAM@", roffText(facts.program));
  replaceAll(page, "@RELEASE@", roffText(facts.release));
  std::string title;
  for (const char c : facts.program) title += static_cast<char>(std::toupper(c));
  replaceAll(page, "@TITLE@", roffText(title));
  replaceAll(page, "@DATE@", facts.date);  // digits and hyphens: the date a reader parses
  replaceAll(page, "@DATADIR@", roffText(facts.dataDir));
  replaceAll(page, "@DOCDIR@", roffText(facts.docDir));
  std::smatch left;
  if (std::regex_search(page, left, std::regex("@[A-Z_]+@")))
    throw std::runtime_error("the template has an unknown marker " + left.str());
  return page;
}

}  // namespace nvbw::man
