#include "fake_platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "engine/sample_recording.h"
#include "fake_topology.h"
#include "output_fixtures.h"

namespace nvbw::test {
namespace {

constexpr int kHostNumber = 9;  // stands for "Host" in the value formula

int endpointNumber(const BufferSpec& b) {
  return b.kind == MemoryKind::Host ? kHostNumber : b.device;
}

double latencyValue(const LatencySpec& l) {
  const double base = l.access == ChaseAccess::TmaBulkCopy ? 800.0 : 500.0;
  return base + 10 * l.chaseDevice + endpointNumber(l.target);
}

class FakeMeasuringExecutor final : public PlanExecutor {
 public:
  FakeMeasuringExecutor(RunSettings settings, ExecHooks hooks, FakeBehaviour behaviour)
      : settings_(settings), hooks_(std::move(hooks)), behaviour_(std::move(behaviour)),
        noise_(behaviour_.noiseSeed) {}

  PlanResult run(const Plan& plan, const ProgressSink& progress) override {
    PlanResult result;
    for (const MatrixSpec& spec : plan.matrices) result.matrices.emplace_back(spec);
    failIfAsked(plan);
    const std::string title = plan.matrices.empty() ? std::string() : plan.matrices.front().title;
    runScale_ = measuredPlans_.insert(title).second ? behaviour_.firstRunScale : 1.0;
    for (std::size_t i = 0; i < plan.measurements.size(); ++i) {
      const Measurement& m = plan.measurements[i];
      EXPECT_FALSE(m.outputs.empty()) << "a measurement reports no cell";
      for (const OutputTarget& t : m.outputs)
        EXPECT_FALSE(result.matrices.at(t.matrix).at(t.row, t.col).has_value())
            << "cell [" << t.row << "][" << t.col << "] of matrix " << t.matrix << " written twice";
      MeasurementSamples samples = measure(m);
      for (unsigned k = 0; k < settings_.samples; ++k) {
        std::this_thread::sleep_for(behaviour_.perSample);
        if (progress) progress({i, plan.measurements.size(), k, settings_.samples});
        if (const int signal = hooks_.stopRequested ? hooks_.stopRequested() : 0)
          throw Interrupted(signal);
      }
      result.measurements.push_back(
          recordMeasurement(m, samples, settings_.statistic, result.matrices));
    }
    return result;
  }

 private:
  void failIfAsked(const Plan& plan) const {
    if (plan.matrices.empty()) return;
    for (const std::string& title : behaviour_.failingTitles)
      if (plan.matrices.front().title.find(title) != std::string::npos)
        throw VerificationError(
            mismatchMessage("the destination of a faked copy", 0, 12, 1u << 20, 1024));
  }

  // The samples of one series: `value` shaped by the behaviour, then each sample's noise.
  std::vector<double> series(double value, bool latency, std::size_t bytes = 0) {
    value *= behaviour_.scale * runScale_;
    value *= latency ? 1.0 + behaviour_.slowdown : 1.0 - behaviour_.slowdown;
    if (behaviour_.rampMiB > 0 && bytes > 0) {
      const double mib = static_cast<double>(bytes) / 1048576.0;
      value *= mib / (mib + behaviour_.rampMiB);
    }
    std::vector<double> s;
    for (unsigned k = 0; k < settings_.samples; ++k)
      s.push_back(value * (1.0 + behaviour_.jitter * (static_cast<int>(k % 3) - 1)) *
                  noiseFactor(latency));
    return s;
  }

  // 1 without noise; else 1 + noiseCv x z, and now and then an outlier that much worse again.
  double noiseFactor(bool latency) {
    const double cv = behaviour_.noiseCv;
    if (cv <= 0.0) return 1.0;
    double factor = 1.0 + cv * std::normal_distribution<double>(0.0, 1.0)(noise_);
    if (std::uniform_int_distribution<unsigned>(1, kFakeOutlierEvery)(noise_) == 1)
      factor += (latency ? 1.0 : -1.0) * kFakeOutlierCvs * cv;
    return std::max(factor, 0.05);  // a copy never takes forever nor no time at all
  }

  // With shareLinks: how many copies of `m` write into the GPU `copy` writes into, or read the
  // GPU it reads (the larger); else 1.
  double sharing(const Measurement& m, const CopySpec& copy) const {
    if (!behaviour_.shareLinks) return 1.0;
    const auto onDevice = [](const BufferSpec& b, const BufferSpec& other) {
      return b.kind != MemoryKind::Host && other.kind != MemoryKind::Host &&
             b.device == other.device;
    };
    std::size_t into = 0, from = 0;
    for (const CopySpec& c : m.copies) {
      into += onDevice(c.dst, copy.dst) ? 1 : 0;
      from += onDevice(c.src, copy.src) ? 1 : 0;
    }
    return static_cast<double>(std::max<std::size_t>({into, from, 1}));
  }

  MeasurementSamples measure(const Measurement& m) {
    MeasurementSamples s;
    if (m.latency) {
      s.copies.push_back(series(latencyValue(*m.latency), true));
      return s;
    }
    double all = 0.0;
    for (std::size_t i = 0; i < m.copies.size(); ++i) {
      const CopySpec& copy = m.copies[i];
      const bool host = copy.src.kind == MemoryKind::Host || copy.dst.kind == MemoryKind::Host;
      const double value = fakeCopyValue(copy.src, copy.dst, i) *
                           (host ? behaviour_.hostScale : 1.0) / sharing(m, copy);
      s.copies.push_back(series(value, false, m.copies[i].src.bytes));
      all += value;
    }
    const bool total = std::any_of(m.outputs.begin(), m.outputs.end(), [](const OutputTarget& t) {
      return t.source == ValueSource::Total;
    });
    if (total) s.total = series(all, false, m.copies.empty() ? 0 : m.copies.front().src.bytes);
    return s;
  }

