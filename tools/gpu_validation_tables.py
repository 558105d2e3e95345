#!/usr/bin/python3
"""The tables of the multi-GPU validation scripts (tools/gpu_validation_x2.sh and
tools/gpu_validation_multi.sh), from the outputs they saved. Each command prints a markdown table
and, as its last line, `RESULT ok NOTE` or `RESULT bad NOTE` for the script's PASS/FAIL row.

  sums FLOOR OURS... -- UPSTREAM...   every SUM of both programs' runs side by side: the values,
                                      the median and the run-to-run noise ((max - min) / median)
                                      of each; a key is within noise when the medians differ by at
                                      most max(FLOOR %, the larger noise)
  beside FLOOR FILES... -- A:B...     key A beside key B (medians of FILES): both measured
  mpi FLOOR MPI_JSON SINGLE...        every multinode testcase of MPI_JSON (one JSON document)
                                      beside its single-node counterpart (medians of SINGLE)
  cells FLOOR A_JSON... -- B_JSON...  every matrix cell of the A runs beside the B runs (pairs
                                      against rounds), each within noise as in `sums`
  sampled FLOOR P_JSON FULL_JSON...   a -P run's cells: each testcase samples fewer cells than
                                      all, covers every GPU, each cell within noise of the full
                                      runs' (FULL_JSON) median
  walls FILE OURS UPSTREAM [wall]     the `name wall exit peak` lines of FILE as a table, and the
                                      medians of the runs named OURS.* beside UPSTREAM.*: ours may
                                      take neither more time nor more memory (5% allowed, and
                                      0.5 s for the clock's and the start's jitter); with `wall`
                                      the time alone is held to that (rounds hold more buffers
                                      at once than pairs, by design)

Files are text outputs (SUM lines) or -j documents (ours: one entry per SUM key; upstream's: the
bidirectional device-to-device testcases under the testcase's name, with the total's sum).
"""

import json
import re
import statistics
import sys


def load_json(path):
    with open(path) as f:
        return json.load(f)["nvbandwidth"]


def sums_of(path):
    """{SUM key: value} of one output, text or JSON."""
    with open(path) as f:
        text = f.read()
    if text.lstrip().startswith("{"):
        out = {}
        for entry in json.loads(text)["nvbandwidth"].get("testcases", []):
            if entry.get("status") != "Passed" or "sum" not in entry:
                continue
            name = entry["name"]
            if name.startswith("device_to_device_bidirectional") and \
                    not re.search(r"_(read|write)[12]$|_total$", name):
                name += "_total"  # upstream's one entry per bidirectional testcase
            out[name] = float(entry["sum"])
        return out
    return {m.group(1): float(m.group(2))
            for m in re.finditer(r"^SUM (\S+) ([0-9.eE+-]+)\s*$", text, re.M)}


def median_noise(values):
    """(median, noise percent) of a list; noise None for fewer than two values."""
    med = statistics.median(values)
    if len(values) < 2 or med == 0:
        return med, None
    return med, (max(values) - min(values)) / med * 100


def fmt(value):
    return "-" if value is None else "%.2f" % value


def within(a, b, floor, noises):
    """(ok, diff percent, allowed percent): b's median against a's."""
    diff = (a / b - 1) * 100 if b else float("inf")
    allowed = max([floor] + [n for n in noises if n is not None])
    return abs(diff) <= allowed, diff, allowed


def split(args):
    i = args.index("--")
    return args[:i], args[i + 1:]


def cmd_sums(floor, args):
    ours_files, upstream_files = split(args)
    ours = [sums_of(p) for p in ours_files]
    upstream = [sums_of(p) for p in upstream_files]
    keys = list(dict.fromkeys(k for run in ours + upstream for k in run))
    print("| SUM key | ours | ours median | ours noise % | upstream | upstream median | "
          "upstream noise % | ours vs upstream % | allowed % | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    bad, compared, only = [], 0, []
    for key in keys:
        a = [r[key] for r in ours if key in r]
        b = [r[key] for r in upstream if key in r]
        ma, na = median_noise(a) if a else (None, None)
        mb, nb = median_noise(b) if b else (None, None)
        if a and b:
            compared += 1
            ok, diff, allowed = within(ma, mb, floor, [na, nb])
            check = "ok" if ok else "DIFFERENT"
            if not ok:
                bad.append(key)
            cells = ["%+.2f" % diff, "%.2f" % allowed, check]
        else:
            only.append(key)
            cells = ["-", "-", "ours only" if a else "upstream only"]
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            key, " / ".join(fmt(v) for v in a) or "-", fmt(ma), fmt(na),
            " / ".join(fmt(v) for v in b) or "-", fmt(mb), fmt(nb), " | ".join(cells)))
    missing = [k for k in only if any(k in r for r in upstream)]
    note = "%d keys compared, %d beyond noise%s, %d ours only, %d upstream only" % (
        compared, len(bad), (" (" + ", ".join(bad) + ")") if bad else "",
        len(only) - len(missing), len(missing))
    print("RESULT %s %s" % ("ok" if compared and not bad and not missing else "bad", note))


