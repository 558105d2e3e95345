#!/usr/bin/python3
"""Checks nvbandwidth metrics files (Prometheus text exposition format 0.0.4).

    check_metrics.py FILE...
    check_metrics.py --render RENDER_METRICS --source-dir DIR [FILE...]

Each file must parse with the Prometheus Python client's parser
(prometheus_client.parser.text_string_to_metric_families) and with `promtool check metrics`,
and hold the invariants of tests/metrics/README.md: every family an nvbandwidth_ gauge with
# HELP and # TYPE, its samples together, no series twice, no empty label value, no control
character in a value, finite values, known label names, the cell families on the cells of the
value families.

promtool's lint asks for base units (bytes, seconds) and snake_case label names. The metrics are
in base units (bytes per second, seconds, ratios; percents named _percent) and keep
dcgm-exporter's label names (modelName, UUID, Hostname) so that they join with its series: the
label-name finding, and only it, is accepted, and each file must lint clean once those three
labels are renamed to snake_case (so no other finding hides behind the accepted one).

With --render, the check first shows that it rejects broken files (one per rule) and passes a
good one; then the metrics files of every report in the tree (tests/golden, tests/data,
tests/metrics/reports; the -j -l listing is not a report) are written by RENDER_METRICS into a
temporary folder and checked, with the committed goldens tests/golden/metrics/*.prom, and the
values of each report of this tool's layout are compared with its JSON `values`, exactly (GB/s x
10^9, ns / 10^9: one IEEE operation each, as the writer does).

With --binary and --fake-binary, the files the commands write are checked too: `--metrics` of
runs on faked GPUs (with `--output` of the same run, whose values the metrics must equal), of a
run against a baseline (verdicts), of `--from` saved reports and of `--compare`.

Both tools are required: python3-prometheus-client and prometheus (promtool) are Debian packages
that debian_install.sh installs. A missing one fails the check rather than skipping it, since a
skipped check would pass metrics no parser has read.
"""

import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:  # reported by main(): the check cannot be made without it
    text_string_to_metric_families = None

METRIC_NAME = re.compile(r"^nvbandwidth_[a-z][a-z0-9_]*$")
LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
KNOWN_LABELS = {
    "gpu", "UUID", "modelName", "Hostname", "testcase", "peer", "rank", "peer_rank", "row", "col",
    "link", "buffer_size_mib", "repeat", "status", "verdict", "side", "signal", "description",
    "unit", "version", "git_version", "schema_version", "driver_version", "cuda_runtime_version",
    "cuda_driver_version", "statistic", "release",
}
DIGITS_LABELS = {"gpu", "rank", "peer_rank", "row", "col", "buffer_size_mib", "repeat"}
ALWAYS_ONE = {"nvbandwidth_run_info", "nvbandwidth_build_info", "nvbandwidth_process_info",
              "nvbandwidth_testcase_status", "nvbandwidth_matrix_info",
              "nvbandwidth_comparison_verdict"}
ZERO_OR_ONE = {"nvbandwidth_run_interrupted", "nvbandwidth_run_error", "nvbandwidth_cell_outlier"}
NOT_NEGATIVE = {
    "nvbandwidth_bandwidth_bytes_per_second", "nvbandwidth_latency_seconds",
    "nvbandwidth_bandwidth_peak_bytes_per_second", "nvbandwidth_bandwidth_of_peak_ratio",
    "nvbandwidth_cell_cv_ratio", "nvbandwidth_bandwidth_sum_bytes_per_second",
    "nvbandwidth_latency_sum_seconds", "nvbandwidth_comparison_band_percent",
    "nvbandwidth_comparison_healthy_spread_percent", "nvbandwidth_comparison_spread_percent",
    "nvbandwidth_comparison_unstable_limit_percent",
    "nvbandwidth_comparison_tolerance_percent", "nvbandwidth_run_duration_seconds",
}
COUNTS = {"nvbandwidth_comparison_cells", "nvbandwidth_comparison_unmatched"}
VALUE_FAMILIES = ("nvbandwidth_bandwidth_bytes_per_second", "nvbandwidth_latency_seconds")
# Families whose series are cells of the value families, with the same labels.
CELL_FAMILIES = ("nvbandwidth_bandwidth_peak_bytes_per_second",
                 "nvbandwidth_bandwidth_of_peak_ratio", "nvbandwidth_cell_cv_ratio",
                 "nvbandwidth_cell_outlier")
