#!/usr/bin/python3
"""How often the verdicts catch a degraded node, and how often they fail a healthy one.

Usage: verdict_power.py --binary NVBANDWIDTH [--fake NVBANDWIDTH_FAKE] [--healthy-binary NVBW]
                        [--sections compare,baselines,confirm,summarize] [--seeds N] [--jobs N]
                        [--check] MACHINE_DIR...

Each MACHINE_DIR holds real `-j` reports of one unchanged machine (tests/golden/run_to_run, and
tests/golden/run_to_run_x2). The reports are doctored: every sample of every measured cell made
worse by a slowdown F (bandwidth x (1 - F), latency x (1 + F)) and multiplied by 1 + CV x z (z
standard normal, a sample noise of coefficient of variation CV), and with CV > 0 about one
sample in 30 an outlier 4 CV worse again (the noise of a node that is unstable has a tail); the
cell's statistics and value are recomputed from the doctored samples. F in {0, 5, 10, 20, 40}%,
CV in {0, 2, 5, 10, 15}%, SEEDS seeds where CV > 0 (one where there is no noise to draw).

Sections (each prints a table: per (F, CV) the share of judgeable cells detected, i.e. given a
failing verdict, SLOWER or UNSTABLE; at F = 0 the failing cells of all):
  compare    `--compare A B'` for every ordered pair (A, B) of one machine's reports;
  baselines  `--compare OTHERS... B'`: the machine's other reports as the baseline;
  confirm    runs of the fake (--fake) with --baseline against a healthy fake run, its copies
             slowed by NVBW_FAKE_SLOWDOWN=F and made noisy by NVBW_FAKE_NOISE=CV (the
             confirmation runs see the same machine);
  summarize  `--summarize OTHERS... B'`: the doctored node among its healthy peers; per
             (F, CV) the share of the doctored node's judgeable testcase columns flagged, and
             the healthy nodes' flagged columns (false alarms).
A cell is judgeable at F when its healthy spread (the comparison's `healthy_spread_percent` of
the baseline side, from --healthy-binary, by default --binary) is below F/4: a slowdown four
times the spread of healthy runs must be found. A summarize column is judgeable when every cell
of it is.

--check: exit 1 unless detection is >= 95% at (F >= 10%, CV <= 2%), (F >= 20%, CV <= 5%) and
(F = 40%, CV <= 15%) in every section but summarize, and no cell fails at F = 0, CV = 0 (the
unchanged reports against each other; the fake against itself); summarize: the same detection
targets for the judgeable columns, and no healthy node flagged. Standard library only.
"""

import argparse
import concurrent.futures
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import zlib
from fractions import Fraction

SLOWDOWNS = (0, 5, 10, 20, 40)
NOISES = (0, 2, 5, 10, 15)
OUTLIER_EVERY = 30
OUTLIER_CVS = 4.0
FAILING = ("SLOWER", "UNSTABLE")
TARGETS = [(f, cv) for f in (10, 20, 40) for cv in (0, 2)] + \
          [(f, cv) for f in (20, 40) for cv in (5,)] + [(40, cv) for cv in (10, 15)]
TARGET_SHARE = 0.95


# ---- doctoring ----------------------------------------------------------------------------

def noise_factor(rng, cv, latency):
    if cv <= 0:
        return 1.0
    factor = 1.0 + cv * rng.gauss(0.0, 1.0)
    if rng.randrange(OUTLIER_EVERY) == 0:
        factor += (1.0 if latency else -1.0) * OUTLIER_CVS * cv
    return max(factor, 0.05)