def cmd_beside(floor, args):
    files, pairs = split(args)
    runs = [sums_of(p) for p in files]
    print("| key | median | noise % | beside | median | noise % | ratio |")
    print("|---|---|---|---|---|---|---|")
    problems = []
    for pair in pairs:
        a, b = pair.split(":")
        va = [r[a] for r in runs if a in r]
        vb = [r[b] for r in runs if b in r]
        ma, na = median_noise(va) if va else (None, None)
        mb, nb = median_noise(vb) if vb else (None, None)
        ratio = "%.3f" % (ma / mb) if ma and mb else "-"
        for key, values, med in ((a, va, ma), (b, vb, mb)):
            if len(values) != len(runs) or not med:
                problems.append("%s measured in %d of %d runs" % (key, len(values), len(runs)))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (a, fmt(ma), fmt(na), b, fmt(mb),
                                                          fmt(nb), ratio))
    print("RESULT %s %s" % ("bad" if problems else "ok",
                            "; ".join(problems) if problems else
                            "%d pairs measured in all %d runs" % (len(pairs), len(runs))))


def one_document(path):
    """The single JSON document of a file, or None with the reason."""
    with open(path) as f:
        text = f.read()
    try:
        doc, end = json.JSONDecoder().raw_decode(text.lstrip())
    except ValueError as e:
        return None, "not a JSON document (%s)" % e
    if text.lstrip()[end:].strip():
        return None, "more than one document, or text after it"
    return doc, ""


def cmd_mpi(floor, args):
    path, singles = args[0], args[1:]
    doc, why = one_document(path)
    if doc is None:
        print("RESULT bad %s: %s" % (path, why))
        return
    runs = [sums_of(p) for p in singles]
    print("| multinode testcase | status | SUM | single-node counterpart | median | "
          "difference % | allowed % | check |")
    print("|---|---|---|---|---|---|---|---|")
    bad, compared, ran = [], 0, 0
    for entry in doc["nvbandwidth"].get("testcases", []):
        name = entry.get("name", "")
        if "multicast" in name or "broadcast" in name:
            bad.append(name + " ran (multicast)")
        if not name.startswith("multinode_"):
            continue
        status = entry.get("status", "-")
        counterpart = name[len("multinode_"):]
        if not any(counterpart in r for r in runs):  # multinode_device_to_device_all_to_one_...
            counterpart = counterpart.replace("device_to_device_", "", 1)
        values = [r[counterpart] for r in runs if counterpart in r]
        if status != "Passed" or "sum" not in entry:
            bad.append("%s %s" % (name, status))
            print("| %s | %s | - | %s | - | - | - | FAIL |" % (name, status, counterpart))
            continue
        ran += 1
        if not values:
            print("| %s | %s | %.2f | (none) | - | - | - | no counterpart |" % (
                name, status, entry["sum"]))
            continue
        compared += 1
        med, noise = median_noise(values)
        ok, diff, allowed = within(float(entry["sum"]), med, floor, [noise])
        if not ok:
            bad.append(name)
        print("| %s | %s | %.2f | %s | %.2f | %+.2f | %.2f | %s |" % (
            name, status, entry["sum"], counterpart, med, diff, allowed,
            "ok" if ok else "DIFFERENT"))
    note = "one document, %d multinode testcases measured, %d beside a counterpart" % (
        ran, compared)
    if bad:
        note += "; " + ", ".join(bad)
    print("RESULT %s %s" % ("ok" if ran and not bad else "bad", note))


def cell_values(path):
    """{(SUM key, row, column): value} of a -j document."""
    out = {}
    for entry in load_json(path).get("testcases", []):
        for r, row in enumerate(entry.get("values") or []):
            for c, value in enumerate(row):
                if value is not None:
                    out[(entry["name"], r, c)] = float(value)
    return out


