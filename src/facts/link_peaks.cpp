#include "facts/link_peaks.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/text.h"
#include "facts/host_facts.h"

namespace nvbw {
namespace {

// What concurrent copies share (a direction of a link, a GPU's NVLink port, a GPU's memory) and
// how much it carries per second, in the counted bytes of the copies that cross it.
struct Resource {
  std::string id;
  double capacity = 0.0;
};

// The path of one copy: the link that bounds it alone and the resources it occupies.
struct CopyPath {
  LinkPeak link;
  std::vector<Resource> resources;
};

std::string versionText(int version) {
  const int major = version / 10, minor = version % 10;
  return std::to_string(major) + (minor ? "." + std::to_string(minor) : "");
}

// The links whose far end is the GPU of bus id `to` (normalized) or, `to` empty, an NVSwitch.
std::vector<NvlinkLink> linksTo(const std::vector<NvlinkLink>& links, const std::string& to) {
  std::vector<NvlinkLink> out;
  for (const NvlinkLink& l : links) {
    const bool wanted =
        to.empty() ? l.remote == NvlinkLink::Remote::Switch
                   : l.remote == NvlinkLink::Remote::Gpu && normalizedBusId(l.remoteBusId) == to;
    if (wanted) out.push_back(l);
  }
  return out;
}

// Name and summed rate of a bundle of links; the rate is unknown when any link's is.
LinkPeak bundlePeak(const std::vector<NvlinkLink>& links, const std::string& suffix) {
  int version = links.front().version;
  std::optional<double> total = 0.0;
  for (const NvlinkLink& l : links) {
    if (l.version != version) version = 0;
    if (total && l.gbPerSecond)
      *total += *l.gbPerSecond;
    else
      total.reset();
  }
  return {"NVLink " + (version ? versionText(version) + " " : std::string()) + "x" +
              std::to_string(links.size()) + suffix,
          total};
}

std::string endpointName(const BufferSpec& b) {
  return b.kind == MemoryKind::Host ? "Host" : "GPU " + std::to_string(b.device);
}

void addOnce(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

// The slower of two paths in series; unknown (keeping the first's name) when either rate is.
LinkPeak slower(const LinkPeak& a, const LinkPeak& b) {
  if (!a.gbPerSecond || !b.gbPerSecond) return {a.name, std::nullopt};
  return *a.gbPerSecond <= *b.gbPerSecond ? a : b;
}

// Both GPUs' NVLinks to NVSwitches; nullopt when either has none.
std::optional<LinkPeak> switchedPeak(const GpuLinkFacts& a, const GpuLinkFacts& b) {
  const std::vector<NvlinkLink> switchA = linksTo(*a.nvlinks, "");
  const std::vector<NvlinkLink> switchB = linksTo(*b.nvlinks, "");
  if (switchA.empty() || switchB.empty()) return std::nullopt;
  return slower(bundlePeak(switchA, " (NVSwitch)"), bundlePeak(switchB, " (NVSwitch)"));
}

// The two ends of a copy between different GPUs: their direct NVLinks as one directional
// resource; through NVSwitches, each GPU's port; over PCIe, each GPU's link direction.
std::vector<Resource> peerResources(const CopySpec& c, const GpuLinkFacts& a, const GpuLinkFacts& b,
                                    const LinkPeak& link) {
  const std::string from = std::to_string(c.src.device), to = std::to_string(c.dst.device);
  const bool nvswitch = contains(link.name, "NVSwitch");
  if (startsWith(link.name, "NVLink") && !nvswitch)
    return {{"nvlink " + from + ">" + to, *link.gbPerSecond}};
  const LinkPeak pa = nvswitch ? bundlePeak(linksTo(*a.nvlinks, ""), "") : hostLinkPeak(a);
  const LinkPeak pb = nvswitch ? bundlePeak(linksTo(*b.nvlinks, ""), "") : hostLinkPeak(b);
  const std::string kind = nvswitch ? "nvport " : "pcie ";
  return {{kind + from + " out", pa.gbPerSecond.value_or(*link.gbPerSecond)},
          {kind + to + " in", pb.gbPerSecond.value_or(*link.gbPerSecond)}};
}

CopyPath copyPath(const CopySpec& c, const Topology& topo) {
  if (c.src.sharing != Sharing::Private || c.dst.sharing != Sharing::Private) return {};
  const bool srcHost = c.src.kind == MemoryKind::Host, dstHost = c.dst.kind == MemoryKind::Host;
  if (srcHost && dstHost) return {};
  CopyPath path;
  if (srcHost || dstHost) {
    const int gpu = srcHost ? c.dst.device : c.src.device;
    path.link = hostLinkPeak(topo.linkFacts(gpu));
    if (path.link.gbPerSecond)
      path.resources = {
          {"pcie " + std::to_string(gpu) + (srcHost ? " in" : " out"), *path.link.gbPerSecond}};
  } else if (c.src.device == c.dst.device) {
    const bool oneWay = c.method == CopyMethod::SmReadOnly || c.method == CopyMethod::SmWriteOnly;
    path.link = memoryLinkPeak(topo.linkFacts(c.src.device), oneWay ? 1 : 2);
    if (path.link.gbPerSecond)
      path.resources = {{"memory " + std::to_string(c.src.device), *path.link.gbPerSecond}};
  } else {
    const GpuLinkFacts& a = topo.linkFacts(c.src.device);
    const GpuLinkFacts& b = topo.linkFacts(c.dst.device);
    path.link = peerLinkPeak(a, b);
    if (path.link.gbPerSecond) path.resources = peerResources(c, a, b, path.link);
  }
  return path;
}

// The peak of copies running together: no more than all of them alone, and no more through any
// shared resource than its capacity plus what the copies that avoid it can carry.
std::optional<double> combinedPeak(const std::vector<CopyPath>& paths) {
  double sum = 0.0;
  for (const CopyPath& p : paths) {
    if (!p.link.gbPerSecond) return std::nullopt;
    sum += *p.link.gbPerSecond;
  }
  double bound = sum;
  std::set<std::string> seen;
  for (const CopyPath& p : paths)
    for (const Resource& r : p.resources) {
      if (!seen.insert(r.id).second) continue;
      double others = 0.0;
      for (const CopyPath& q : paths) {
        const bool uses = std::any_of(q.resources.begin(), q.resources.end(),
                                      [&](const Resource& s) { return s.id == r.id; });
        if (!uses) others += *q.link.gbPerSecond;
      }
      bound = std::min(bound, r.capacity + others);
    }
  return bound;
}

std::string joinedNames(const std::vector<CopyPath>& paths) {
  std::vector<std::string> names;
  for (const CopyPath& p : paths) addOnce(names, p.link.name);
  return joined(names, " + ");
}

std::string aggregateCellName(const std::vector<CopySpec>& copies) {
  if (copies.size() == 2 && copies[0].src == copies[1].dst && copies[0].dst == copies[1].src)
    return endpointName(copies[0].src) + " <-> " + endpointName(copies[0].dst);
  std::vector<std::string> from, to;
  for (const CopySpec& c : copies) {
    addOnce(from, endpointName(c.src));
    addOnce(to, endpointName(c.dst));
  }
  return joined(from, ", ") + " -> " + joined(to, ", ");
}

std::string singleCopyConvention(const CopySpec& c) {
  const bool local = c.src.kind == MemoryKind::Device && c.dst.kind == MemoryKind::Device &&
                     c.src.device == c.dst.device;
  if (!local) return "per direction";
  if (c.method == CopyMethod::SmReadOnly) return "bytes read";
  if (c.method == CopyMethod::SmWriteOnly) return "bytes written";
  return "bytes copied: memory traffic is twice that";
}

CellLink copiesCell(const Measurement& m, const OutputTarget& out, const Topology& topo) {
  if (out.source == ValueSource::Copy) {
    const CopySpec& c = m.copies.at(out.copyIndex);
    return {copyPath(c, topo).link, endpointName(c.src) + " -> " + endpointName(c.dst),
            singleCopyConvention(c)};
  }
  std::vector<CopyPath> paths;
  for (const CopySpec& c : m.copies) paths.push_back(copyPath(c, topo));
  const std::string name = aggregateCellName(m.copies);
  return {{joinedNames(paths), combinedPeak(paths)},
          name,
          contains(name, "<->") ? "both directions" : "all copies at once"};
}

// Latency has no bandwidth peak; the link still says what the chase crossed.
CellLink latencyCell(const LatencySpec& l, const Topology& topo) {
  const BufferSpec chaser = BufferSpec::onDevice(l.chaseDevice, 0);
  LinkPeak link = copyPath({l.target, chaser, CopyMethod::SmCopy, l.chaseDevice, 0}, topo).link;
  if (l.target.kind == MemoryKind::Device && l.target.device == l.chaseDevice) link.name = "HBM";
  link.gbPerSecond.reset();
  return {link, endpointName(chaser) + " reading " + endpointName(l.target), "latency"};
}

}  // namespace

std::string pcieLinkName(double gts, int width) {
  const int gen = pcieGeneration(gts);
  if (gen > 0) return "PCIe Gen" + std::to_string(gen) + " x" + std::to_string(width);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f", gts);
  return std::string("PCIe ") + rate + " GT/s x" + std::to_string(width);
}

LinkPeak hostLinkPeak(const GpuLinkFacts& gpu) {
  if (gpu.c2c.value_or(false)) return {"C2C", std::nullopt};
  if (!gpu.pcie) return {};
  return {pcieLinkName(gpu.pcie->currentGts, gpu.pcie->currentWidth),
          pcieGbPerSecond(gpu.pcie->currentGts, gpu.pcie->currentWidth)};
}

LinkPeak peerLinkPeak(const GpuLinkFacts& a, const GpuLinkFacts& b) {
  if (!a.nvlinks || !b.nvlinks || a.busId.empty() || b.busId.empty()) return {};
  const std::vector<NvlinkLink> direct = linksTo(*a.nvlinks, normalizedBusId(b.busId));
  if (!direct.empty()) return bundlePeak(direct, "");
  if (std::optional<LinkPeak> switched = switchedPeak(a, b)) return *switched;
  // No NVLink between them: the copy crosses both GPUs' PCIe links.
  const LinkPeak viaPcie = slower(hostLinkPeak(a), hostLinkPeak(b));
  return viaPcie.gbPerSecond ? viaPcie : LinkPeak{};
}

LinkPeak memoryLinkPeak(const GpuLinkFacts& gpu, int trafficPerCountedByte) {
  if (!gpu.memory || gpu.memory->clockKHz <= 0 || gpu.memory->busWidthBits <= 0) return {"HBM", {}};
  const double bytesPerSecond = 2.0 * gpu.memory->clockKHz * 1e3 * (gpu.memory->busWidthBits / 8.0);
  return {"HBM", bytesPerSecond / 1e9 / trafficPerCountedByte};
}

std::vector<std::vector<CellLink>> cellLinks(const Plan& plan, const Topology& topo) {
  std::vector<std::vector<CellLink>> links;
  for (const MatrixSpec& spec : plan.matrices) links.emplace_back(spec.rows * spec.cols);
  for (const Measurement& m : plan.measurements)
    for (const OutputTarget& out : m.outputs) {
      CellLink cell = plan.multiProcess ? CellLink{}
                      : m.latency       ? latencyCell(*m.latency, topo)
                                        : copiesCell(m, out, topo);
      links.at(out.matrix).at(out.row * plan.matrices.at(out.matrix).cols + out.col) =
          std::move(cell);
    }
  return links;
}

}  // namespace nvbw