def exact_stdev(samples):
    """statistics.stdev(samples), the same float, without its Fraction per sample (two thirds
    of the time spent doctoring a report): the floats as integers over their largest
    denominator (all powers of two), the sum of squared deviations exact in integers, and the
    square root of the variance correctly rounded by statistics' own function, as stdev does."""
    sqrt_of_frac = getattr(statistics, "_float_sqrt_of_frac", None)
    if sqrt_of_frac is None:  # another Python's statistics module
        return statistics.stdev(samples)
    ratios = [s.as_integer_ratio() for s in samples]
    scale = max(d for _, d in ratios)
    ints = [n * (scale // d) for n, d in ratios]
    count, total = len(ints), sum(ints)
    variance = Fraction(count * sum(i * i for i in ints) - total * total,
                        count * (count - 1) * scale * scale)
    return sqrt_of_frac(variance.numerator, variance.denominator)


def cell_statistics(samples):
    mean = statistics.fmean(samples)
    stddev = exact_stdev(samples) if len(samples) > 1 else 0.0
    return {"samples": samples, "min": min(samples), "max": max(samples), "mean": mean,
            "median": statistics.median(samples), "stddev": stddev,
            "cv": stddev / mean if mean else None}


MATRICES = ("cells", "values", "bandwidth_matrix", "percent_of_peak")


def editable_copy(report):
    """A copy of `report` that doctor() may change without changing `report`: new dicts down to
    the testcases and new rows of their matrices (doctor() replaces cells, never changes one);
    the rest is shared. The JSON text is the same as a deep copy's, at a fraction of the cost of
    json.loads(json.dumps(report)) per case."""
    doc = dict(report)
    run = doc["nvbandwidth"] = dict(report["nvbandwidth"])
    if "testcases" in run:
        run["testcases"] = [dict(entry) for entry in run["testcases"]]
        for entry in run["testcases"]:
            for key in MATRICES:
                if isinstance(entry.get(key), list):
                    entry[key] = [list(row) if isinstance(row, list) else row
                                  for row in entry[key]]
    return doc


def doctor(report, slowdown, cv, seed):
    """A copy of `report` with every measured cell slowed by `slowdown` and noise of `cv`
    (fractions), drawn from `seed`."""
    doc = editable_copy(report)
    rng = random.Random(seed)
    run = doc["nvbandwidth"]
    run.pop("comparison", None)
    run.pop("confirmations", None)
    statistic = run.get("settings", {}).get("statistic", "median")
    for entry in run["testcases"]:
        if entry.get("status") != "Passed" or "cells" not in entry:
            continue
        latency = entry.get("unit") == "ns"
        worse = 1.0 + slowdown if latency else 1.0 - slowdown
        total = 0.0
        for r, row in enumerate(entry["cells"]):
            for c, cell in enumerate(row):
                if not cell:
                    continue
                samples = [s * worse * noise_factor(rng, cv, latency) for s in cell["samples"]]
                stats = cell_statistics(samples)
                row[c] = stats
                value = stats["mean"] if statistic == "mean" else stats["median"]
                entry["values"][r][c] = value
                entry["bandwidth_matrix"][r][c] = "%g" % value
                total += value
                peaks = entry.get("peak_GBps")
                if peaks and peaks[r][c] and entry.get("percent_of_peak"):
                    entry["percent_of_peak"][r][c] = value / peaks[r][c] * 100.0
        entry["sum"] = total
    return doc


# ---- running --------------------------------------------------------------------------------

class Runner:
    def __init__(self, jobs):
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        self.tmp = tempfile.TemporaryDirectory(prefix="verdict_power_")
        self.count = itertools.count()

    def write(self, doc):
        path = os.path.join(self.tmp.name, "r%d.json" % next(self.count))
        with open(path, "w") as f:
            # The same text as json.dump's, at C speed (json.dump encodes in Python: it was half
            # of the time spent doctoring a report).
            f.write(json.dumps(doc))
        return path

    def json_of(self, args, env=None):
        full = dict(os.environ, **(env or {}))
        done = subprocess.run(args, capture_output=True, text=True, env=full, timeout=120)
        if done.returncode not in (0, 3):
            raise RuntimeError("%s: exit %d\n%s" % (" ".join(args), done.returncode, done.stderr))
        return json.loads(done.stdout)["nvbandwidth"]

    def map(self, fn, items):
        return list(self.pool.map(fn, items))


def verdicts_of(comparison):
    """{(name, row, col): cell} of a comparison section."""
    return {(c["name"], c["row"], c["col"]): c for c in comparison["cells"]}


def seed_of(*parts):
    """A seed from the case, the same in every process (Python's hash() of strings is not)."""
    return zlib.crc32(repr(parts).encode())


def seeds_for(cv, seeds):
    return range(1, seeds + 1) if cv > 0 else range(1, 2)


class Tally:
    """Detected and judgeable cells per (F, CV); at F = 0 failing cells of all."""

    def __init__(self, verdicts=True):
        self.cells = {}
        self.verdicts = verdicts  # False: flags of --summarize, which has no verdicts
        self.unjudgeable = {}     # testcase -> smallest healthy spread of a cell never judgeable

    def add(self, f, cv, healthy, verdict, where):
        row = self.cells.setdefault((f, cv), {"n": 0, "hit": 0, "noisy": 0, "SLOWER": 0,
                                               "UNSTABLE": 0, "missed": {}})
        if f == 0:
            row["n"] += 1
            if verdict in FAILING:
                row["hit"] += 1
                row[verdict] += 1
            return
        if healthy is None or healthy >= f / 4.0:
            if f == SLOWDOWNS[-1] and healthy is not None:
                self.unjudgeable[where] = min(self.unjudgeable.get(where, healthy), healthy)
            return
        row["n"] += 1
        if verdict in FAILING:
            row["hit"] += 1
        else:
            row["missed"][where] = row["missed"].get(where, 0) + 1
            row["noisy"] += verdict == "NOISY"

    def share(self, f, cv):
        row = self.cells.get((f, cv))
        return None if not row or not row["n"] else row["hit"] / row["n"]

    def table(self, title, unit="cells"):
        lines = ["### " + title, "",
                 "| F \\ CV | " + " | ".join("%d%%" % cv for cv in NOISES) + " |",
                 "|---|" + "---|" * len(NOISES)]
        for f in SLOWDOWNS:
            cells = []
            for cv in NOISES:
                row = self.cells.get((f, cv))
                if not row or not row["n"]:
                    cells.append("no judgeable " + unit)
                elif f == 0:
                    text = "%d of %d fail" % (row["hit"], row["n"])
                    if row["hit"] and self.verdicts:
                        text += " (%d SLOWER, %d UNSTABLE)" % (row["SLOWER"], row["UNSTABLE"])
                    cells.append(text)
                else:
                    text = "%.0f%% (%d/%d)" % (100.0 * row["hit"] / row["n"], row["hit"], row["n"])
                    if row["noisy"]:
                        text += ", %d NOISY" % row["noisy"]
                    cells.append(text)
            lines.append("| %d%% | %s |" % (f, " | ".join(cells)))
        if self.unjudgeable:
            lines += ["", "Not judgeable even at F = %d%% (the healthy spread of a cell of theirs "
                      "is %g%% or more, so a slowdown of F is within what healthy runs do): %s." %
                      (SLOWDOWNS[-1], SLOWDOWNS[-1] / 4.0, ", ".join(
                          "%s (%.1f%%)" % kv for kv in sorted(self.unjudgeable.items())))]
        return "\n".join(lines) + "\n"

    def misses(self):
        """Where the targets were missed: (f, cv, share, {testcase: misses})."""
        out = []
        for f, cv in TARGETS:
            share = self.share(f, cv)
            if share is not None and share < TARGET_SHARE:
                out.append((f, cv, share, self.cells[(f, cv)]["missed"]))
        return out

    def false_alarms(self):
        row = self.cells.get((0, 0))
        return row["hit"] if row else 0


def load_machines(dirs):
    machines = []
    for d in dirs:
        paths = sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".json"))
        machines.append([(p, json.load(open(p))) for p in paths])
    return machines


