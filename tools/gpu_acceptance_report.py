#!/usr/bin/python3
"""What tools/gpu_acceptance.sh OUT found, as Markdown: one section per scenario it ran.

usage: gpu_acceptance_report.py OUT

Exit 1 when something failed: a run's status was not 0, a GPU test failed, a -j document of this
build lacks a key path of the release's, --from of a -j run prints other lines than a text run
(from the first Running line, numbers aside), or a logical-GPU testcase did not pass.
"""
import json
import os
import re
import statistics
import sys

NUMBER = re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def runs(scenario_dir):
    """runs.txt: name -> (status, milliseconds)."""
    out = {}
    path = os.path.join(scenario_dir, "runs.txt")
    if os.path.exists(path):
        for line in read(path).splitlines():
            m = re.match(r"(\S+) rc=(\d+) ms=(\d+)", line)
            if m:
                out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def document(path):
    """The -j document's nvbandwidth object, or None when the file is not one."""
    try:
        return json.loads(read(path))["nvbandwidth"]
    except (OSError, ValueError, KeyError):
        return None


def sums(path):
    """testcase -> SUM, from a -j document or from text."""
    doc = document(path)
    if doc is not None:
        return {t["name"]: t["sum"] for t in doc.get("testcases", []) if t.get("sum") is not None}
    found = {}
    for line in read(path).splitlines():
        m = re.match(r"SUM (\S+) ([0-9.]+)", line)
        if m:
            found[m.group(1)] = float(m.group(2))
    return found


def key_paths(value, prefix="", acc=None):
    acc = set() if acc is None else acc
    if isinstance(value, dict):
        for k, v in value.items():
            acc.add(prefix + "/" + k)
            key_paths(v, prefix + "/" + k, acc)
    elif isinstance(value, list):
        for v in value:
            key_paths(v, prefix + "[]", acc)
    return acc


def outside(doc):
    """Seconds outside the timed copies and pointer chases (the cost model's measure)."""
    t = doc["timing"]
    return t["wall_seconds"] - t["wait_seconds"] - t["latency_seconds"]


def from_running(text):
    """The lines from the first `Running` line on, numbers masked (what --from reprints)."""
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("Running ")), len(lines))
    return [NUMBER.sub("N", line) for line in lines[first:]]


def files(d, prefix):
    names = sorted(n for n in os.listdir(d) if n.startswith(prefix + ".") and n.endswith(".out"))
    return [os.path.join(d, n) for n in names]


def section_runs(d, problems):
    for name, (rc, ms) in sorted(runs(d).items()):
        if rc != 0:
            problems.append(f"{os.path.basename(d)}/{name} exited {rc}")


def report_tests(d, problems):
    text = read(os.path.join(d, "gpu-tests.out"))
    passed = re.search(r"\[  PASSED  \] (\d+) test", text)
    failed = re.findall(r"^\[  FAILED  \] ([A-Za-z]\S*)", text, re.M)
    skipped = len(set(re.findall(r"^\[  SKIPPED \] ([A-Za-z]\S*)", text, re.M)))
    print(f"GPU tests: {passed.group(1) if passed else 0} passed, {len(set(failed))} failed, "
          f"{skipped} skipped (they need another GPU kind or several GPUs).")
    for name in sorted(set(failed)):
        problems.append(f"GPU test {name} failed")


def sum_table(d):
    columns = [c for c in ("ours", "release", "upstream") if files(d, c)]
    values = {c: [sums(p) for p in files(d, c)] for c in columns}
    print("| testcase | " + " | ".join(f"{c} ({len(values[c])})" for c in columns) +
          " | ours vs " + " | ours vs ".join(columns[1:]) + " |")
    print("|---" * (2 * len(columns)) + "|")
    for key in values["ours"][0]:
        meds = {c: statistics.median(v) if v else None
                for c, v in ((c, [r[key] for r in values[c] if key in r]) for c in columns)}
        diffs = [f"{100 * (meds['ours'] / meds[c] - 1):+.1f}%" if meds[c] and meds["ours"] else ""
                 for c in columns[1:]]
        cells = [f"{meds[c]:.2f}" if meds[c] is not None else "" for c in columns]
        print(f"| {key} | " + " | ".join(cells) + " | " + " | ".join(diffs) + " |")


