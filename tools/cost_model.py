#!/usr/bin/env python3
"""The cost of a default run from 1 to 72 GPUs, pair by pair or in rounds, measured and modelled.

What a run does is measured on the fake platform (nvbandwidth_fake, and nvbandwidth_mpi_fake under
mpirun --oversubscribe for 8 ranks of 1 GPU): with NVBW_FAKE_COUNTS it logs, per testcase, its
measurements, rounds, samples, copies (bytes, and per sample the largest copy's bytes), latency
samples, fills and checks, through the real buffer pool and the real fill and check decisions;
its report gives the peak host and device memory and the report's size.

How long that takes on an H200 is modelled from real reports' `timing`:
  copies     per sample (loopCount + 4 warm-up passes) x the largest copy of the group / the
             copy's bandwidth (the cell's median value, divided by the copies a fan's cell
             aggregates); the copies of a round run at once, each on its own link; one factor
             makes the calibration run's sum its wait_seconds
  latency    latency_seconds per pointer-chase sample; a round's chases run at once
  fill       fill_seconds per byte filled       } per byte of the report's `operations`, or
  check      verification_seconds per byte      } (older reports) what the fake counts; a
                                                  round's run on its GPUs at once
  allocation allocation and release seconds per byte allocated (the report's `memory`)
  other      what is left of the wall time, per sample (launches, events, waits, the latch)
The rates come from one calibration report (one GPU); a second report (two GPUs) checks them,
and the table says how far off each is. Bandwidths come from the calibration report where it
has the matrix, else from the check report, else from the median of the check report's
device-to-device cells (multinode titles, more GPUs).

Upstream's pair by pair is the same model with upstream's work: every measurement allocates and
frees its buffers, every sample fills source and destination and checks the destination.

  cost_model.py --fake BUILD/tests/nvbandwidth_fake --calibration ONE_GPU.json \\
      --check TWO_GPU.json [--upstream-walls WALLS.txt] [--mpi-fake BIN --mpirun MPIRUN] \\
      [--gpus 1,2,8,16,72] [--json OUT.json]
Prints a Markdown table. Exit status 0, or 1 when a fake run fails.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

WARMUP_PASSES = 4  # the sample protocol's warm-up copies before the timed ones


def read_report(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["nvbandwidth"]


def fake_run(binary, gpus, schedule, mpirun=None, ranks=0, extra=()):
    """Runs a default -j report on the fake; returns (plan lines, report text)."""
    with tempfile.TemporaryDirectory() as tmp:
        counts = os.path.join(tmp, "counts.jsonl")
        env = dict(os.environ, NVBW_FAKE_GPUS=str(gpus), NVBW_FAKE_LINKS="nvswitch",
                   NVBW_FAKE_COUNTS=counts, NVBANDWIDTH_DISABLE_MULTICAST="1")
        args = [binary, "-j", "--schedule", schedule] + list(extra)
        if mpirun:
            env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
            forwarded = []
            for name in ("NVBW_FAKE_GPUS", "NVBW_FAKE_LINKS", "NVBW_FAKE_COUNTS",
                         "NVBANDWIDTH_DISABLE_MULTICAST"):
                forwarded += ["-x", name]
            # Each rank takes one GPU of the host's; the multinode testcases only.
            args = [mpirun, "--allow-run-as-root", "--oversubscribe", "-n", str(ranks)] + \
                forwarded + args + ["-p", "multinode"]
        done = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
        with open(counts, encoding="utf-8") as f:
            plans = [json.loads(line) for line in f if line.strip()]
        return plans, done.stdout


def matrix_values(doc):
    """Title -> median of the matrix's measured values."""
    values = {}
    for entry in doc.get("testcases", []):
        title = entry.get("bandwidth_description")
        cells = [v for row in entry.get("values", []) for v in row if v is not None]
        if title and cells and title not in values:
            values[title] = statistics.median(cells)
    return values


def d2d_fallback(doc):
    cells = [v for e in doc.get("testcases", []) if e.get("name", "").startswith("device_to_device")
             and e.get("unit") == "GB/s" for row in e.get("values", []) for v in row
             if v is not None]
    return statistics.median(cells)


class Bandwidths:
    def __init__(self, calibration, check):
        self.primary = matrix_values(calibration)
        self.secondary = matrix_values(check)
        self.fallback = d2d_fallback(check)

    def of(self, title):
        return self.primary.get(title) or self.secondary.get(title) or self.fallback


def copy_seconds(plan, settings, bandwidths, efficiency=1.0):
    """Wall seconds of a plan's copies: per sample, the largest copy of its group."""
    if plan["copies"] == 0:
        return 0.0
    per_copy = bandwidths.of(plan["title"]) * 1e9 / plan.get("cell_copies", 1)
    passes = settings["loopCount"] + WARMUP_PASSES
    return passes * plan["longest_copy_bytes"] / per_copy / efficiency