def healthy_spreads(runner, healthy_binary, baseline_paths, current_path):
    """{(name, row, col): healthy spread} of the baseline side, from a comparison with the
    undoctored current report."""
    run = runner.json_of([healthy_binary, "-j", "--compare"] + baseline_paths + [current_path])
    return {k: c.get("healthy_spread_percent") for k, c in verdicts_of(run["comparison"]).items()}


def doctored_cases(machines, seeds, leave_one_out):
    """(machine index, baseline reports, current report, F, CV, seed) for every case."""
    for m, reports in enumerate(machines):
        if leave_one_out:
            if len(reports) < 3:
                continue
            pairs = [([r for r in reports if r is not cur], cur) for cur in reports]
        else:
            pairs = [([a], b) for a, b in itertools.permutations(reports, 2)]
        for baselines, current in pairs:
            for f in SLOWDOWNS:
                for cv in NOISES:
                    for seed in seeds_for(cv, seeds):
                        yield m, baselines, current, f, cv, seed


def judge_doctored(runner, args, option, healthy_cache):
    """A function of one doctored case: the healthy spreads of its baseline side (cached), then
    `BINARY -j OPTION BASELINES... DOCTORED` run; returns (case, cache key, the doctored file's
    name, the run's document)."""
    def one(case):
        _, baselines, current, f, cv, seed = case
        key = (tuple(p for p, _ in baselines), current[0])
        if key not in healthy_cache:
            healthy_cache[key] = healthy_spreads(runner, args.healthy_binary,
                                                 [p for p, _ in baselines], current[0])
        path = runner.write(doctor(current[1], f / 100.0, cv / 100.0, seed_of(key, f, cv, seed)))
        run = runner.json_of([args.binary, "-j", option] + [p for p, _ in baselines] + [path])
        os.remove(path)
        return case, key, path, run
    return one