STATUSES = {"Passed", "Waived", "ERROR", "Running"}
# The one promtool lint finding the naming decides on purpose: dcgm-exporter's label names.
ACCEPTED_LINT = [
    re.compile(r"^(nvbandwidth_\w+) label names should be written in 'snake_case' not 'camelCase'$"),
]
# dcgm-exporter's label names, kept for joins with its series; as promtool would have them.
DCGM_LABELS = {"modelName": "model_name", "UUID": "uuid", "Hostname": "hostname"}


# Every control character but the line feed (C0 but \n, DEL, C1, U+2028, U+2029).
CONTROL_CHARACTER = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def control_character(text):
    """A character the metrics write as \\xNN: every control character but the line feed, which
    the format escapes itself (\\n)."""
    return CONTROL_CHARACTER.search(text) is not None


def check_layout(text, problems):
    """The raw text: line kinds, HELP then TYPE gauge then samples, each family in one block."""
    if text and not text.endswith("\n"):
        problems.append("the file does not end with a line feed")
    families_seen = set()
    current = None
    expect = "HELP"
    samples = 0
    for number, line in enumerate(text.split("\n")[:-1], 1):
        where = "line %d" % number
        if line.startswith("# HELP "):
            if current is not None and samples == 0:
                problems.append("%s: family %s has no sample" % (where, current))
            name = line[len("# HELP "):].split(" ", 1)[0]
            if name in families_seen:
                problems.append("%s: family %s appears a second time (samples not together)"
                                % (where, name))
            if not METRIC_NAME.match(name):
                problems.append("%s: %r is not an nvbandwidth_ snake_case name" % (where, name))
            parts = line.split(" ", 3)
            if len(parts) < 4 or not parts[3].strip():
                problems.append("%s: family %s has an empty HELP" % (where, name))
            families_seen.add(name)
            current, expect, samples = name, "TYPE", 0
        elif line.startswith("# TYPE "):
            if expect != "TYPE" or line != "# TYPE %s gauge" % current:
                problems.append("%s: expected '# TYPE %s gauge', got %r" % (where, current, line))
            expect = "sample"
        elif line.startswith("#") or not line:
            problems.append("%s: unexpected line %r" % (where, line[:80]))
        else:
            if expect != "sample":
                problems.append("%s: a sample before its family's # TYPE" % where)
            name = re.match(r"[^{ ]*", line).group(0)
            if name != current:
                problems.append("%s: sample of %s inside family %s" % (where, name, current))
            samples += 1
    if current is not None and samples == 0:
        problems.append("family %s has no sample" % current)


def check_families(text, problems):
    """What the Prometheus client's parser reads: names, labels, values, uniqueness."""
    try:
        families = list(text_string_to_metric_families(text))
    except Exception as error:  # the parser raises ValueError and others
        problems.append("prometheus_client cannot parse it: %s" % error)
        return {}
    series = {}
    for family in families:
        if family.type != "gauge":
            problems.append("%s: type %s, not gauge" % (family.name, family.type))
        if not family.documentation:
            problems.append("%s: no HELP" % family.name)
        seen = set()
        for sample in family.samples:
            where = "%s%s" % (sample.name, sample.labels)
            if sample.name != family.name:
                problems.append("%s: sample name differs from its family %s" % (where, family.name))
            for label, value in sample.labels.items():
                if not LABEL_NAME.match(label) or label.startswith("__"):
                    problems.append("%s: invalid label name %r" % (where, label))
                if label not in KNOWN_LABELS:
                    problems.append("%s: unknown label %r" % (where, label))
                if value == "":
                    problems.append("%s: label %s is empty" % (where, label))
                if control_character(value):
                    problems.append("%s: label %s holds a control character" % (where, label))
                if label in DIGITS_LABELS and not value.isdigit():
                    problems.append("%s: label %s is not a number" % (where, label))
            if sample.labels.get("peer") not in (None, "CPU") and not sample.labels["peer"].isdigit():
                problems.append("%s: peer is neither a GPU index nor CPU" % where)
            if "status" in sample.labels and sample.labels["status"] not in STATUSES:
                problems.append("%s: unknown status" % where)
            key = tuple(sorted(sample.labels.items()))
            if key in seen:
                problems.append("%s: the same series twice" % where)
            seen.add(key)
            value = sample.value
            if not math.isfinite(value):
                problems.append("%s: value %r is not finite" % (where, value))
                continue
            if family.name in ALWAYS_ONE and value != 1:
                problems.append("%s: %r, not 1" % (where, value))
            if family.name in ZERO_OR_ONE and value not in (0, 1):
                problems.append("%s: %r, neither 0 nor 1" % (where, value))
            if family.name in NOT_NEGATIVE and value < 0:
                problems.append("%s: negative" % where)
            if family.name in COUNTS and (value < 0 or value != int(value)):
                problems.append("%s: %r is not a count" % (where, value))
        series[family.name] = seen
    cells = series.get(VALUE_FAMILIES[0], set()) | series.get(VALUE_FAMILIES[1], set())
    for name in CELL_FAMILIES:
        for key in series.get(name, ()):
            if key not in cells:
                problems.append("%s%s: no value series with these labels" % (name, dict(key)))
    for key in series.get("nvbandwidth_comparison_verdict", ()):
        labels = dict(key)
        del labels["verdict"]
        fallback = "row" in labels and "gpu" not in labels and "rank" not in labels
        if not fallback and tuple(sorted(labels.items())) not in cells:
            problems.append("comparison_verdict%s: no value series with these labels" % labels)
    return series


