#!/usr/bin/python3
"""The false-alarm table of the comparison rules on reports of an unchanged machine.

Usage: false_alarms.py REPORT.json REPORT.json [REPORT.json...]

Compares every ordered pair of the reports (each as baseline and as current) the way
`nvbandwidth --compare` does, under the rule before issue 19 and under the saved-report
rule, and the way a run with --baseline and --confirm judges them, the other reports standing in
for its confirmation runs (with four reports: --confirm 2). Prints one markdown table: runs
(ordered pairs), cells compared, SLOWER, FASTER and NOISY per rule, and how many of the runs would
have exited 3. On reports of an unchanged machine every SLOWER is a false alarm.

The rules, restated from src/fleet/comparison/comparison.h (cells with both sides' samples):
  noise(side) = 100 x max(2 x stddev, max - min) / median
  before:  band = max(noise(b), noise(c), 1%) (tolerance 5% without samples); beyond it SLOWER
           or FASTER.
  saved reports: band = max(5%, noise(b), noise(c)); beyond it SLOWER or FASTER only when the sides'
           closest samples differ by more than the band too, else NOISY.
  median only: as saved reports, but a cell beyond the band in the slower direction is SLOWER only
           when the median of its value and its confirmations' is still beyond the band, else
           NOISY (the rule issue 19 first asked for).
  confirmed: the median still beyond the band and, as for saved reports, the samples of every
           measurement apart from the baseline's by more than the band (what nvbandwidth does).
Standard library only.
"""

import itertools
import json
import sys

TOLERANCE = 5.0
OLD_FLOOR = 1.0


def cells_of(path):
    run = json.load(open(path))["nvbandwidth"]
    cells = {}
    for entry in run["testcases"]:
        if entry.get("status") != "Passed" or "cells" not in entry:
            continue
        for r, row in enumerate(entry["cells"]):
            for c, cell in enumerate(row):
                if cell:
                    cells[(entry["name"], r, c)] = (cell, entry.get("unit", "GB/s"))
    return cells


def noise(cell):
    if len(cell["samples"]) < 2 or cell["median"] <= 0:
        return None
    return 100.0 * max(2 * cell["stddev"], cell["max"] - cell["min"]) / cell["median"]


def change(base, cur):
    return (cur - base) / base * 100.0 if base else 0.0


def worse(delta, unit):
    return (delta > 0) == (unit == "ns")


def old_verdict(b, c, unit):
    nb, nc = noise(b), noise(c)
    band = max(nb, nc, OLD_FLOOR) if nb is not None and nc is not None else TOLERANCE
    delta = change(b["median"], c["median"])
    if abs(delta) <= band:
        return "SAME"
    return "SLOWER" if worse(delta, unit) else "FASTER"


def new_verdict(b, c, unit):
    band = max([TOLERANCE] + [n for n in (noise(b), noise(c)) if n is not None])
    delta = change(b["median"], c["median"])
    if abs(delta) <= band:
        return "SAME"
    separation = change(b["max"], c["min"]) if delta > 0 else change(b["min"], c["max"])
    if (separation > 0) != (delta > 0) or abs(separation) <= band:
        return "NOISY"
    return "SLOWER" if worse(delta, unit) else "FASTER"


def confirmed_verdict(b, c, unit, confirmations, separated=True):
    """The run rule: a cell beyond the band in the slower direction (suspect) is SLOWER only when
    the median of its first value and its confirmations is still beyond the band that way and
    (`separated`) their samples separate from the baseline's by more than the band; other cells
    as the saved-report rule judges them."""
    band = max([TOLERANCE] + [n for n in (noise(b), noise(c)) if n is not None])
    delta = change(b["median"], c["median"])
    if abs(delta) <= band or not worse(delta, unit):
        return new_verdict(b, c, unit)
    values = sorted([c["median"]] + [x["median"] for x in confirmations])
    n = len(values)
    mid = values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
    confirmed = change(b["median"], mid)
    if not (abs(confirmed) > band and worse(confirmed, unit)):
        return "NOISY"
    if not separated:
        return "SLOWER"
    # And, as for saved reports, the baseline's least favourable sample against the most
    # favourable one of the first measurement and every confirmation.
    measured = [c] + confirmations
    if unit == "ns":
        separation = change(b["max"], min(x["min"] for x in measured))
    else:
        separation = change(b["min"], max(x["max"] for x in measured))
    return "SLOWER" if abs(separation) > band and worse(separation, unit) else "NOISY"


def main(paths):
    if len(paths) < 2:
        sys.stderr.write(__doc__)
        return 2
    reports = {p: cells_of(p) for p in paths}
    rules = ("before", "saved reports", "median only", "confirmed")
    counts = {rule: {"cells": 0, "SAME": 0, "SLOWER": 0, "FASTER": 0, "NOISY": 0, "exit3": 0}
              for rule in rules}
    runs = 0
    for a, b in itertools.permutations(paths, 2):
        runs += 1
        slower = {rule: 0 for rule in rules}
        others = [p for p in paths if p not in (a, b)]
        for key, (cb, unit) in reports[a].items():
            if key not in reports[b]:
                continue
            cc = reports[b][key][0]
            confirmations = [reports[o][key][0] for o in others if key in reports[o]]
            judges = (("before", old_verdict), ("saved reports", new_verdict),
                      ("median only", lambda b_, c_, u_: confirmed_verdict(
                          b_, c_, u_, confirmations, separated=False)),
                      ("confirmed", lambda b_, c_, u_: confirmed_verdict(b_, c_, u_,
                                                                         confirmations)))
            for rule, judge in judges:
                verdict = judge(cb, cc, unit)
                counts[rule]["cells"] += 1
                counts[rule][verdict] += 1
                slower[rule] += verdict == "SLOWER"
        for rule in counts:
            counts[rule]["exit3"] += slower[rule] > 0
    print("| rule | runs | runs exiting 3 | cells | SLOWER | FASTER | NOISY |")
    print("|---|---|---|---|---|---|---|")
    for rule, n in counts.items():
        print(f"| {rule} | {runs} | {n['exit3']} | {n['cells']} | {n['SLOWER']} | {n['FASTER']} "
              f"| {n['NOISY']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