def compare_section(runner, args, machines, leave_one_out):
    tally = Tally()
    healthy_cache = {}
    one = judge_doctored(runner, args, "--compare", healthy_cache)
    for case, key, _, run in runner.map(one, list(doctored_cases(machines, args.seeds,
                                                                 leave_one_out))):
        _, _, _, f, cv, _ = case
        healthy = healthy_cache[key]
        for k, cell in verdicts_of(run["comparison"]).items():
            tally.add(f, cv, healthy.get(k), cell["verdict"], cell.get("testcase", k[0]))
    return tally


def confirm_section(runner, args):
    tally = Tally()
    env = {"NVBW_FAKE_GPUS": "2"}
    done = subprocess.run([args.fake, "-j"], capture_output=True, text=True,
                          env=dict(os.environ, **env), timeout=120)
    base = runner.write(json.loads(done.stdout))
    healthy = {k: c["healthy_spread_percent"] for k, c in verdicts_of(
        runner.json_of([args.healthy_binary, "-j", "--compare", base, base])["comparison"]).items()}
    cases = [(f, cv, seed) for f in SLOWDOWNS for cv in NOISES for seed in seeds_for(cv, args.seeds)]

    def one(case):
        f, cv, seed = case
        knobs = dict(env, NVBW_FAKE_SLOWDOWN=str(f), NVBW_FAKE_NOISE=str(cv),
                     NVBW_FAKE_SEED=str(seed))
        return case, verdicts_of(runner.json_of([args.fake, "-j", "--baseline", base],
                                                knobs)["comparison"])

    for (f, cv, _), cells in runner.map(one, cases):
        for k, cell in cells.items():
            tally.add(f, cv, healthy.get(k), cell["verdict"], cell.get("testcase", k[0]))
    return tally


