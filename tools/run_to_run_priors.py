#!/usr/bin/python3
"""The prior run-to-run spread per testcase, measured from reports of unchanged machines.

Usage: run_to_run_priors.py [--check PRIORS.cpp] FOLDER [FOLDER...]

Each FOLDER holds the `-j` reports of one unchanged machine (several default runs, nothing changed
between them). For every testcase, over the cells of its matrices and over the machines, the
script takes the largest

  run-to-run spread  100 x max(2 x stddev, max - min) / median of the cell's values in the
                     machine's reports (the tool's noise formula, applied to whole runs), and
  within-run spread  the same of one cell's samples in one report,

rounded up to 0.01. A testcase no report measured takes the largest of its family's (the
families: host, host bidirectional, host latency, device-to-device, device-to-device latency,
device local; "other" the largest of all). The comparison (include/nvbandwidth/fleet/comparison/healthy_band.h)
uses these where the baseline is one report, which cannot say how far its cells move from run to
run.

Prints the table as C++ rows for src/fleet/comparison/run_to_run_priors.cpp and as markdown.
--check PRIORS.cpp: exit 1 unless the file's rows are exactly the ones the reports give (each
testcase and family, both spreads), printing every difference.
Standard library only.
"""

import glob
import json
import math
import os
import re
import statistics
import sys

FAMILIES = ("host", "host bidirectional", "host latency", "device-to-device",
            "device-to-device latency", "device local", "other")


def family_of(name):
    """The family of a testcase by its name, as healthy_band.cpp's familyOf says."""
    if "latency" in name:
        return "host latency" if "host" in name else "device-to-device latency"
    if "device_local" in name:
        return "device local"
    if "host" in name:
        return "host bidirectional" if "bidirectional" in name else "host"
    if name.startswith("device_to_device") or name.startswith("multinode"):
        return "device-to-device"
    if "all_to_one" in name or "one_to_all" in name:
        return "device-to-device"
    return "other"


def spread(values):
    if len(values) < 2:
        return None
    middle = statistics.median(values)
    if middle <= 0:
        return None
    return 100.0 * max(2 * statistics.stdev(values), max(values) - min(values)) / middle


def ceil2(x):
    return math.ceil(x * 100.0 - 1e-9) / 100.0


def cells_of(report):
    """{(testcase, matrix, row, col): cell statistics} of a report's passed matrices."""
    cells = {}
    for entry in report["nvbandwidth"]["testcases"]:
        if entry.get("status") != "Passed" or "cells" not in entry:
            continue
        testcase = entry.get("testcase", entry["name"])
        for r, row in enumerate(entry["cells"]):
            for c, cell in enumerate(row):
                if cell:
                    cells[(testcase, entry["name"], r, c)] = cell
    return cells


def measure(folders):
    """{testcase: [run-to-run, within-run]} over every machine's folder."""
    found = {}
    for folder in folders:
        reports = [cells_of(json.load(open(p))) for p in sorted(glob.glob(folder + "/*.json"))]
        if len(reports) < 2:
            raise SystemExit("%s: fewer than 2 reports" % folder)
        for key in set().union(*reports):
            present = [r[key] for r in reports if key in r]
            across = spread([cell["median"] for cell in present])
            within = [spread(cell["samples"]) for cell in present]
            row = found.setdefault(key[0], [0.0, 0.0])
            if across is not None:
                row[0] = max(row[0], across)
            row[1] = max([row[1]] + [w for w in within if w is not None])
    return {name: [ceil2(v) for v in row] for name, row in found.items()}


def families(priors):
    out = {f: [0.0, 0.0] for f in FAMILIES}
    for name, (across, within) in priors.items():
        for f in (family_of(name), "other"):
            out[f] = [max(out[f][0], across), max(out[f][1], within)]
    return out


ROW = re.compile(r'\{"([^"]+)",\s*([0-9.]+),\s*([0-9.]+)\}')


def check(path, expected):
    text = open(path).read()
    found = {m.group(1): [float(m.group(2)), float(m.group(3))] for m in ROW.finditer(text)}
    problems = []
    for name, row in sorted(expected.items()):
        if name not in found:
            problems.append("%s: missing (the reports give %s)" % (name, row))
        elif any(abs(a - b) > 1e-9 for a, b in zip(found[name], row)):
            problems.append("%s: %s in the file, %s from the reports" % (name, found[name], row))
    for name in sorted(set(found) - set(expected)):
        problems.append("%s: in the file, not measured by the reports" % name)
    for p in problems:
        print("run_to_run_priors: " + p)
    return 1 if problems else 0


def main(argv):
    target = None
    if argv[:1] == ["--check"]:
        if len(argv) < 3:
            sys.stderr.write(__doc__)
            return 2
        target, argv = argv[1], argv[2:]
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    priors = measure(argv)
    fams = families(priors)
    if target:
        return check(target, dict(priors, **fams))
    print("// testcases")
    for name in sorted(priors):
        print('    {"%s", %.2f, %.2f},' % (name, priors[name][0], priors[name][1]))
    print("// families")
    for f in FAMILIES:
        print('    {"%s", %.2f, %.2f},' % (f, fams[f][0], fams[f][1]))
    print()
    print("| testcase | run-to-run % | within-run % |")
    print("|---|---|---|")
    for name in sorted(priors):
        print("| %s | %.2f | %.2f |" % (name, priors[name][0], priors[name][1]))
    for f in FAMILIES:
        print("| (family) %s | %.2f | %.2f |" % (f, fams[f][0], fams[f][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