def promtool(data):
    done = subprocess.run(["promtool", "check", "metrics"], input=data, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")


def run_promtool(path):
    """promtool on the file as it is and with the dcgm-exporter labels renamed as promtool would
    have them: ((status, output), (status, output))."""
    with open(path, "rb") as stream:
        data = stream.read()
    renamed = data.decode("utf-8")
    for ours, snake in DCGM_LABELS.items():
        renamed = re.sub(r'([{,])%s="' % ours, r'\1%s="' % snake, renamed)
    return promtool(data), promtool(renamed.encode("utf-8"))


def judge_promtool(outputs, problems):
    """promtool's output, line by line: only the accepted finding; and nothing at all once the
    dcgm-exporter labels are renamed as promtool would have them."""
    (status, output), (renamed_status, renamed_output) = outputs
    if status not in (0, 3):  # 3: lint findings only; anything else is an error
        problems.append("promtool check metrics: exit %d: %s" % (status, output.strip()))
        return
    for line in output.splitlines():
        if line.strip() and not any(rule.match(line.strip()) for rule in ACCEPTED_LINT):
            problems.append("promtool check metrics: %s" % line.strip())
    if renamed_status != 0 or renamed_output.strip():
        problems.append("promtool check metrics, dcgm-exporter labels renamed: exit %d: %s"
                        % (renamed_status, renamed_output.strip()[:300]))


def check_promtool(path, problems):
    judge_promtool(run_promtool(path), problems)


# promtool reads one file, from its standard input, per run: its runs wait in threads of their
# own while this process checks the files itself (the prometheus_client parse), so that both
# cores work.
PROMTOOL_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1))


def check_file(path, promtool_outputs=None):
    """The file's problems; promtool_outputs, where given, is a future of run_promtool(path)."""
    if promtool_outputs is None:
        promtool_outputs = PROMTOOL_POOL.submit(run_promtool, path)
    with open(path, "rb") as stream:
        raw = stream.read()
    problems = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        promtool_outputs.cancel()
        return ["not UTF-8: %s" % error]
    check_layout(text, problems)
    series = check_families(text, problems)
    judge_promtool(promtool_outputs.result(), problems)
    if not series:
        problems.append("no metric at all")
    return problems


def check_files(paths):
    """[check_file(path) for path in paths], promtool's runs of all of them started first."""
    futures = [PROMTOOL_POOL.submit(run_promtool, path) for path in paths]
    return [check_file(path, future) for path, future in zip(paths, futures)]


def reports_in(source_dir):
    patterns = ["tests/golden/**/*.json", "tests/data/*.json", "tests/metrics/reports/*.json"]
    found = []
    for pattern in patterns:
        found += sorted(glob.glob(os.path.join(source_dir, pattern), recursive=True))
    return [f for f in found if os.path.basename(f) != "listing.json"]


