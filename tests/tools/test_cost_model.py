#!/usr/bin/python3
"""Runs tools/cost_model.py on the fake for 1, 2 and 8 GPUs (and 8 ranks under mpirun when given)
and checks what it prints: a row per GPU count and schedule, rounds fewer than measurements and
faster than pair by pair from 8 GPUs on, upstream's time beside pair by pair only,
-P rows with fewer measurements, and how far off the model is from the calibration and check
reports. Not timed: CI prints the whole table (1 to 72 GPUs) with the tool itself.

Usage: test_cost_model.py SOURCE_DIR FAKE [MPI_FAKE MPIRUN]
"""

import json
import os
import re
import subprocess
import sys
import tempfile


def main(source, fake, mpi_fake=None, mpirun=None):
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        rows_file = os.path.join(folder, "rows.json")
        args = ["/usr/bin/python3", os.path.join(source, "tools", "cost_model.py"),
                "--fake", fake,
                "--calibration", os.path.join(source, "tests/golden/run_to_run/ours_1.json"),
                "--check", os.path.join(source, "tests/golden/run_to_run_x2/issue12_base.json"),
                "--upstream-walls", os.path.join(source, "tests/data/h200x2_walls.txt"),
                "--gpus", "1,2,8", "--sampled", "8", "--json", rows_file]
        if mpi_fake and mpirun:
            args += ["--mpi-fake", mpi_fake, "--mpirun", mpirun]
        done = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            print("FAIL: exit %d\n%s" % (done.returncode, done.stderr))
            return 1
        rows = json.load(open(rows_file))
    print(done.stdout)
    sampled = {r["schedule"]: r for r in rows if r["options"]}
    by = {(r["gpus"], r["ranks"], r["schedule"]): r for r in rows if not r["options"]}
    expected = [(g, 0, s) for g in (1, 2, 8) for s in ("pairs", "rounds")]
    if mpi_fake and mpirun:
        expected += [(8, 8, "pairs"), (8, 8, "rounds")]
    for key in expected:
        if key not in by:
            failures.append("no row for %s" % (key,))
    for (gpus, ranks, schedule), r in by.items():
        if schedule == "pairs":
            if r["rounds"] != r["measurements"]:
                failures.append("%s: pair by pair in %d rounds" % ((gpus, ranks), r["rounds"]))
            if not r["upstream_seconds"] or r["upstream_seconds"] < r["seconds"]:
                failures.append("%s: upstream %s s" % ((gpus, ranks), r["upstream_seconds"]))
            continue
        pairs = by[(gpus, ranks, "pairs")]
        if r["upstream_seconds"] is not None:
            failures.append("%s: an upstream time beside rounds" % ((gpus, ranks),))
        if r["measurements"] != pairs["measurements"]:
            failures.append("%s: rounds measure %d, pairs %d" % (
                (gpus, ranks), r["measurements"], pairs["measurements"]))
        if gpus >= 8 and not r["rounds"] < pairs["rounds"]:
            failures.append("%s: %d rounds" % ((gpus, ranks), r["rounds"]))
        if gpus >= 8 and not r["seconds"] < pairs["seconds"]:
            failures.append("%s: rounds %.1f s, pairs %.1f s" % (
                (gpus, ranks), r["seconds"], pairs["seconds"]))
    # -P 8 on 8 GPUs: 8 of the 28 pairs, both ways, for each pair testcase.
    for schedule in ("pairs", "rounds"):
        r = sampled.get(schedule)
        if not r or r["options"] != "-P 8" or \
                not r["measurements"] < by[(8, 0, schedule)]["measurements"]:
            failures.append("-P 8 %s: %s" % (schedule, r))
    if by.get((8, 0, "rounds"), {}).get("peak_device_bytes", 0) <= 0:
        failures.append("8 GPUs: no device memory")
    for label in ("calibration (1 GPU)", "check (2 GPUs)", "upstream v0.8 (2 GPUs)"):
        if not re.search(r"^- %s: model [0-9.]+ s, measured [0-9.]+ s.*[-+][0-9.]+%%$"
                         % re.escape(label), done.stdout, re.M):
            failures.append("no line for " + label)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
