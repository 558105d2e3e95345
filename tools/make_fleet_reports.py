#!/usr/bin/python3
"""Writes N synthetic reports of one nvbandwidth run per node, for `--summarize` tests and benchmarks.

Usage:
  make_fleet_reports.py --template RUN.json --out DIR --nodes N [--seed S]
                        [--doctor NODE=KIND[:ARG[:ARG]]]... [--no-hostname-key]

RUN.json is a report of this tool with the shape wanted (the tests take one from the fake platform:
NVBW_FAKE_GPUS=8 NVBW_FAKE_LINKS=nvswitch nvbandwidth_fake -j). Its layout, keys and matrices are
kept; its numbers are replaced by those of a healthy H200-like machine: each bandwidth cell is its
link's peak times an efficiency for its testcase family (latency cells keep the template's values),
varied per node by the seed: a factor per node and testcase (sd 0.8%), per node and GPU (0.5%), per
cell (1%, 2.5% for bidirectional host copies, whose run-to-run spread is that large) and per sample
(0.4%). Values, string matrix, cell statistics, SUM and percent of peak are recomputed from the
samples as the tool computes them; outliers are left empty.

Nodes are node0001 ... nodeNNNN (DIR/nodeNNNN.json), named in the "GPU Device list" entries as the
tool names the host, and in a top-level "hostname" key unless --no-hostname-key.

Doctoring (NODE is a name such as node0007 or a number):
  slow-links:G        every device-to-device bandwidth cell to or from GPU G at 75% (GPU G's
                      NVLinks degraded)
  slow-pair:A:B       the device-to-device bandwidth cells A->B and B->A at 60% (one bad link)
  slow-host:G         every host<->device bandwidth cell of GPU G at 50% (PCIe trained down)
  slow-latency:G      every latency cell of GPU G at 140%
  slow-node:F         every bandwidth cell times F (e.g. 0.85: clocks held down)
  failed:TESTCASE     the entry becomes ERROR with a message
  waived:TESTCASE     the entry becomes Waived with a reason
  missing:TESTCASE    the entry is left out (an entry name, e.g. ..._read_ce_total)
  no-hostname         no host name anywhere (the summary names the node by its file)
Reports are written in the tool's layout (tabs, sorted keys, 17 significant digits), so their size
is that of real reports. Prints one line per doctored node.
"""

import argparse
import copy
import json
import math
import os
import random
import re
import sys

# Efficiency of each testcase family against its link's peak (H200 measurements in docs/peaks.md).
EFFICIENCY = [
    (re.compile(r"^(host_to_all|all_to_host).*bidirectional"), 0.40),
    (re.compile(r"^(host_to_all|all_to_host)"), 0.45),
    (re.compile(r"host.*bidirectional"), 0.76),
    (re.compile(r"host"), 0.88),
    (re.compile(r"_(total)$"), 0.82),
    (re.compile(r"^(all_to_one|one_to_all)"), 0.85),
    (re.compile(r"^device_to_device.*_sm"), 0.79),
    (re.compile(r"^device_to_device"), 0.82),
    (re.compile(r"^device_local_(read|write)_sm"), 0.95),
    (re.compile(r"^device_local_copy"), 0.86),
]


def efficiency(name):
    for pattern, eff in EFFICIENCY:
        if pattern.search(name):
            return eff
    return 0.8


def cell_noise(name):
    return 0.025 if ("host" in name and "bidirectional" in name) else 0.01


# ---- writing in the tool's layout (jsoncpp's StyledWriter: tabs, " : ", sorted keys) ----------

def number_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = "%.17g" % value
    if "." not in text and "e" not in text and "n" not in text:
        text += ".0"
    return text


def render(value, out, indent):
    """Appends `value` to the list `out` as the tool writes it; floats through FLOAT_SLOT."""
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("\n" + indent + "{\n")
        inner = indent + "\t"
        for i, key in enumerate(sorted(value)):
            out.append(inner + json.dumps(key) + " : ")
            render(value[key], out, inner)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(indent + "}")
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        out.append("\n" + indent + "[\n")
        inner = indent + "\t"
        for i, item in enumerate(value):
            out.append(inner)
            if isinstance(item, (dict, list)) and item:
                # Nested containers start on their own line, as in the tool's output.
                piece = []
                render(item, piece, inner)
                out.append("".join(piece).lstrip("\n").lstrip("\t"))
            else:
                render(item, out, inner)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(indent + "]")
    elif value is None:
        out.append("null")
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    else:
        out.append(number_text(value))


