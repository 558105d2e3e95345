#include "sample_issues.h"

#include <set>

namespace nvbw::engine {
namespace {

std::size_t total(const std::vector<std::size_t>& groupSizes) {
  std::size_t n = 0;
  for (std::size_t size : groupSizes) n += size;
  return n;
}

// Latched: fills, then each stream held by its spin kernel with its warm-up queued behind it,
// then each group's timed copies, then the wait for the fills, the release and the wait.
std::vector<Issue> latched(const std::vector<std::size_t>& groupSizes) {
  const std::size_t streams = total(groupSizes);
  std::vector<Issue> issues;
  for (std::size_t s = 0; s < streams; ++s) issues.push_back({IssueKind::Fill, s});
  for (std::size_t s = 0; s < streams; ++s) {
    issues.push_back({IssueKind::Spin, s});
    issues.push_back({IssueKind::Warmup, s});
  }
  std::size_t first = 0;
  for (std::size_t size : groupSizes) {
    for (std::size_t s = first; s < first + size; ++s) issues.push_back({IssueKind::Start, s});
    for (std::size_t s = first; s < first + size; ++s) {
      issues.push_back({IssueKind::Measured, s});
      issues.push_back({IssueKind::End, s});
    }
    first += size;
  }
  issues.push_back({IssueKind::AwaitFills, 0});
  issues.push_back({IssueKind::Release, 0});
  issues.push_back({IssueKind::Wait, 0});
  return issues;
}

// In order: fills, the wait for them, then each stream's copies issued one after another
// between its events (a group's streams by threads of their own, started together), the wait.
std::vector<Issue> inOrder(const std::vector<std::size_t>& groupSizes) {
  const std::size_t streams = total(groupSizes);
  std::vector<Issue> issues;
  for (std::size_t s = 0; s < streams; ++s) issues.push_back({IssueKind::Fill, s});
  issues.push_back({IssueKind::AwaitFills, 0});
  for (std::size_t s = 0; s < streams; ++s)
    for (IssueKind kind :
         {IssueKind::Warmup, IssueKind::Start, IssueKind::Measured, IssueKind::End})
      issues.push_back({kind, s});
  issues.push_back({IssueKind::Wait, 0});
  return issues;
}

const char* copyName(IssueKind kind) {
  return kind == IssueKind::Warmup ? "warm-up copy" : "measured copy";
}

}  // namespace

std::vector<Issue> sampleIssues(SampleTiming timing, const std::vector<std::size_t>& groupSizes) {
  return timing == SampleTiming::InOrder ? inOrder(groupSizes) : latched(groupSizes);
}

std::optional<std::string> confidentialHang(const std::vector<Issue>& issues,
                                            const std::vector<bool>& hostCopy) {
  bool released = false;
  std::set<std::size_t> held;  // streams whose spin kernel waits for the release
  for (const Issue& issue : issues) {
    switch (issue.kind) {
    case IssueKind::Spin:
      if (!released) held.insert(issue.stream);
      break;
    case IssueKind::Release:
      released = true;
      held.clear();
      break;
    case IssueKind::Warmup:
    case IssueKind::Measured:
      // A host copy returns once its stream is idle: never, behind a spin kernel held shut.
      if (issue.stream < hostCopy.size() && hostCopy[issue.stream] && held.count(issue.stream))
        return std::string("the ") + copyName(issue.kind) + " of copy " +
               std::to_string(issue.stream) +
               " waits for its stream's spin kernel, which only the release after it ends";
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

}  // namespace nvbw::engine