def as_label(text):
    """A report's string as a label value reads back: control characters but the line feed as the
    text \\xNN, one per UTF-8 byte (an implementation independent of the C++ one)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch != "\n" and (code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029)):
            out.append("".join("\\x%02x" % byte for byte in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def json_values(report):
    """{(testcase, buffer_size_mib, repeat): sorted values} of the entries with `values`."""
    out = {}
    seen = {}
    for entry in report["nvbandwidth"].get("testcases", []):
        if entry.get("status") != "Passed" or "values" not in entry:
            continue
        size = str(entry["bufferSize_MiB"]) if "bufferSize_MiB" in entry else None
        seen[(entry["name"], size)] = seen.get((entry["name"], size), 0) + 1
        repeat = str(seen[(entry["name"], size)]) if seen[(entry["name"], size)] > 1 else None
        # The base units, as the writer makes them: GB/s x 10^9, ns / 10^9.
        latency = entry.get("unit") == "ns"
        cells = [v / 1e9 if latency else v * 1e9 for row in entry["values"] for v in row
                 if v is not None]
        out.setdefault((as_label(entry["name"]), size, repeat), []).extend(cells)
    return {key: sorted(values) for key, values in out.items() if values}


def metric_values(text):
    out = {}
    for family in text_string_to_metric_families(text):
        if family.name not in VALUE_FAMILIES:
            continue
        for s in family.samples:
            key = (s.labels.get("testcase"), s.labels.get("buffer_size_mib"), s.labels.get("repeat"))
            out.setdefault(key, []).append(s.value)
    return {key: sorted(values) for key, values in out.items()}


def render_and_check(render, source_dir, folder):
    reports = reports_in(source_dir)
    if len(reports) < 15:
        return ["only %d reports found under %s" % (len(reports), source_dir)], []
    done = subprocess.run([render, folder] + reports, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)
    if done.returncode != 0:
        return ["render_metrics failed: %s" % done.stderr.decode("utf-8", "replace")], []
    problems = []
    files = []
    for report in reports:
        name = re.sub(r"[^A-Za-z0-9.-]", "_", report) + ".prom"
        path = os.path.join(folder, name)
        files.append(path)
        with open(report, encoding="utf-8") as stream:
            document = json.load(stream)
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
        expected = json_values(document)
        if expected and expected != metric_values(text):
            problems.append("%s: the value series differ from the report's values" % report)
    return problems, files


GOOD = (
    '# HELP nvbandwidth_bandwidth_bytes_per_second Bandwidth.\n'
    '# TYPE nvbandwidth_bandwidth_bytes_per_second gauge\n'
    'nvbandwidth_bandwidth_bytes_per_second{gpu="0",modelName="NVIDIA H200",'
    'testcase="a\\\\b\\"c\\nd",peer="CPU"} 55.5\n'
    '# HELP nvbandwidth_cell_outlier Outlier.\n'
    '# TYPE nvbandwidth_cell_outlier gauge\n'
    'nvbandwidth_cell_outlier{gpu="0",modelName="NVIDIA H200",testcase="a\\\\b\\"c\\nd",'
    'peer="CPU"} 0\n')
# Files the check must reject, each for one reason.
BAD = {
    "a family twice": GOOD + '# HELP nvbandwidth_bandwidth_bytes_per_second B.\n'
                             '# TYPE nvbandwidth_bandwidth_bytes_per_second gauge\n'
                             'nvbandwidth_bandwidth_bytes_per_second{gpu="1"} 1\n',
    "a series twice": GOOD.replace("} 0\n", "} 0\nnvbandwidth_cell_outlier{gpu=\"0\","
                                   "modelName=\"NVIDIA H200\",testcase=\"a\\\\b\\\"c\\nd\","
                                   "peer=\"CPU\"} 1\n"),
    "an empty label": GOOD.replace('peer="CPU"} 55.5', 'peer="CPU",link=""} 55.5'),
    "NaN": GOOD.replace("55.5", "NaN"),
    "+Inf": GOOD.replace("55.5", "+Inf"),
    "an unknown label": GOOD.replace('gpu="0",modelName', 'gpu="0",gpuName'),
    "a control character": GOOD.replace("NVIDIA H200\",testcase=\"a", "NVIDIA\tH200\",testcase=\"a", 1),
    "a cell without a value": GOOD.replace('nvbandwidth_cell_outlier{gpu="0"', 'nvbandwidth_cell_outlier{gpu="1"'),
    "no TYPE": GOOD.replace("# TYPE nvbandwidth_cell_outlier gauge\n", ""),
    "a counter": GOOD.replace("nvbandwidth_cell_outlier gauge", "nvbandwidth_cell_outlier counter"),
    "another prefix": GOOD.replace("nvbandwidth_cell_outlier", "dcgm_cell_outlier"),
    "no HELP text": GOOD.replace("# HELP nvbandwidth_cell_outlier Outlier.", "# HELP nvbandwidth_cell_outlier"),
    "an outlier of 2": GOOD.replace("} 0\n", "} 2\n"),
    "a gpu that is no index": GOOD.replace('gpu="0"', 'gpu="GPU-0"'),
    "an unescaped quote": GOOD.replace('\\"c', '"c'),
    "a missing last line feed": GOOD[:-1],
    "a sample of another family": GOOD.replace("nvbandwidth_cell_outlier{", "nvbandwidth_cell_outliers{"),
    "a lint finding not accepted": GOOD.replace("nvbandwidth_cell_outlier", "nvbandwidth_cell_outlier_kilometers"),
    "a unit that is not a base unit": GOOD.replace("nvbandwidth_bandwidth_bytes_per_second",
                                                   "nvbandwidth_bandwidth_gigabytes_per_second"),
    "a snake_case label finding hidden behind the accepted one":
        GOOD.replace('modelName="NVIDIA H200",testcase', 'modelName="NVIDIA H200",linkName="x",testcase', 1),
}


def self_test(folder):
    """The check rejects each BAD file and passes GOOD: it is not vacuous."""
    failures = []
    cases = [("good", GOOD)] + sorted(BAD.items())
    paths = []
    for number, (name, text) in enumerate(cases):
        paths.append(os.path.join(folder, "self_test_%d.prom" % number))
        with open(paths[-1], "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
    for (name, text), problems in zip(cases, check_files(paths)):
        if name == "good" and problems:
            failures.append("self-test: a good file fails: %s" % problems)
        elif name != "good" and not problems:
            failures.append("self-test: a file with %s passes" % name)
    # The accepted finding cannot hide a label of ours spelled like dcgm-exporter's.
    path = os.path.join(folder, "self_test.prom")
    with open(path, "w", encoding="utf-8", newline="") as stream:
        stream.write(BAD["a snake_case label finding hidden behind the accepted one"])
    found = []
    check_promtool(path, found)
    if not any("dcgm-exporter labels renamed" in p for p in found):
        failures.append("self-test: promtool's camelCase finding of a label of ours passes: %r"
                        % found)
    return failures


def command_files(binary, fake, source_dir, folder):
    """Metrics files written by `--metrics` itself: (problems, files)."""
    fleet = os.path.join(source_dir, "tests", "golden", "fleet")
    h200x2 = os.path.join(source_dir, "tests", "golden", "run_to_run_x2", "issue11_full.json")
    out = lambda name: os.path.join(folder, "cmd-" + name)
    runs = [
        ("fake-2.prom", [fake, "-t", "0", "1", "--output", out("fake-2.json")], {"NVBW_FAKE_GPUS": "2"}, 0),
        ("fake-8.prom", [fake, "-j", "--output", out("fake-8.json")],
         {"NVBW_FAKE_GPUS": "8", "NVBW_FAKE_LINKS": "nvswitch"}, 0),
        ("baseline.prom", [fake, "--baseline", out("fake-8.json")],
         {"NVBW_FAKE_GPUS": "8", "NVBW_FAKE_LINKS": "nvswitch"}, (0, 3)),
        ("from.prom", [binary, "--from", h200x2], {}, 0),
        ("compare.prom", [binary, "--compare", os.path.join(fleet, "fake_base.json"),
                          os.path.join(fleet, "fake_slower.json")], {}, 3),
    ]
    problems, files = [], []
    for name, argv, env, expected in runs:
        done = subprocess.run(argv + ["--metrics", out(name)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=dict(os.environ, **env), timeout=300)
        if done.returncode not in (expected if isinstance(expected, tuple) else (expected,)):
            problems.append("%s: exit %d: %s" % (" ".join(argv), done.returncode,
                                                 done.stderr.decode("utf-8", "replace")))
            continue
        files.append(out(name))
    for name in ("fake-2", "fake-8"):
        if out(name + ".prom") not in files:
            continue
        with open(out(name + ".json"), encoding="utf-8") as stream:
            expected = json_values(json.load(stream))
        with open(out(name + ".prom"), encoding="utf-8") as stream:
            text = stream.read()
        if not expected or expected != metric_values(text):
            problems.append("%s: the value series differ from the run's report" % out(name + ".prom"))
    for name, family in (("baseline.prom", "nvbandwidth_comparison_verdict"),
                         ("compare.prom", "nvbandwidth_comparison_verdict"),
                         ("fake-8.prom", "nvbandwidth_run_start_timestamp_seconds"),
                         ("fake-8.prom", "nvbandwidth_run_duration_seconds")):
        if out(name) in files:
            with open(out(name), encoding="utf-8") as stream:
                if "\n%s{" % family not in stream.read():
                    problems.append("%s: no %s" % (out(name), family))
    return problems, files


def promql_expressions(markdown):
    """The expressions of a Markdown text's ```promql blocks: each starts on a line of its own,
    indented lines continue it, # lines are comments."""
    expressions = []
    for block in re.findall(r"```promql\n(.*?)```", markdown, re.S):
        for line in block.split("\n"):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0] in " \t" and expressions:
                expressions[-1] += " " + line.strip()
            else:
                expressions.append(line.strip())
    return expressions