def cmd_cells(floor, args):
    a_files, b_files = split(args)
    a = [cell_values(p) for p in a_files]
    b = [cell_values(p) for p in b_files]
    keys = sorted(set(k for run in a + b for k in run))
    print("| cell | pair by pair median | noise % | in rounds median | noise % | "
          "difference % | allowed % | check |")
    print("|---|---|---|---|---|---|---|---|")
    bad = []
    for key in keys:
        va = [r[key] for r in a if key in r]
        vb = [r[key] for r in b if key in r]
        label = "%s[%d][%d]" % key
        if len(va) != len(a) or len(vb) != len(b):
            bad.append(label + " missing")
            print("| %s | - | - | - | - | - | - | missing |" % label)
            continue
        ma, na = median_noise(va)
        mb, nb = median_noise(vb)
        ok, diff, allowed = within(mb, ma, floor, [na, nb])
        if not ok:
            bad.append(label)
        print("| %s | %.2f | %s | %.2f | %s | %+.2f | %.2f | %s |" % (
            label, ma, fmt(na), mb, fmt(nb), diff, allowed, "ok" if ok else "DIFFERENT"))
    print("RESULT %s %d cells, %d beyond noise%s" % (
        "ok" if keys and not bad else "bad", len(keys), len(bad),
        (" (" + ", ".join(bad[:10]) + ")") if bad else ""))


def cmd_sampled(floor, args):
    sampled, full = cell_values(args[0]), [cell_values(p) for p in args[1:]]
    gpus = len(load_json(args[0])["GPU Device list"])
    print("| testcase | cells measured | of | GPUs covered | beyond noise |")
    print("|---|---|---|---|---|")
    bad = []
    for name in sorted(set(k[0] for k in sampled)):
        cells = [k for k in sampled if k[0] == name]
        covered = set(k[1] for k in cells) | set(k[2] for k in cells)
        beyond = []
        for key in cells:
            values = [r[key] for r in full if key in r]
            if values:
                med, noise = median_noise(values)
                if not within(sampled[key], med, floor, [noise])[0]:
                    beyond.append("[%d][%d]" % key[1:])
        print("| %s | %d | %d | %d of %d | %s |" % (name, len(cells), gpus * (gpus - 1),
                                                    len(covered), gpus, " ".join(beyond) or "-"))
        if len(cells) >= gpus * (gpus - 1) or len(covered) < gpus or beyond:
            bad.append(name)
    print("RESULT %s %d testcases sampled%s" % ("ok" if sampled and not bad else "bad",
                                                len(set(k[0] for k in sampled)),
                                                ("; not as asked: " + ", ".join(bad)) if bad else ""))


def cmd_walls(args):
    print("| run | wall s | exit | peak memory MiB |")
    print("|---|---|---|---|")
    runs = {}
    with open(args[0]) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 3:
                print("| %s |" % " | ".join((fields + ["-"])[:4]))
                runs[fields[0]] = fields[1:]
    medians = []
    for prefix in args[1:3]:
        mine = [v for k, v in runs.items() if k.startswith(prefix + ".")]
        wall = [float(v[0]) for v in mine]
        peak = [float(v[2]) for v in mine if len(v) > 2 and v[2] != "-"]
        medians.append((statistics.median(wall) if wall else None,
                        statistics.median(peak) if peak else None))
    print()
    print("| median of | %s | %s | ratio |" % tuple(args[1:3]))
    print("|---|---|---|---|")
    bad = []
    for i, what in enumerate(("wall s", "peak memory MiB")):
        a, b = medians[0][i], medians[1][i]
        ratio = a / b if a is not None and b else None
        print("| %s | %s | %s | %s |" % (what, fmt(a), fmt(b), "-" if ratio is None else
                                         "%.3f" % ratio))
        if i == 1 and args[3:4] == ["wall"]:
            continue
        if a is None or b is None or a > b * 1.05 + (0.5 if i == 0 else 0):
            bad.append(what)
    print("RESULT %s %s %s s / %s MiB, %s %s s / %s MiB%s" % (
        "bad" if bad else "ok", args[1], fmt(medians[0][0]), fmt(medians[0][1]), args[2],
        fmt(medians[1][0]), fmt(medians[1][1]),
        ("; %s more: %s" % (args[1], ", ".join(bad))) if bad else ""))


def main(argv):
    command = argv[1]
    if command == "walls":
        cmd_walls(argv[2:])
        return 0
    commands = {"sums": cmd_sums, "beside": cmd_beside, "mpi": cmd_mpi, "cells": cmd_cells,
                "sampled": cmd_sampled}
    try:
        commands[command](float(argv[2]), argv[3:])
    except (OSError, ValueError, KeyError, IndexError) as e:
        print("RESULT bad cannot read the outputs (%s: %s)" % (type(e).__name__, e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