def document_text(doc):
    out = []
    render(doc, out, "")
    return "".join(out).lstrip("\n") + "\n"


# ---- the numbers of one node -------------------------------------------------------------------

def g6(value):
    """A cell as the string matrix writes it (iostream's default: 6 significant digits)."""
    return "%g" % value


def statistics(samples):
    n = len(samples)
    mean = sum(samples) / n
    ordered = sorted(samples)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    stddev = math.sqrt(sum((s - mean) ** 2 for s in samples) / (n - 1)) if n > 1 else 0.0
    return {"samples": samples, "min": ordered[0], "max": ordered[-1], "mean": mean,
            "median": median, "stddev": stddev, "cv": stddev / abs(mean) if mean else None}


def gpu_of_column(entry, row, col):
    """The GPUs a cell involves: (row GPU or None, column GPU). Host rows are 1 x N matrices."""
    rows = len(entry["values"])
    return (row if rows > 1 else None), col


class Node:
    def __init__(self, rng, gpus):
        self.rng = rng
        self.gpu_factor = [rng.gauss(1.0, 0.005) for _ in range(gpus)]
        self.effects = []  # (predicate(entry, row, col) -> factor)


def node_entry(template_entry, node):
    entry = copy.copy(template_entry)
    if entry.get("status") != "Passed" or "values" not in entry:
        return entry
    name = entry["name"]
    latency = entry.get("unit") == "ns"
    rng = node.rng
    testcase_factor = rng.gauss(1.0, 0.008)
    noise = cell_noise(name)
    samples_per_cell = None
    values, strings, cells, percents = [], [], [], []
    for r, row in enumerate(template_entry["values"]):
        vrow, srow, crow, prow = [], [], [], []
        for c, base in enumerate(row):
            if base is None:
                vrow.append(None), srow.append("N/A"), crow.append(None), prow.append(None)
                continue
            peak = template_entry["peak_GBps"][r][c] if "peak_GBps" in template_entry else None
            true = base if latency or peak is None else peak * efficiency(name)
            factor = testcase_factor * rng.gauss(1.0, noise)
            a, b = gpu_of_column(template_entry, r, c)
            for gpu in (a, b):
                if gpu is not None and gpu < len(node.gpu_factor):
                    factor *= node.gpu_factor[gpu] if not latency else 2.0 - node.gpu_factor[gpu]
            for effect in node.effects:
                factor *= effect(entry, r, c)
            if samples_per_cell is None:
                cell = template_entry["cells"][r][c]
                samples_per_cell = len(cell["samples"]) if cell else 3
            samples = [true * factor * rng.gauss(1.0, 0.004) for _ in range(samples_per_cell)]
            stats = statistics(samples)
            value = stats["median"]
            vrow.append(value), srow.append(g6(value)), crow.append(stats)
            prow.append(100.0 * value / peak if peak else None)
        values.append(vrow), strings.append(srow), cells.append(crow), percents.append(prow)
    entry["values"] = values
    entry["bandwidth_matrix"] = strings
    entry["cells"] = cells
    entry["sum"] = sum(v for row in values for v in row if v is not None)
    if "percent_of_peak" in entry:
        entry["percent_of_peak"] = percents
    if "outliers" in entry:
        entry["outliers"] = []
    return entry


# ---- doctoring ---------------------------------------------------------------------------------

def is_d2d_bandwidth(entry):
    return entry["name"].startswith("device_to_device") and entry.get("unit") != "ns"