def concurrency(plan):
    """Measurements that run at once: a round's fills and checks run on its GPUs together."""
    return plan["measurements"] / plan["rounds"] if plan["rounds"] else 1.0


def buffer_seconds(plan, rates):
    """Fills and checks of a plan."""
    filled = plan["fill_host_bytes"] + plan["fill_device_bytes"]
    checked = plan["check_host_bytes"] + plan["check_device_bytes"]
    return (filled * rates.fill + checked * rates.check) / concurrency(plan)


def totals(plans):
    keys = ("samples", "copies", "copy_bytes", "chases", "fill_host_bytes", "fill_device_bytes",
            "check_host_bytes", "check_device_bytes", "measurements", "rounds")
    return {k: sum(p[k] for p in plans) for k in keys}


class Rates:
    """Seconds per unit of work, from a report and the fake's counts for its GPU count."""

    def __init__(self, doc, plans, bandwidths):
        t = doc["timing"]
        m = doc["memory"]
        n = totals(plans)
        ops = doc.get("operations")
        if ops:  # the report's own counts (reports of this release on), else the fake's
            n.update(samples=ops["samples"], chases=ops["chases"],
                     fill_host_bytes=ops["fills"]["host_bytes"],
                     fill_device_bytes=ops["fills"]["device_bytes"],
                     check_host_bytes=ops["checks"]["host_bytes"],
                     check_device_bytes=ops["checks"]["device_bytes"])
        settings = doc["settings"]
        filled = n["fill_host_bytes"] + n["fill_device_bytes"]
        checked = n["check_host_bytes"] + n["check_device_bytes"]
        allocated = m["host_bytes_allocated"] + m["device_bytes_allocated"]
        self.fill = t["fill_seconds"] / filled if filled else 0.0
        self.check = t["verification_seconds"] / checked if checked else 0.0
        self.allocate = t["allocation_seconds"] / allocated if allocated else 0.0
        self.release = t["release_seconds"] / allocated if allocated else 0.0
        self.chase = t["latency_seconds"] / n["chases"] if n["chases"] else 0.0
        # The copies' wall time is what the host waited for the streams: the bandwidths (medians
        # of 3 samples, timed without the warm-up) give the model's, one factor makes it that.
        modelled = sum(copy_seconds(p, settings, bandwidths) for p in plans)
        self.efficiency = modelled / t["wait_seconds"] if t["wait_seconds"] else 1.0
        known = t["wait_seconds"] + t["fill_seconds"] + t["verification_seconds"] + \
            t["allocation_seconds"] + t["release_seconds"] + t["latency_seconds"]
        self.sample = max(0.0, t["wall_seconds"] - known) / n["samples"]


def predict_outside(plans, allocated_bytes, rates):
    """What a run spends outside its timed copies and pointer chases: fills, checks, allocation
    and release, and the rest per sample (launches, events, the latch)."""
    return (sum(buffer_seconds(p, rates) for p in plans)
            + allocated_bytes * (rates.allocate + rates.release)
            + totals(plans)["samples"] * rates.sample)


def predict(plans, allocated_bytes, settings, rates, bandwidths):
    return (sum(copy_seconds(p, settings, bandwidths, rates.efficiency) for p in plans)
            + sum(p["chases"] * rates.chase / concurrency(p) for p in plans)
            + predict_outside(plans, allocated_bytes, rates))


def predict_upstream(plans, settings, rates, bandwidths):
    """Upstream v0.8, pair by pair: buffers allocated and freed per measurement, both filled and
    the destination checked every sample."""
    seconds = 0.0
    samples = settings["testSamples"]
    for p in plans:
        buffer_bytes = 2 * p["copy_bytes"] / samples if samples else 0  # per measurement, summed
        seconds += copy_seconds(p, settings, bandwidths, rates.efficiency)
        seconds += p["chases"] * rates.chase
        seconds += buffer_bytes * (rates.allocate + rates.release)
        seconds += 2 * p["copy_bytes"] * rates.fill + p["copy_bytes"] * rates.check
        seconds += p["samples"] * rates.sample
    return seconds


def upstream_walls(path):
    """Seconds of upstream's runs in a walls.txt ("upstream.N rc=0 wall_ms=MS" lines)."""
    with open(path, encoding="utf-8") as f:
        return [int(m.group(1)) / 1000 for m in
                re.finditer(r"^upstream\S* rc=0 wall_ms=(\d+)", f.read(), re.M)]


def gib(n):
    return f"{n / 2**30:.1f} GiB"


