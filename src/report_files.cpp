#include "nvbandwidth/report_files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "nvbandwidth/escape.h"

namespace nvbw {
namespace {

std::string cause() { return errno ? std::strerror(errno) : "unknown error"; }

}  // namespace

nlohmann::json readReportFile(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ReportFileError("cannot read " + quotedArgument(path) + ": " + cause());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded())
    throw ReportFileError(quotedArgument(path) + " is not JSON (an nvbandwidth -j report?)");
  const bool report = doc.is_object() && doc.contains("nvbandwidth") &&
                      doc["nvbandwidth"].is_object() && doc["nvbandwidth"].contains("testcases") &&
                      doc["nvbandwidth"]["testcases"].is_array();
  if (!report)
    throw ReportFileError(quotedArgument(path) +
                          " is not an nvbandwidth report (no nvbandwidth.testcases array)");
  return doc;
}

void writeTextFile(const std::string& path, const std::string& text) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  if (out) out.flush();
  if (!out) throw ReportFileError("cannot write " + quotedArgument(path) + ": " + cause());
}

}  // namespace nvbw
