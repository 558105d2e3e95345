#include "app/output_path.h"

#include "core/error.h"
#include "core/escape.h"
#include "core/text.h"

namespace nvbw {
namespace {

// A value as expandOutputPath substitutes it (a hidden file would be one --summarize never reads).
std::string asNamePart(const std::string& value) {
  std::string part = value;
  for (char& c : part)
    if (c == '/' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  if (!part.empty() && part[0] == '.') part[0] = '_';
  return part.empty() ? "_" : part;
}

}  // namespace

void checkOutputPattern(const std::string& pattern) {
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') continue;
    const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (next != 'h' && next != 'r' && next != 'j' && next != '%')
      throw UsageError(
          "--output " + quotedArgument(pattern) + ": " +
          (next ? quotedArgument(pattern.substr(i, 2)) + " is not" : "a lone % is not") +
          " a substitution (%h host, %r rank, %j job id, %% a %)");
    ++i;
  }
}

std::string expandOutputPath(const std::string& pattern, const OutputPathFields& fields) {
  std::string path;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      path += pattern[i];
      continue;
    }
    const char field = pattern[++i];
    path += field == 'h'   ? asNamePart(fields.host)
            : field == 'r' ? std::to_string(fields.rank)
            : field == 'j' ? asNamePart(fields.job)
                           : std::string(1, field);  // %%
  }
  return path;
}

std::string jobIdFrom(const std::function<const char*(const char*)>& lookup) {
  for (const char* name : {"SLURM_JOB_ID", "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE"}) {
    const char* value = lookup(name);
    if (value && *value) return value;
  }
  return "nojob";
}

ReportFormat reportFormatFor(const std::string& path, bool json) {
  if (endsWith(path, ".html")) return ReportFormat::Html;
  if (endsWith(path, ".json") || json) return ReportFormat::Json;
  return ReportFormat::Text;
}

}  // namespace nvbw