def size(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def duration(s):
    if s < 120:
        return f"{s:.1f} s"
    if s < 7200:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fake", required=True)
    parser.add_argument("--calibration", required=True, help="a default -j report of one GPU")
    parser.add_argument("--check", required=True, help="a default -j report of two GPUs")
    parser.add_argument("--upstream-walls", help="walls.txt with upstream's wall times (2 GPUs)")
    parser.add_argument("--mpi-fake")
    parser.add_argument("--mpirun")
    parser.add_argument("--gpus", default="1,2,8,16,72")
    parser.add_argument("--sampled", default="8,16,72",
                        help="GPU counts also run with -P (as many pairs as GPUs: each covered)")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    parser.add_argument("--select", default="",
                        help="options added to every run of the table, e.g. '-p device_to_device'")
    args = parser.parse_args()

    calibration = read_report(args.calibration)
    check = read_report(args.check)
    settings = calibration["settings"]
    bandwidths = Bandwidths(calibration, check)
    cal_gpus = len(calibration["GPU Device list"])
    cal_plans, _ = fake_run(args.fake, cal_gpus, "pairs")
    rates = Rates(calibration, cal_plans, bandwidths)

    select = tuple(args.select.split())
    configs = [(int(g), "", 0, select) for g in args.gpus.split(",")]
    configs += [(int(g), "", 0, select + ("-P", g)) for g in args.sampled.split(",") if g]
    if args.mpi_fake and args.mpirun:
        configs.append((8, "mpi", 8, ()))
    rows = []
    for gpus, kind, ranks, extra in configs:
        for schedule in ("pairs", "rounds"):
            if kind == "mpi":
                plans, text = fake_run(args.mpi_fake, gpus, schedule, args.mpirun, ranks)
            else:
                plans, text = fake_run(args.fake, gpus, schedule, extra=extra)
            doc = json.loads(text)["nvbandwidth"]
            memory = doc["memory"]
            allocated = memory["host_bytes_allocated"] + memory["device_bytes_allocated"]
            n = totals(plans)
            row = {
                "gpus": gpus, "ranks": ranks, "schedule": schedule, "options": " ".join(extra),
                "testcases": len(plans), "measurements": n["measurements"],
                "rounds": n["rounds"], "samples": n["samples"], "copies": n["copies"],
                "seconds": predict(plans, allocated, settings, rates, bandwidths),
                "outside_seconds": predict_outside(plans, allocated, rates),
                "upstream_seconds": predict_upstream(plans, settings, rates, bandwidths)
                if schedule == "pairs" else None,
                "peak_host_bytes": memory["peak_host_bytes"],
                "peak_device_bytes": memory["peak_device_bytes"],
                "report_bytes": len(text.encode()),
            }
            rows.append(row)

    print("| GPUs | options | schedule | testcases | measurements | rounds | predicted time | "
          "upstream v0.8 | peak host | peak per GPU | -j report |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        gpus = f"{r['ranks']} ranks x 1" if r["ranks"] else str(r["gpus"])
        upstream = duration(r["upstream_seconds"]) if r["upstream_seconds"] is not None else ""
        # Memory shared between processes is not the pool's: not counted (see below).
        host = gib(r["peak_host_bytes"]) if not r["ranks"] else "not counted"
        device = gib(r["peak_device_bytes"]) if not r["ranks"] else "not counted"
        print(f"| {gpus} | {r['options']} | {r['schedule']} | {r['testcases']} | {r['measurements']} | "
              f"{r['rounds']} | {duration(r['seconds'])} | {upstream} | {host} | {device} | "
              f"{size(r['report_bytes'])} |")

    print()
    print("How far off (the model against real runs):")
    for label, doc in (("calibration", calibration), ("check", check)):
        gpus = len(doc["GPU Device list"])
        plans, text = fake_run(args.fake, gpus, "pairs")
        memory = json.loads(text)["nvbandwidth"]["memory"]
        allocated = memory["host_bytes_allocated"] + memory["device_bytes_allocated"]
        model = predict(plans, allocated, settings, rates, bandwidths)
        real = doc["timing"]["wall_seconds"]
        print(f"- {label} ({gpus} GPU{'s' if gpus > 1 else ''}): model {model:.1f} s, "
              f"measured {real:.1f} s, {100 * (model - real) / real:+.1f}%")
        if label == "check" and args.upstream_walls:
            walls = upstream_walls(args.upstream_walls)
            up = predict_upstream(plans, settings, rates, bandwidths)
            if walls:
                med = statistics.median(walls)
                print(f"- upstream v0.8 ({gpus} GPUs): model {up:.1f} s, measured {med:.1f} s "
                      f"(median of {len(walls)}), {100 * (up - med) / med:+.1f}%")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print(f"cost_model.py: {e}", file=sys.stderr)
        sys.exit(1)