  RunSettings settings_;
  ExecHooks hooks_;
  FakeBehaviour behaviour_;
  std::set<std::string> measuredPlans_;  // the titles of the plans measured so far
  double runScale_ = 1.0;                // firstRunScale for a plan's first measurement
  std::mt19937 noise_;                   // the samples' noise (FakeBehaviour::noiseCv)
};

}  // namespace

double fakeCopyValue(const BufferSpec& src, const BufferSpec& dst, std::size_t copyIndex) {
  return 100.0 + 10 * endpointNumber(src) + endpointNumber(dst) +
         0.25 * static_cast<double>(copyIndex);
}

FakePlatform::FakePlatform(FakeTopology topology, FakeBehaviour behaviour)
    : topology_(std::move(topology)), behaviour_(std::move(behaviour)) {}

EnvironmentSnapshot FakePlatform::environment() const {
  const std::vector<EnvironmentSnapshot>& e = behaviour_.environments;
  const std::size_t call = environmentCalls_++;
  if (e.empty()) return {};
  return e[std::min(call, e.size() - 1)];
}

SystemFacts FakePlatform::systemFacts() const {
  SystemFacts info = systemWith(topology_.deviceCount());
  if (!behaviour_.release.empty()) info.release = behaviour_.release;
  return info;
}

std::unique_ptr<PlanExecutor> FakePlatform::makePlanExecutor(const RunSettings& settings,
                                                             ExecHooks hooks) {
  if (!behaviour_.executorFailure.empty()) throw std::runtime_error(behaviour_.executorFailure);
  return makeFakeExecutor(settings, std::move(hooks), behaviour_);
}

std::unique_ptr<PlanExecutor> makeFakeExecutor(const RunSettings& settings, ExecHooks hooks,
                                               FakeBehaviour behaviour) {
  return std::make_unique<FakeMeasuringExecutor>(settings, std::move(hooks), std::move(behaviour));
}

PlatformFactory fakePlatform(FakeTopology topology, FakeBehaviour behaviour) {
  return [topology, behaviour]() -> std::unique_ptr<Platform> {
    return std::make_unique<FakePlatform>(topology, behaviour);
  };
}

AppRun runApp(const std::vector<std::string>& args, const PlatformFactory& platform,
              StopRequest stop) {
  std::ostringstream out, err;
  AppContext context{platform, out, err, std::move(stop), {}, nullptr, RegistryScope::SingleNode};
  AppRun run;
  run.exitCode = runCommandLine(args, context);
  run.out = out.str();
  run.err = err.str();
  return run;
}

namespace {

std::string fakeBusId(int device) {
  char text[32];
  std::snprintf(text, sizeof text, "00000000:%02X:00.0", 0x19 + 0x10 * device);
  return text;
}

std::vector<NvlinkLink> fakeNvlinks(int device, int devices, const std::string& kind) {
  if (kind == "nvswitch")
    return std::vector<NvlinkLink>(18,
                                   {40, 26.5625, NvlinkLink::Remote::Switch, "00000000:C0:00.0"});
  if (kind == "direct" && devices == 2)
    return std::vector<NvlinkLink>(18,
                                   {40, 26.5625, NvlinkLink::Remote::Gpu, fakeBusId(1 - device)});
  return {};
}

}  // namespace

FakeTopology withH200Links(FakeTopology topology, const std::string& nvlinks) {
  for (int d = 0; d < topology.deviceCount(); ++d) {
    GpuLinkFacts f;
    f.busId = fakeBusId(d);
    f.pcie = PcieLinkState{32.0, 16, 32.0, 16};
    f.memory = MemoryFacts{3201000, 6016};
    if (nvlinks != "none") {
      f.c2c = false;
      f.nvlinks = fakeNvlinks(d, topology.deviceCount(), nvlinks);
    }
    topology.setLinkFacts(d, f);
  }
  return topology;
}

EnvironmentSnapshot h200Environment(int gpus) {
  EnvironmentSnapshot s;
  s.host.cpuModel = "Intel(R) Xeon(R) Platinum 8480C";
  s.host.numaNodes = "0-1";
  for (int d = 0; d < gpus; ++d) {
    GpuEnvironment g;
    g.smClockMHz = g.smClockMaxMHz = 1980u;
    g.memoryClockMHz = g.memoryClockMaxMHz = 3201u;
    g.clocksLocked = false;
    g.powerLimitW = 700.0;
    g.powerDrawW = 121.5;
    g.temperatureC = 41;
    g.eccEnabled = g.persistenceMode = true;
    g.migEnabled = false;
    g.computeMode = "Default";
    g.throttleNs = 0;
    g.pcie = PcieLinkState{32.0, 16, 32.0, 16};
    g.numaNode = d < gpus / 2 ? 0 : 1;
    g.hostBufferCpus = d < gpus / 2 ? "0-55" : "56-111";
    s.gpus.push_back(g);
  }
  return s;
}

}  // namespace nvbw::test