def doctor(node, kind, args, testcases):
    """Adds an effect to `node`, or returns an edit of the testcase list."""
    if kind == "slow-links":
        g = int(args[0])
        node.effects.append(lambda e, r, c: 0.75 if is_d2d_bandwidth(e) and g in (r, c) else 1.0)
    elif kind == "slow-pair":
        a, b = int(args[0]), int(args[1])
        node.effects.append(
            lambda e, r, c: 0.6 if is_d2d_bandwidth(e) and (r, c) in ((a, b), (b, a)) else 1.0)
    elif kind == "slow-host":
        g = int(args[0])
        node.effects.append(lambda e, r, c: 0.5 if "host" in e["name"] and e.get("unit") != "ns"
                            and len(e["values"]) == 1 and c == g else 1.0)
    elif kind == "slow-latency":
        g = int(args[0])
        node.effects.append(lambda e, r, c: 1.4 if e.get("unit") == "ns" and (
            c == g or (len(e["values"]) > 1 and r == g)) else 1.0)
    elif kind == "slow-node":
        f = float(args[0])
        node.effects.append(lambda e, r, c: f if e.get("unit") != "ns" else 1.0)
    elif kind in ("failed", "waived", "missing"):
        name = args[0]
        if not any(t["name"] == name for t in testcases):
            sys.exit(f"make_fleet_reports.py: no entry {name!r} in the template")
        return kind, name
    elif kind == "no-hostname":
        return kind, None
    else:
        sys.exit(f"make_fleet_reports.py: unknown doctoring {kind!r}")
    return None


def apply_edits(testcases, edits):
    out = []
    for entry in testcases:
        kinds = {kind for kind, name in edits if name == entry["name"]}
        if "missing" in kinds:
            continue
        if "failed" in kinds:
            entry = {"name": entry["name"], "status": "ERROR",
                     "error": "data mismatch: 12 words differ, the first at offset 4096"}
        elif "waived" in kinds:
            entry = {"name": entry["name"], "status": "Waived",
                     "waive_reason": "doctored: waived on this node"}
        out.append(entry)
    return out


def host_in_device_list(devices, host):
    """ "0: NVIDIA H200 (00000000:19:00): (gpu-node-01)" with the host replaced (or dropped)."""
    out = []
    for line in devices:
        stem = re.sub(r": \([^()]*\)$", "", line)
        out.append(stem if host is None else f"{stem}: ({host})")
    return out


def node_name(spec, count):
    if spec.isdigit():
        return "node%04d" % int(spec)
    return spec


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--template", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--doctor", action="append", default=[], metavar="NODE=KIND[:ARG]")
    parser.add_argument("--no-hostname-key", action="store_true")
    options = parser.parse_args(argv)

    with open(options.template, encoding="utf-8") as f:
        template = json.load(f)
    run = template["nvbandwidth"]
    gpus = len(run.get("GPU Device list", []))
    doctoring = {}
    for spec in options.doctor:
        node, _, what = spec.partition("=")
        if not what:
            sys.exit(f"make_fleet_reports.py: --doctor {spec!r}: expected NODE=KIND[:ARG]")
        doctoring.setdefault(node_name(node, options.nodes), []).append(what)

    os.makedirs(options.out, exist_ok=True)
    for index in range(1, options.nodes + 1):
        host = "node%04d" % index
        node = Node(random.Random(options.seed * 1000003 + index), gpus)
        edits = []
        for what in doctoring.get(host, []):
            kind, *args = what.split(":")
            edit = doctor(node, kind, args, run["testcases"])
            if edit:
                edits.append(edit)
        named = not any(kind == "no-hostname" for kind, _ in edits)
        doc = {"nvbandwidth": dict(run)}
        out = doc["nvbandwidth"]
        out.pop("hostname", None)  # the template's host is no node's
        out["testcases"] = apply_edits([node_entry(t, node) for t in run["testcases"]], edits)
        out["GPU Device list"] = host_in_device_list(run.get("GPU Device list", []),
                                                     host if named else None)
        if named and not options.no_hostname_key:
            out["hostname"] = host
        if "timing" in out:
            out["timing"] = dict(out["timing"], wall_seconds=480.0 * node.rng.gauss(1.0, 0.01))
        path = os.path.join(options.out, host + ".json")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(document_text(doc))
        os.replace(path + ".tmp", path)
        if host in doctoring:
            print(f"{host}: {', '.join(doctoring[host])}")
    unknown = sorted(set(doctoring) - {"node%04d" % i for i in range(1, options.nodes + 1)})
    if unknown:
        sys.exit(f"make_fleet_reports.py: doctored nodes beyond --nodes: {', '.join(unknown)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
