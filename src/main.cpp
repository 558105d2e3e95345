// nvbandwidth: parse options, set up the GPUs, run the selected testcases, map the outcome to an
// exit status (0 all passed or waived, 1 a testcase failed or the run could not start, 2 usage).
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nvbandwidth/driver.h"
#include "nvbandwidth/executor.h"
#include "nvbandwidth/gpu.h"
#include "nvbandwidth/options.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/runner.h"
#include "nvbandwidth/selection.h"
#include "nvbandwidth/version.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int usageError(const std::string& message) {
  std::cerr << "nvbandwidth: " << message << "\nRun 'nvbandwidth --help' to see the options.\n";
  return kExitUsage;
}

std::vector<std::string> keysOf(const std::vector<nvbw::TestcaseDef>& registry) {
  std::vector<std::string> keys;
  for (const auto& def : registry) keys.push_back(def.key);
  return keys;
}

nvbw::ExecSettings execSettings(const nvbw::Options& o) {
  nvbw::ExecSettings s;
  s.samples = o.testSamples;
  s.loopCount = o.loopCount;
  s.statistic = o.useMean ? nvbw::Statistic::Mean : nvbw::Statistic::Median;
  s.verify = !o.skipVerification;
  s.cpuAffinity = !o.disableAffinity;
  return s;
}

int run(const nvbw::Options& options, const std::vector<nvbw::TestcaseDef>& registry,
        const std::vector<nvbw::Selection>& selection) {
  const nvbw::OutputSettings outSettings{options.verbose, options.perfFormatter};
  std::unique_ptr<nvbw::Output> output =
      options.json ? nvbw::makeJsonOutput(std::cout, outSettings)
                   : nvbw::makeTextOutput(std::cout, std::cerr, outSettings);

  std::vector<std::string> warnings;
  if (options.bufferSizeMiB < nvbw::kDefaultBufferSizeMiB)
    warnings.push_back(
        "NOTE: You have chosen a buffer size that is smaller than the default buffer size. It is "
        "suggested to use the default buffer size (512 MiB) to achieve maximal peak bandwidth.");

  nvbw::SystemInfo info;
  info.version = nvbw::kVersion;
  info.gitVersion = nvbw::kGitVersion;
  info.cudaRuntimeVersion = nvbw::kBuildCudaVersion;
  info.hostname = nvbw::hostName();

  auto fail = [&](const std::string& message) {
    output->header(info, warnings);
    output->globalError(message);
    output->finish();
    return kExitFailure;
  };

  std::optional<nvbw::DriverLibrary> driver;
  std::unique_ptr<nvbw::Gpu> gpu;
  try {
    driver.emplace(nvbw::DriverLibrary::load());
    gpu = std::make_unique<nvbw::Gpu>(driver->api());
    info.cudaDriverVersion = gpu->driverCudaVersion();
    info.driverVersion = nvbw::readDriverVersion();
    for (int d = 0; d < gpu->deviceCount(); ++d) info.devices.push_back(gpu->info(d));
    if (std::string note = nvbw::peerAccessNote(nvbw::DriverTopology(*gpu)); !note.empty())
      warnings.push_back(std::move(note));
  } catch (const std::exception& e) {
    return fail(std::string("cannot start: ") + e.what());
  }
  output->header(info, warnings);

  try {
    const nvbw::DriverTopology topology(*gpu);
    auto note = [](const std::string& line) { std::cerr << line << '\n'; };
    auto planRunner = nvbw::makeGpuPlanRunner(*gpu, execSettings(options), note);
    const nvbw::RunSummary summary = nvbw::runTestcases(
        registry, selection, topology, options.bufferBytes(), *planRunner, *output);
    output->finish();
    return summary.errors > 0 ? kExitFailure : kExitOk;
  } catch (const std::exception& e) {
    output->globalError(e.what());
    output->finish();
    return kExitFailure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  nvbw::Options options;
  try {
    options = nvbw::parseOptions(args);
  } catch (const nvbw::UsageError& e) {
    return usageError(e.what());
  }

  const std::vector<nvbw::TestcaseDef> registry = nvbw::makeRegistry();
  // -h and -l need neither a GPU nor a driver, and work in JSON mode too.
  if (options.help) {
    std::cout << nvbw::versionBlock(nvbw::kVersion, nvbw::kGitVersion) << nvbw::helpText() << '\n';
    return kExitOk;
  }
  if (options.list) {
    if (options.json)
      std::cout << nvbw::listingJson(registry, nvbw::kVersion, nvbw::kGitVersion);
    else
      std::cout << nvbw::versionBlock(nvbw::kVersion, nvbw::kGitVersion)
                << nvbw::listingText(registry);
    return kExitOk;
  }

  std::vector<nvbw::Selection> selection;
  try {
    nvbw::validateOptions(options);
    selection = nvbw::selectTestcases(options, keysOf(registry));
  } catch (const nvbw::UsageError& e) {
    return usageError(e.what());
  }

  try {
    return run(options, registry, selection);
  } catch (const std::exception& e) {
    // Last resort: output itself failed. Never let an exception terminate the process.
    std::cerr << "ERROR: " << e.what() << '\n';
    return kExitFailure;
  }
}