def check_documented_queries(source_dir, folder):
    """Every PromQL expression the READMEs and docs/ show parses (promtool check rules)."""
    expressions = []
    docs = ["README.md", "tests/metrics/README.md"]
    docs += sorted(os.path.relpath(page, source_dir)
                   for page in glob.glob(os.path.join(source_dir, "docs", "*.md")))
    for doc in docs:
        with open(os.path.join(source_dir, doc), encoding="utf-8") as stream:
            found = promql_expressions(stream.read())
        if doc == "README.md" and not found:
            return ["README.md shows no PromQL expression (its metrics recipe has one)"]
        expressions += found
    if len(expressions) < 5:
        return ["only %d PromQL expressions found in the READMEs" % len(expressions)]
    rules = os.path.join(folder, "documented.rules.yml")
    with open(rules, "w", encoding="utf-8") as stream:
        stream.write("groups:\n- name: documented\n  rules:\n")
        for i, expression in enumerate(expressions):
            stream.write("  - record: documented_%d\n    expr: %s\n" % (i, json.dumps(expression)))
    done = subprocess.run(["promtool", "check", "rules", rules], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    if done.returncode != 0:
        return ["a documented PromQL query does not parse: %s"
                % (done.stdout + done.stderr).decode("utf-8", "replace").strip()[:500]]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--render", help="render_metrics, to check every report in the tree")
    parser.add_argument("--source-dir", help="the repository, with --render")
    parser.add_argument("--binary", help="nvbandwidth, to check the files --metrics writes")
    parser.add_argument("--fake-binary", help="nvbandwidth_fake, with --binary")
    args = parser.parse_args()
    missing = []
    if text_string_to_metric_families is None:
        missing.append("the Prometheus Python client (Debian: python3-prometheus-client)")
    if shutil.which("promtool") is None:
        missing.append("promtool (Debian: prometheus)")
    if missing:
        print("check_metrics.py: cannot check without %s; ./debian_install.sh installs it"
              % " and ".join(missing), file=sys.stderr)
        return 1
    if args.render and not args.source_dir:
        parser.error("--render needs --source-dir")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="nvbw_metrics_") as folder:
        files = list(args.files)
        if args.render:
            problems = self_test(folder)
            for problem in problems:
                print(problem)
            failures += len(problems)
            problems, rendered = render_and_check(args.render, args.source_dir, folder)
            for problem in problems:
                print(problem)
            failures += len(problems)
            files += rendered
            files += sorted(glob.glob(os.path.join(args.source_dir, "tests/golden/metrics/*.prom")))
            problems = check_documented_queries(args.source_dir, folder)
            for problem in problems:
                print(problem)
            failures += len(problems)
        if args.binary:
            problems, written = command_files(args.binary, args.fake_binary, args.source_dir, folder)
            for problem in problems:
                print(problem)
            failures += len(problems)
            files += written
        for path, problems in zip(files, check_files(files)):
            for problem in problems[:20]:
                print("%s: %s" % (path, problem))
            if len(problems) > 20:
                print("%s: ... %d problems in all" % (path, len(problems)))
            failures += bool(problems)
        print("check_metrics.py: %d file(s) checked, %d failed" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
