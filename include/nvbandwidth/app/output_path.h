// --output FILE: the %-substitutions that let every node of a fleet name its own report
// (`srun ... nvbandwidth -j --output reports/%h.json`), and the format the name asks for.
#pragma once

#include <functional>
#include <string>

namespace nvbw {

// What %h, %r and %j stand for.
struct OutputPathFields {
  std::string host;  // %h: the host name
  int rank = 0;      // %r: the MPI rank (0 when not MPI)
  std::string job;   // %j: jobIdFrom's answer
};

// Throws UsageError for a % not followed by h, r, j or % (a typo would otherwise become part
// of every node's file name).
void checkOutputPattern(const std::string& pattern);

// The pattern with %h, %r, %j and %% replaced. A substituted value never adds or names a folder
// and never hides the file: '/', control characters and a leading '.' in it become '_' (so "."
// and ".." are "_" and "_."). Call checkOutputPattern first.
std::string expandOutputPath(const std::string& pattern, const OutputPathFields& fields);

// The job id: SLURM_JOB_ID, else Open MPI's OMPI_MCA_orte_ess_jobid, else PMIX_NAMESPACE, else
// "nojob" (unset and empty variables alike). `lookup` is getenv or a test's map.
std::string jobIdFrom(const std::function<const char*(const char*)>& lookup);

enum class ReportFormat { Text, Json, Html };

// .html: HTML; .json: JSON; any other name: JSON with -j/--format json, else text.
ReportFormat reportFormatFor(const std::string& path, bool json);

}  // namespace nvbw