def summarize_section(runner, args, machines):
    sick = Tally(verdicts=False)
    healthy_flags = {}  # (F, CV) -> [flagged healthy columns, healthy columns]
    healthy_cache = {}
    one = judge_doctored(runner, args, "--summarize", healthy_cache)
    for case, key, path, run in runner.map(one, list(doctored_cases(machines, args.seeds, True))):
        _, _, _, f, cv, _ = case
        summary = run["summary"]
        worst = {}
        for (name, _, _), spread in healthy_cache[key].items():
            if spread is not None:
                worst[name] = max(worst.get(name, 0.0), spread)
        counts = healthy_flags.setdefault((f, cv), [0, 0])
        for node in summary["nodes"]:
            for result in node["results"]:
                if result.get("status") not in ("Passed", "failed"):
                    continue
                flagged = bool(result.get("sum_flagged") or result.get("worst_flagged") or
                               result.get("status") == "failed")
                if node["file"] == path:
                    sick.add(f, cv, worst.get(result["key"]), "SLOWER" if flagged else "SAME",
                             result["key"])
                else:
                    counts[0] += flagged
                    counts[1] += 1
    return sick, healthy_flags


def healthy_table(flags):
    lines = ["", "Healthy nodes' columns flagged (false alarms), per (F, CV) of the doctored one:",
             "", "| F \\ CV | " + " | ".join("%d%%" % cv for cv in NOISES) + " |",
             "|---|" + "---|" * len(NOISES)]
    for f in SLOWDOWNS:
        lines.append("| %d%% | %s |" % (f, " | ".join(
            "%d of %d" % tuple(flags.get((f, cv), (0, 0))) for cv in NOISES)))
    return "\n".join(lines) + "\n"


def report_misses(name, tally, problems):
    for f, cv, share, missed in tally.misses():
        worst = ", ".join("%s %d" % kv for kv in sorted(missed.items(), key=lambda kv: -kv[1])[:4])
        problems.append("%s: F=%d%% CV=%d%%: %.1f%% detected, below %.0f%% (missed: %s)" %
                        (name, f, cv, 100 * share, 100 * TARGET_SHARE, worst))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True)
    p.add_argument("--healthy-binary")
    p.add_argument("--fake")
    p.add_argument("--sections", default="compare,baselines,confirm,summarize")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--check", action="store_true")
    p.add_argument("machines", nargs="+")
    args = p.parse_args(argv)
    args.healthy_binary = args.healthy_binary or args.binary
    sections = args.sections.split(",")
    machines = load_machines(args.machines)
    runner = Runner(args.jobs)
    problems = []
    def publish(name, title, tally, alarms):
        print(tally.table(title))
        report_misses(name, tally, problems)
        if tally.false_alarms():
            problems.append("%s: %d cells fail %s" % (name, tally.false_alarms(), alarms))

    if "compare" in sections:
        publish("compare", "--compare A B': one baseline report (every ordered pair of a "
                "machine's reports)", compare_section(runner, args, machines, False),
                "between unchanged reports")
    if "baselines" in sections:
        publish("baselines", "--compare OTHERS... B': the machine's other reports as the baseline",
                compare_section(runner, args, machines, True), "between unchanged reports")
    if "confirm" in sections:
        if not args.fake:
            p.error("the confirm section needs --fake")
        publish("confirm", "--baseline with confirmation, fake platform (2 GPUs): its copies "
                "slowed and noisy", confirm_section(runner, args), "on the unchanged fake")
    if "summarize" in sections:
        t, flags = summarize_section(runner, args, machines)
        print(t.table("--summarize: the doctored node's testcase columns flagged among its "
                      "healthy peers", "columns") + healthy_table(flags))
        report_misses("summarize", t, problems)
        alarms = sum(v[0] for v in flags.values()) + t.false_alarms()
        if alarms:
            problems.append("summarize: %d columns of unchanged nodes flagged" % alarms)
    for line in problems:
        print(("FAILED: " if args.check else "target missed: ") + line)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