def report_default(d, problems):
    sum_table(d)
    for prefix in ("ours", "release"):
        docs = [document(p) for p in files(d, prefix)]
        took = [f"{outside(x):.2f}" for x in docs if x and "timing" in x]
        if took:
            print(f"\n{prefix}: seconds outside the timed copies and latency: {', '.join(took)}")
    ours, release = set(), set()
    for prefix, acc in (("ours", ours), ("release", release)):
        for path in files(d, prefix):
            key_paths(document(path), "/nvbandwidth", acc)
    if release:
        missing = sorted(release - ours)
        print(f"\nKey paths: release {len(release)}, ours {len(ours)}, "
              f"missing in ours {len(missing)}, new in ours {len(ours - release)}.")
        problems += [f"key path {m} of the release is missing" for m in missing]
    text, from_doc = os.path.join(d, "ours-text.out"), os.path.join(d, "ours-from.out")
    if os.path.exists(text) and os.path.exists(from_doc):
        want, got = from_running(read(text)), from_running(read(from_doc))
        same = want == got
        print(f"\n--from of a -j run against a text run, from the first Running line: {len(got)} "
              f"and {len(want)} lines, {'the same' if same else 'DIFFERENT'} with numbers masked.")
        if not same:
            problems.append("--from prints other lines than a text run")


def report_logical(d, problems):
    doc = document(os.path.join(d, "logical8.out"))
    if doc is None:
        problems.append("the logical-GPU run wrote no -j document")
        return
    cases = doc["testcases"]
    bad = [t["name"] for t in cases if t["status"] != "Passed"]
    ops = doc.get("operations", {})
    gpus = len(doc["GPU Device list"])
    t = doc["timing"]
    rest = outside(doc)
    print(f"{gpus} logical GPUs: {len(cases)} entries, {len(bad)} not passed; "
          f"{ops.get('measurements')} measurements, {ops.get('samples')} samples.")
    print(f"wall {t['wall_seconds']:.1f} s, waiting on copies {t['wait_seconds']:.1f} s, "
          f"latency {t['latency_seconds']:.1f} s, outside {rest:.2f} s "
          f"(fills {t['fill_seconds']:.2f}, checks {t['verification_seconds']:.2f}, "
          f"allocation {t['allocation_seconds']:.2f}, release {t['release_seconds']:.3f}); "
          f"per ordered pair {1000 * rest / (gpus * (gpus - 1)):.0f} ms, "
          f"per sample {1000 * rest / max(1, ops.get('samples', 1)):.2f} ms.")
    for entry in cases:
        if entry["status"] != "Passed":
            print(f"- {entry['name']}: {entry['status']} {entry.get('waive_reason', '')}")
    problems += [f"logical testcase {name} did not pass" for name in bad]


def report_reuse(d, problems):
    groups = {}
    for path in sorted(os.listdir(d)):
        m = re.match(r"(\w+)\.([\w-]+)\.\d+\.out$", path)
        if m:
            for key, value in sums(os.path.join(d, path)).items():
                groups.setdefault((m.group(2), key), {}).setdefault(m.group(1), []).append(value)
    print("| run | testcase | upstream | kept | fresh | kept vs upstream | fresh vs upstream |")
    print("|---|---|---|---|---|---|---|")
    for (sel, key), by in sorted(groups.items()):
        means = {c: statistics.mean(by[c]) for c in ("upstream", "kept", "fresh") if c in by}
        cells = [f"{means[c]:.2f}" if c in means else "" for c in ("upstream", "kept", "fresh")]
        cells += [f"{100 * (means[c] / means['upstream'] - 1):+.1f}%"
                  if c in means and means.get("upstream") else "" for c in ("kept", "fresh")]
        print(f"| {sel.replace('-', ' ')} | {key} | " + " | ".join(cells) + " |")


def report_v010(d, problems):
    lines = [x for x in read(os.path.join(d, "waived.out")).splitlines() if x.startswith("Waived ")]
    print("\n".join(lines) if lines else "no Waived line")
    if not lines:
        problems.append("--compat v0.10 printed no Waived line")


SCENARIOS = (("tests", report_tests), ("default", report_default), ("logical", report_logical),
             ("reuse", report_reuse), ("v010", report_v010))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    problems = []
    machine = os.path.join(out, "machine.txt")
    if os.path.exists(machine):
        print("```\n" + "\n".join(read(machine).splitlines()[:3]) + "\n```")
    for name, report in SCENARIOS:
        d = os.path.join(out, name)
        if os.path.isdir(d):
            print(f"\n## {name}\n")
            section_runs(d, problems)
            report(d, problems)
    print("\n## Problems\n")
    print("\n".join(f"- {p}" for p in problems) if problems else "none")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
