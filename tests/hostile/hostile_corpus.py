#!/usr/bin/python3
"""The hostile-input corpus of issue 16: reports, paths, streams and options that a fleet tool
meets, each run as its own process of nvbandwidth (or of nvbandwidth_fake, where a run must be
under way) and checked against the contract in tests/hostile/README.md.

Usage: hostile_corpus.py --binary PATH --fake-binary PATH [--sanitized] [--table]
                         [-k SUBSTRING] [--source-dir DIR] [--jobs N] [--list]

Every input is made at test time in a temporary directory (the 300 MiB file is sparse; the 60 MB
report comes from nvbandwidth_fake). Exit 0 only if every selected case passes; otherwise each
failing case is printed with its command and what went wrong. --table prints per category: cases,
passed, the statuses seen, the largest peak RSS and the total time, as markdown.

Standard library only, plus python3-jsonschema for the cases that validate JSON output.
"""

import argparse
import concurrent.futures
import copy
import dataclasses
import hashlib
import itertools
import json
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Callable, Dict, List, Optional, Set, Tuple, Union

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GOLDEN = REPO / "tests" / "golden"
SCHEMA = REPO / "docs" / "nvbandwidth.schema.json"
VALIDATOR = REPO / "tests" / "schema" / "validate.py"

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30

# --- The bounds of the contract (tests/hostile/README.md). -----------------------------------
REPORT_SIZE_CAP = 256 * MiB        # the largest report the reader accepts (docs/report-files.md)
OVERSIZE_FILE = 300 * MiB          # a sparse file just over it
OVERSIZE_STDIN = 300 * MiB         # piped into `-`
STDIN_READ_SLACK = 2 * MiB         # pipe buffer and read-ahead allowed past the cap
NESTING = 100_000                  # levels of a deeply nested value
BIG_REPORT_GPUS = 64               # nvbandwidth_fake -j -i 20 with 64 GPUs: a ~59 MB report
BIG_REPORT_SAMPLES = 20
# Reading a valid report may take a small multiple of its size (issue 16: "measure it"): the
# reader refuses a document that would take more than 8 x its text + 16 MiB (docs/report-files.md,
# "Reading"), so a command stays under 8 x every report it reads, plus the page it writes held in
# memory while it is rendered (PAGE_RSS_FACTOR x the page), plus the program's own base.
BIG_REPORT_RSS_FACTOR = 8
BIG_REPORT_RSS_BASE = 64 * MiB
PAGE_RSS_FACTOR = 4
SMALL_CASE_RSS = 256 * MiB         # every other hostile case
OPTION_RSS = 64 * MiB              # an option error, the oversized file, a refused device
STDIN_CAP_RSS = 640 * MiB          # `-` over the cap: the capped buffer, one copy, slack
OPTION_MAX_SECONDS = 1.0           # an option error or an oversized file is refused this fast
DEFAULT_TIMEOUT_S = 20.0           # a case still running then hangs: killed, failed
FAST_TIMEOUT_S = 5.0               # cases that must not block at all (FIFOs, devices)
OUTPUT_KEPT = 1 * MiB              # of a case's stdout and stderr, for the checks
SIGNAL_DELAY_S = 0.5               # how long a blocked read waits before the signal
REACTION_S = 0.5                   # a signal during a long loop over a report ends it this fast
METRICS_TEXT_RSS_FACTOR = 1.1      # --metrics holds its text once (pieces), never twice
FAST_REFUSAL_S = 1.0               # a report whose metrics cannot fit is refused this fast
ADDRESS_SPACE_LIMIT = 4 * GiB      # RLIMIT_AS, plain mode only (ASan reserves terabytes)
FILE_SIZE_LIMIT = 1 * GiB          # RLIMIT_FSIZE of every case unless it sets its own
HTML_FSIZE_LIMIT = 4 * KiB         # smaller than any HTML page
# Under ASan/UBSan everything is slower and bigger (shadow memory, quarantine).
SANITIZED_TIME_FACTOR = 5.0
SANITIZED_RSS_FACTOR = 3
SANITIZED_RSS_BASE = 512 * MiB

SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"runtime error:", b"LeakSanitizer",
                     b"ERROR: UndefinedBehaviorSanitizer", b"ThreadSanitizer")
DEPTH_WORDS = r"(?i)(nest|deep|depth)"
SIZE_WORDS = r"(?i)(256|too large|too big|larger|exceed|size|MiB|bytes)"
STDIN_NAMES = ("'-'", '"-"', "stdin", "standard input")

# A string with every kind of control character a terminal or a page could act on: ESC
# sequences (colour, clear screen), BEL, NUL, DEL, the C1 controls NEL and CSI, CR, and a
# newline followed by text that must never start a line of the output.
INJECTED = "INJECTED-LINE"
HOSTILE = ("A\x1b[31mRED\x1b[0m\x1b]0;title\x07BEL\x07NUL\x00DEL\x7fNEL\x85CSI\x9b2J"
           "\rCR\n" + INJECTED)
HOSTILE_ONE_LINE = HOSTILE.replace("\n", " ")  # where a schema pattern forbids a newline


# --- Cases -----------------------------------------------------------------------------------

Check = Callable[["Result"], List[str]]


@dataclasses.dataclass
class Case:
    name: str
    category: str
    argv: List[str]
    prog: str = "real"                     # "real": --binary; "fake": --fake-binary
    # Written into the workdir: bytes, or a function that writes the file (large inputs are
    # made per case so that the harness's own memory, which every child inherits as its
    # starting peak RSS, stays small).
    files: Dict[str, Union[bytes, Callable[[Path], None]]] = dataclasses.field(default_factory=dict)
    setup: Optional[Callable[[Path], None]] = None  # after files, e.g. links, FIFOs
    cleanup: Optional[Callable[[Path], None]] = None
    stdin: Union[None, bytes, str, Callable] = None  # bytes, "hang", or a generator factory
    stdout: str = "file"                   # "file", "full" (/dev/full), "closed", "null"
    stderr: str = "file"
    send: Optional[Tuple[int, float]] = None  # (signal, seconds after start)
    reaction: Optional[float] = None       # at most this long from the signal to the exit
    wrap: List[str] = dataclasses.field(default_factory=list)  # runs the program (setpriv ...)
    nofile: Optional[int] = None           # RLIMIT_NOFILE
    rss_output: Optional[Tuple[str, float]] = None  # bound += factor x the size of this output
    env: Dict[str, str] = dataclasses.field(default_factory=dict)
    fsize: Optional[int] = None            # RLIMIT_FSIZE
    status: Set[int] = dataclasses.field(default_factory=lambda: {0})
    dies_by: Set[int] = dataclasses.field(default_factory=set)  # deaths by signal allowed
    stdout_empty: bool = False
    usage: Optional[Tuple[str, Tuple[str, ...]]] = None  # option, names one of which is named
    one_line: bool = False                 # exactly one line on stderr
    message: Optional[str] = None          # regex the stderr line must match
    creates: Set[str] = dataclasses.field(default_factory=set)  # new names in the workdir
    may_create: Set[str] = dataclasses.field(default_factory=set)  # allowed, not required
    timeout: float = DEFAULT_TIMEOUT_S
    max_seconds: Optional[float] = None    # CPU seconds (user + system): a busy machine stays fair
    rss: int = SMALL_CASE_RSS
    rss_from: Optional[str] = None          # "indented"/"compact": a multiple of that report's size
    outside: List[str] = dataclasses.field(default_factory=list)  # inputs outside the workdir
    absent: List[str] = dataclasses.field(default_factory=list)   # paths that must not exist after
    checks: List[Check] = dataclasses.field(default_factory=list)
    static: Optional[Callable[["Context"], List[str]]] = None  # a check without a process
    needs: Optional[str] = None            # "big": needs the generated big report

    def command(self, ctx: "Context") -> List[str]:
        return [ctx.binary if self.prog == "real" else ctx.fake_binary] + self.argv


@dataclasses.dataclass
class Result:
    case: Case
    status: str = ""                       # "0".."255", a signal name, "timeout", "static"
    code: Optional[int] = None
    signal: Optional[int] = None
    timed_out: bool = False
    seconds: float = 0.0
    cpu_seconds: float = 0.0               # the program's user + system time
    rss_kib: int = 0
    stdout: bytes = b""
    stderr: bytes = b""
    workdir: Optional[Path] = None
    stdin_accepted: int = 0                # bytes the program took from a streamed stdin
    floor_kib: int = 0                     # the harness's peak when the case started
    signalled_at: Optional[float] = None   # seconds after the start when the signal was sent
    problems: List[str] = dataclasses.field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


class Context:
    def __init__(self, args, root: Path):
        self.binary = str(Path(args.binary).resolve())
        self.fake_binary = str(Path(args.fake_binary).resolve())
        self.sanitized = args.sanitized
        self.source_dir = str(Path(args.source_dir).resolve()) if args.source_dir else str(REPO)
        self.root = root
        self.shared = root / "shared"
        self.shared.mkdir()
        self.big: Optional[Path] = None          # the big report, indented
        self.big_compact: Optional[Path] = None  # the same without newlines and tabs
        self.big_problem = ""
        self._serial = 0
        self._lock = threading.Lock()

    def new_dirs(self) -> Tuple[Path, Path]:
        with self._lock:
            self._serial += 1
            n = self._serial
        work = self.root / f"case{n:04d}"
        capture = self.root / f"capture{n:04d}"
        work.mkdir()
        (capture / "tmp").mkdir(parents=True)
        return work, capture

    def time_factor(self) -> float:
        return SANITIZED_TIME_FACTOR if self.sanitized else 1.0

    def rss_bound(self, case: Case, page: Optional[Path] = None,
                  work: Optional[Path] = None) -> int:
        bound = case.rss
        if case.rss_output and work is not None and (work / case.rss_output[0]).is_file():
            bound += int(case.rss_output[1] * (work / case.rss_output[0]).stat().st_size)
        report = {"indented": self.big, "compact": self.big_compact}.get(case.rss_from)
        if report is not None:
            # Every time the command line names the report, it is read (--compare A A: twice).
            reads = max(1, sum(1 for arg in case.argv
                               if arg in (case.rss_from, str(report)) or arg.endswith("/" + report.name)))
            bound = BIG_REPORT_RSS_FACTOR * reads * report.stat().st_size + BIG_REPORT_RSS_BASE
            if page is not None and page.exists():
                bound += PAGE_RSS_FACTOR * page.stat().st_size
        if self.sanitized:
            bound = SANITIZED_RSS_FACTOR * bound + SANITIZED_RSS_BASE
        return bound


# --- Inputs ----------------------------------------------------------------------------------

def load_golden(relative: str) -> dict:
    with open(GOLDEN / relative, encoding="utf-8") as f:
        return json.load(f)


BASE = load_golden("fleet/fake_base.json")        # this tool's report, 2 GPUs, 6 entries
SLOWER = load_golden("fleet/fake_slower.json")    # the same machine 20% slower
H200 = load_golden("run_to_run_x2/issue11_full.json")           # a real 2 x H200 run
UPSTREAM = load_golden("upstream/default.json")   # upstream v0.8, 1 GPU, string cells
FEATURES = load_golden("html/features.json")      # comparison, sweep, warnings, 3 GPUs


def dump(document: dict, raw: Optional[Dict[str, str]] = None, ascii_only: bool = True,
         compact: bool = False, raw_bytes: Optional[Dict[str, bytes]] = None) -> bytes:
    """JSON text of `document`; each string "@name@" in `raw` is replaced by raw JSON text (what
    json.dumps cannot write: 1e400, NaN, deep nesting) and in `raw_bytes` by raw bytes."""
    if compact:
        text = json.dumps(document, ensure_ascii=ascii_only, separators=(",", ":"))
    else:
        text = json.dumps(document, ensure_ascii=ascii_only, indent=1)
    for key, value in (raw or {}).items():
        assert json.dumps(key) in text, key
        text = text.replace(json.dumps(key), value)
    data = text.encode("utf-8")
    for key, value in (raw_bytes or {}).items():
        assert json.dumps(key).encode() in data, key
        data = data.replace(json.dumps(key).encode(), value)
    return data


def mutated(source: dict, change: Callable[[dict], None], **dump_args) -> bytes:
    document = copy.deepcopy(source)
    change(document["nvbandwidth"])
    return dump(document, **dump_args)


def setter(path: str, value) -> Callable[[dict], None]:
    """A change that sets the value at a dotted path under "nvbandwidth" (integers index)."""
    keys = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]

    def change(report: dict) -> None:
        target = report
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return change


def nested(levels: int) -> str:
    return "[" * levels + "1" + "]" * levels


def nested_objects(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def upstream_style(report: dict) -> dict:
    """This tool's report reduced to what upstream v0.8 writes: string matrices, no samples."""
    keep = {"CUDA Runtime Version", "Driver Version", "GPU Device list", "git_version",
            "testcases", "version"}
    out = {k: copy.deepcopy(v) for k, v in report["nvbandwidth"].items() if k in keep}
    out["testcases"] = [{k: e[k] for k in ("bandwidth_description", "bandwidth_matrix", "name",
                                           "status", "sum") if k in e}
                        for e in out["testcases"]]
    return {"nvbandwidth": out}


UPSTREAM2 = upstream_style(BASE)                   # upstream layout with 2 GPUs


def with_cell(report: dict, entry: int, value: float) -> None:
    """Sets cell [0][0] of an entry to `value` consistently: values, string cell, samples."""
    e = report["testcases"][entry]
    e["values"][0][0] = value
    e["bandwidth_matrix"][0][0] = f"{value:g}"
    e["cells"][0][0] = {"cv": None if value == 0 else 0.0, "max": value, "mean": value,
                        "median": value, "min": value, "samples": [value] * 3, "stddev": 0.0}
    e["percent_of_peak"][0][0] = 100.0 * value / e["peak_GBps"][0][0]
    e["sum"] = sum(v for row in e["values"] for v in row if v is not None)


# --- Output checks ---------------------------------------------------------------------------

_BAD_CHARACTERS: Dict[str, "re.Pattern[str]"] = {}


def bad_characters(text: str, allowed: str) -> List[str]:
    """The first three C0 controls not in `allowed`, DEL or C1 controls of the text (one regex
    search instead of a Python loop over every character of the output)."""
    pattern = _BAD_CHARACTERS.get(allowed)
    if pattern is None:
        c0 = "".join(chr(o) for o in range(0x20) if chr(o) not in allowed)
        pattern = _BAD_CHARACTERS[allowed] = re.compile("[" + re.escape(c0) + "\x7f-\x9f]")
    found = []
    for match in pattern.finditer(text):
        i, o = match.start(), ord(match.group())
        found.append(f"U+{o:04X} at {i} in {text[max(0, i - 30):i + 10]!r}")
        if len(found) == 3:
            break
    return found


def clean_text(data: bytes, what: str) -> List[str]:
    """Terminal-safe: UTF-8, no control character but \\n and \\t, no injected line start."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"{what} is not UTF-8: {e}"]
    problems = [f"{what} holds a control character: {b}" for b in bad_characters(text, "\n\t")]
    for line in text.split("\n"):
        if line.startswith(INJECTED):
            problems.append(f"{what}: a report string started a line of its own: {line[:60]!r}")
            break
    return problems


def strict_json(data: bytes, what: str):
    """Parsed as the strictest readers parse (Go's, serde_json): no NaN or Infinity constant, no
    number that is not a finite double (1e+9999)."""
    def no_constant(name):
        raise ValueError(f"non-JSON constant {name}")

    def finite(text):
        value = float(text)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"a number that is not a finite double: {text}")
        return value
    try:
        return json.loads(data.decode("utf-8"), parse_constant=no_constant, parse_float=finite), []
    except (UnicodeDecodeError, ValueError) as e:
        return None, [f"{what} is not strict JSON: {str(e)[:200]}"]


def check_json_file(name: str, schema: bool = False) -> Check:
    """A JSON file the case wrote: strict JSON (and valid against the schema)."""
    def check(result: Result) -> List[str]:
        path = result.workdir / name
        if not path.is_file():
            return [f"{name} was not written"]
        data = path.read_bytes()
        problems = strict_json(data, name)[1]
        if schema and not problems:
            problems = [p.replace("stdout", name) for p in SCHEMA_SERVICE.problems(data)]
        return problems
    return check


def check_stdout_text(result: Result) -> List[str]:
    return clean_text(result.stdout, "stdout")


def check_stderr_text(result: Result) -> List[str]:
    return clean_text(result.stderr, "stderr")


def check_stdout_json(result: Result) -> List[str]:
    return strict_json(result.stdout, "stdout")[1]


class SchemaService:
    """tests/schema/validate.py --serve, started on first use and shared by the worker threads:
    one process for every document (one per document cost a fifth of a second each, a third of
    the corpus's time), and out of the harness, whose peak RSS every child inherits (jsonschema
    would grow it)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._process: Optional[subprocess.Popen] = None

    def problems(self, document: bytes) -> List[str]:
        with self._lock:
            if self._process is None:
                self._process = subprocess.Popen(
                    ["/usr/bin/python3", str(VALIDATOR), "--serve", str(SCHEMA)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            try:
                self._process.stdin.write(b"%d\n" % len(document) + document)
                self._process.stdin.flush()
                answer = self._process.stdout.readline()
            except OSError as e:
                answer = str(e).encode()
            if not answer.startswith(b"{"):
                self._process = None
                return [f"the schema validator ended: {answer[:200]!r}"]
        reply = json.loads(answer)
        return [] if reply["valid"] else [f"stdout is not valid against the schema: {line[:200]}"
                                         for line in reply["lines"][:6]]

    def close(self) -> None:
        if self._process is not None:
            self._process.stdin.close()
            self._process.wait(timeout=30)


SCHEMA_SERVICE = SchemaService()


def check_stdout_interrupted(result: Result) -> List[str]:
    """One JSON document that says the run was stopped before it measured anything."""
    document, problems = strict_json(result.stdout, "stdout")
    if problems:
        return problems
    run = document.get("nvbandwidth", {}) if isinstance(document, dict) else {}
    if not str(run.get("interrupted", "")).startswith("SIG") or "stopped by" not in str(
            run.get("error", "")):
        return ["stdout: no \"interrupted\" and \"error\" saying the run was stopped: %r"
                % result.stdout[:200]]
    return []


def check_stdout_schema(result: Result) -> List[str]:
    """Valid against docs/nvbandwidth.schema.json, by tests/schema/validate.py."""
    problems = strict_json(result.stdout, "stdout")[1]
    if problems:
        return problems
    return SCHEMA_SERVICE.problems(result.stdout)


def check_no_nan_text(result: Result) -> List[str]:
    text = result.stdout.decode("utf-8", "replace")
    match = re.search(r"(?i)\b-?(nan|inf|infinity)\b", text)
    return [f"stdout shows a non-finite number: {text[max(0, match.start() - 40):match.end()]!r}"] \
        if match else []


def page_problems(path: Path) -> List[str]:
    if not path.is_file():
        return [f"{path.name} was not written"]
    data = path.read_bytes()
    try:
        ElementTree.fromstring(data)
    except ElementTree.ParseError as e:
        return [f"{path.name} does not parse as XML: {e}"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"{path.name} is not UTF-8: {e}"]
    return [f"{path.name} holds a raw control character: {b}"
            for b in bad_characters(text, "\n\t\r")]


def check_page(name: str = "out.html", finite: bool = False) -> Check:
    def check(result: Result) -> List[str]:
        problems = page_problems(result.workdir / name)
        if finite and not problems:
            text = (result.workdir / name).read_text(encoding="utf-8")
            if re.search(r"(?i)(>|\s)-?(nan|inf|infinity)(<|\s|%)", text):
                problems.append(f"{name} shows a non-finite number")
        return problems
    return check


def when_accepted(*checks: Check) -> Check:
    """For inputs the program may refuse or accept: refused, the case's usage-error checks apply
    (judge); accepted, these."""
    def check(result: Result) -> List[str]:
        if result.code == 2:
            return [f"stdout is not empty: {result.stdout[:120]!r}"] if result.stdout else []
        problems = []
        for c in checks:
            problems += c(result)
        return problems
    return check


# --- Running a case --------------------------------------------------------------------------

def fingerprint(path: Path):
    st = os.lstat(path)
    kind = stat.S_IFMT(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        if st.st_size > 128 * MiB:  # the sparse file: hashing it would read 300 MiB of zeros
            return ("file", st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns)
        digest = hashlib.sha256()
        with open(path, "rb") as f:  # in pieces: the harness's peak is every child's floor
            for piece in iter(lambda: f.read(64 * KiB), b""):
                digest.update(piece)
        return ("file", st.st_ino, st.st_mode, digest.hexdigest())
    if stat.S_ISDIR(st.st_mode):
        return ("dir", st.st_mode)
    return ("special", kind, st.st_rdev)


def snapshot(top: Path) -> Dict[str, tuple]:
    entries = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            entries[str(path.relative_to(top))] = fingerprint(path)
    return entries


def base_env(ctx: Context, tmp: Path) -> Dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TMPDIR": str(tmp), "HOME": str(tmp)}
    for passed in ("LD_LIBRARY_PATH",):
        if passed in os.environ:
            env[passed] = os.environ[passed]
    if ctx.sanitized:
        env["ASAN_OPTIONS"] = ("detect_leaks=1:abort_on_error=0:halt_on_error=1:"
                               "handle_segv=1:allocator_may_return_null=0:detect_odr_violation=0")
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=0"
        env["LSAN_OPTIONS"] = "report_objects=0"
    return env


def streamed_writer(fd: int, chunks, result: Result) -> None:
    """Writes the chunks into the pipe until the reader goes away; counts what it took."""
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                n = os.write(fd, view)
                result.stdin_accepted += n
                view = view[n:]
    except OSError:  # EPIPE: the program closed stdin or ended
        pass
    finally:
        os.close(fd)


def waits_for_input(pid: int) -> bool:
    """Whether the process sleeps in the kernel waiting for a file to become readable (poll,
    select, a pipe's read): for a case whose standard input nobody feeds, the moment to send its
    signal. False where the kernel does not say (the fixed delay then applies)."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            where = f.read()
    except OSError:
        return False
    return any(word in where for word in ("poll", "select", "pipe_read", "pipe_wait"))


def run_case(case: Case, ctx: Context) -> Result:
    try:
        return run_case_unguarded(case, ctx)
    except Exception as e:  # a broken setup fails its case, not the whole corpus
        import traceback
        result = Result(case, status="harness error")
        result.problems = [f"the harness failed: {type(e).__name__}: {e}",
                           traceback.format_exc().strip().splitlines()[-3]]
        return result


def run_case_unguarded(case: Case, ctx: Context) -> Result:
    result = Result(case)
    if case.needs == "big" and ctx.big is None:
        result.status = "not run"
        result.problems.append(f"the big report could not be made: {ctx.big_problem}")
        return result
    if case.static is not None:
        start = time.monotonic()
        result.status = "static"
        result.problems = case.static(ctx)
        result.seconds = time.monotonic() - start
        return result

    work, capture = ctx.new_dirs()
    result.workdir = work
    tmp = capture / "tmp"
    for name, data in case.files.items():
        if callable(data):
            data(work / name)
        else:
            (work / name).write_bytes(data)
    if case.setup:
        case.setup(work)
    before = snapshot(work)
    outside_before = {p: fingerprint(Path(p)) for p in case.outside if os.path.lexists(p)}

    limits = ["--core=0", f"--fsize={case.fsize if case.fsize is not None else FILE_SIZE_LIMIT}"]
    if not ctx.sanitized:
        limits.append(f"--as={ADDRESS_SPACE_LIMIT}")
    if case.nofile is not None:
        limits.append(f"--nofile={case.nofile}")
    command = ["/usr/bin/prlimit"] + limits + ["--"] + case.wrap + case.command(ctx)
    closes = ""
    if case.stdout == "closed":
        closes += " 1>&-"
    if case.stderr == "closed":
        closes += " 2>&-"
    if closes:
        command = ["/bin/sh", "-c", 'exec "$@"' + closes, "sh"] + command
    env = base_env(ctx, tmp)
    env.update(case.env)

    def target(kind: str, name: str):
        if kind in ("full", "null"):
            return open(f"/dev/{kind}", "wb")
        return open(capture / name, "wb")

    out_file, err_file = target(case.stdout, "stdout"), target(case.stderr, "stderr")
    hold_fd = None
    writer = None
    if case.stdin is None:
        stdin = subprocess.DEVNULL
    else:
        read_fd, write_fd = os.pipe()
        stdin = read_fd
        if case.stdin == "hang":
            hold_fd = write_fd  # open and silent until the process has ended
        else:
            chunks = [case.stdin] if isinstance(case.stdin, bytes) else case.stdin()
            writer = threading.Thread(target=streamed_writer, args=(write_fd, chunks, result),
                                      daemon=True)

    timeout = case.timeout * ctx.time_factor()
    result.floor_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.monotonic()
    try:
        process = subprocess.Popen(command, cwd=work, env=env, stdin=stdin, stdout=out_file,
                                   stderr=err_file, start_new_session=True, close_fds=True)
    finally:
        out_file.close()
        err_file.close()
        if stdin is not subprocess.DEVNULL:
            os.close(stdin)
    if writer:
        writer.start()
    # Long enough to be blocked in the read; a sanitized start-up takes a little longer. A case
    # that reads a pipe nobody feeds gets its signal as soon as the program waits on it.
    signal_at = start + case.send[1] * (2 if ctx.sanitized else 1) if case.send else None
    while True:
        pid, wait_status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic()
        if signal_at is not None and (now >= signal_at or
                                      (case.stdin == "hang" and waits_for_input(process.pid))):
            os.kill(process.pid, case.send[0])
            result.signalled_at = now - start
            signal_at = None
        if now - start >= timeout:
            result.timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            pid, wait_status, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.003)
    result.seconds = time.monotonic() - start
    process.returncode = 0  # reaped here; keeps Popen from waiting again
    if hold_fd is not None:
        os.close(hold_fd)
    if writer:
        writer.join(10)
    result.rss_kib = usage.ru_maxrss
    result.cpu_seconds = usage.ru_utime + usage.ru_stime
    if result.timed_out:
        result.status = "timeout"
    elif os.WIFSIGNALED(wait_status):
        result.signal = os.WTERMSIG(wait_status)
        result.status = signal.Signals(result.signal).name
    else:
        result.code = os.WEXITSTATUS(wait_status)
        result.status = str(result.code)
    # At most OUTPUT_KEPT bytes of each: the checks need no more, and the harness's memory is
    # every later child's starting peak RSS.
    for kind, attribute in ((case.stdout, "stdout"), (case.stderr, "stderr")):
        if kind == "file":
            path = capture / attribute
            with open(path, "rb") as f:
                setattr(result, attribute, f.read(min(path.stat().st_size, OUTPUT_KEPT)))

    try:
        result.problems = judge(case, ctx, result, before, snapshot(work), outside_before, tmp,
                                work)
    except Exception as e:  # a check that breaks is a failure of the case, with the reason
        result.problems = [f"checking failed: {type(e).__name__}: {e}"]
    if case.cleanup:
        case.cleanup(work)
    # Judged: keep only what a failure report quotes, so the harness does not grow.
    keep = 0 if result.passed else 2048
    result.stdout, result.stderr = result.stdout[:keep], result.stderr[:keep]
    return result


def usage_problems(result: Result, option: str, names: Tuple[str, ...],
                   message: Optional[str]) -> List[str]:
    problems = []
    err = result.stderr
    lines = err.split(b"\n")
    if not err.endswith(b"\n") or len(lines) != 2:
        problems.append(f"stderr is not exactly one line: {err[:400]!r}")
    line = lines[0].decode("utf-8", "replace")
    if not line.startswith("nvbandwidth: "):
        problems.append(f"the stderr line does not start with 'nvbandwidth: ': {line[:200]!r}")
    if option and option not in line:
        problems.append(f"the stderr line does not name {option}: {line[:200]!r}")
    if names and not any(n in line for n in names):
        problems.append(f"the stderr line does not name the file ({' or '.join(names)}): "
                        f"{line[:200]!r}")
    if message and not re.search(message, line):
        problems.append(f"the stderr line does not say what is wrong (/{message}/): {line[:200]!r}")
    return problems


def judge(case: Case, ctx: Context, result: Result, before, after, outside_before,
          tmp: Path, work: Path) -> List[str]:
    problems = []
    if result.timed_out:
        problems.append(f"hung: still running after {case.timeout * ctx.time_factor():.0f} s")
    elif result.signal is not None:
        if result.signal not in case.dies_by:
            problems.append(f"killed by {result.status}")
    elif result.code not in case.status:
        problems.append(f"exit status {result.code}, expected {' or '.join(map(str, sorted(case.status)))}")
    for marker in SANITIZER_REPORTS:
        if marker in result.stderr:
            at = result.stderr.index(marker)
            problems.append(f"sanitizer report: {result.stderr[at:at + 200]!r}")
    bound = ctx.rss_bound(case, work / "out.html" if "out.html" in case.creates else None, work)
    if result.rss_kib * KiB > bound:
        if result.rss_kib <= result.floor_kib + 1024:
            # The child's ru_maxrss began at the harness's peak: its own is unknown below that.
            problems.append(f"cannot check the {bound // MiB} MiB bound: the harness itself "
                            f"peaked at {result.floor_kib // 1024} MiB")
        else:
            problems.append(f"peak RSS {result.rss_kib // 1024} MiB over the bound "
                            f"{bound // MiB} MiB")
    if case.reaction is not None and not result.timed_out:
        limit = case.reaction * ctx.time_factor()
        if result.signalled_at is None:
            problems.append("ended before the signal was sent: the case cannot check the reaction")
        elif result.seconds - result.signalled_at > limit:
            problems.append(f"took {result.seconds - result.signalled_at:.2f} s after the signal, "
                            f"more than {limit:.2f} s")
    if case.max_seconds is not None and not result.timed_out:
        limit = case.max_seconds * ctx.time_factor()
        if result.cpu_seconds > limit:
            problems.append(f"took {result.cpu_seconds:.2f} s of CPU ({result.seconds:.2f} s), "
                            f"more than {limit:.2f} s")
    if (case.stdout_empty or (case.usage is not None and result.code == 2)) and result.stdout:
        problems.append(f"stdout is not empty: {result.stdout[:120]!r}")
    if case.usage is not None and result.code == 2:
        problems += usage_problems(result, case.usage[0], case.usage[1], case.message)
    elif case.one_line:
        err = result.stderr
        if not err.endswith(b"\n") or err.count(b"\n") != 1:
            problems.append(f"stderr is not exactly one line: {err[:400]!r}")
    # The working directory: inputs unchanged, exactly the expected files created, no leftovers.
    added = set(after) - set(before)
    removed = set(before) - set(after)
    changed = {k for k in set(before) & set(after) if before[k] != after[k]}
    if added - case.creates - case.may_create:
        problems.append("left files that should not exist: "
                        f"{sorted(added - case.creates - case.may_create)}")
    if case.creates - added:
        problems.append(f"did not create {sorted(case.creates - added)}")
    if removed:
        problems.append(f"removed {sorted(removed)}")
    if changed:
        problems.append(f"changed inputs {sorted(changed)}")
    for path, print_before in outside_before.items():
        if not os.path.lexists(path) or fingerprint(Path(path)) != print_before:
            problems.append(f"changed input {path}")
    for path in case.absent:
        if os.path.lexists(path):
            problems.append(f"{path} exists after the run")
    leftovers = sorted(os.listdir(tmp))
    if leftovers:
        problems.append(f"left files in TMPDIR: {leftovers[:5]}")
    for check in case.checks:
        problems += check(result)
    return problems


# --- The corpus ------------------------------------------------------------------------------

@dataclasses.dataclass
class Input:
    """A report-shaped input for the reading options: a file's bytes, or something else."""
    key: str
    data: Union[None, bytes, Callable[[Path], None]] = None  # a file named <key>.json
    path: Optional[str] = None        # an absolute path (a device)
    kind: str = "file"                # file, missing, dir, fifo, sparse, link, stdin, stream
    message: Optional[str] = None     # what the one stderr line must say (regex)
    either: bool = False              # may be refused or accepted (then `accepted` checks)
    accepted: Tuple[Check, ...] = ()
    timeout: float = DEFAULT_TIMEOUT_S
    rss: int = SMALL_CASE_RSS
    max_seconds: Optional[float] = None
    link_target: str = ""
    modes: Tuple[str, ...] = ("compare", "baseline", "from")


GOOD = dump(BASE)
SLOWER_BYTES = dump(SLOWER)
MODE_OPTION = {"compare": "--compare", "compare-current": "--compare", "baseline": "--baseline",
               "from": "--from"}


def write_big_matrix(path: Path, side: int = 2000) -> None:
    """A report of one GPU whose first entry's `values` is side x side: written row by row."""
    def change(report: dict) -> None:
        report["GPU Device list"] = report["GPU Device list"][:1]
        report["testcases"][0]["values"] = "@matrix@"
    head, tail = mutated(BASE, change, compact=True).split(b'"@matrix@"')
    row = b"[" + b"1," * (side - 1) + b"1]"
    with open(path, "wb") as f:
        f.write(head + b"[")
        for i in range(side):
            f.write(row + (b"," if i < side - 1 else b""))
        f.write(b"]" + tail)


def sparse_over_cap(work: Path, name: str) -> None:
    path = work / name
    path.write_bytes(GOOD)
    os.truncate(path, OVERSIZE_FILE)


def stdin_over_cap():
    """`-` fed a document that stays valid JSON for longer than the cap: a report's opening and
    then whitespace, which a streaming parser would take for ever without using memory."""
    yield b'{"nvbandwidth" : '
    blank = b" " * MiB
    for _ in range(OVERSIZE_STDIN // MiB):
        yield blank
    yield b"{}}"


def unusable_inputs(ctx_listing: bytes) -> List[Input]:
    """Reports that cannot be used: each must be one usage error (exit 2)."""
    inputs: List[Input] = []

    def add(key, data=None, **kw):
        inputs.append(Input(key, data, **kw))

    fast = dict(timeout=FAST_TIMEOUT_S, rss=OPTION_RSS)
    # Not a report file at all.
    add("missing", kind="missing")
    add("directory", kind="dir", **fast)
    add("fifo-without-writer", kind="fifo", **fast)
    add("dev-zero", path="/dev/zero", kind="device", **fast)
    add("dev-urandom", path="/dev/urandom", kind="device", **fast)
    add("dev-null", path="/dev/null", kind="device", **fast)
    add("link-to-dev-zero", kind="link", link_target="/dev/zero", **fast)
    add("link-to-fifo", kind="link", link_target="fifo", **fast)
    add("over-256MiB-sparse", kind="sparse", message=SIZE_WORDS, timeout=FAST_TIMEOUT_S,
        rss=OPTION_RSS, max_seconds=OPTION_MAX_SECONDS)
    add("stdin-over-256MiB", kind="stream", message=SIZE_WORDS, rss=STDIN_CAP_RSS)
    add("stdin-not-json", b"this is not JSON\n", kind="stdin")
    # Not JSON, or not a report.
    add("empty", b"")
    add("whitespace", b" \n\t\n")
    add("not-json", b"nvbandwidth Version: v0.8\nthis is the text output, not -j\n")
    add("truncated", GOOD[: len(GOOD) // 2])
    add("truncated-in-string", GOOD[: GOOD.index(b"PCIe Gen5") + 4])
    add("binary-garbage", bytes((i * 167 + 13) % 256 for i in range(8192)))
    add("nul-bytes", b"\0" * 4096)
    add("trailing-garbage", GOOD + b"\n{}\n")
    add("two-documents", GOOD + GOOD)
    add("utf16", GOOD.decode().encode("utf-16"))
    add("scalar-number", b"42\n")
    add("scalar-string", b'"nvbandwidth"\n')
    add("scalar-null", b"null\n")
    add("scalar-true", b"true\n")
    add("array-empty", b"[]\n")
    add("array-of-report", b"[" + GOOD + b"]\n")
    add("object-empty", b"{}\n")
    add("nvbandwidth-number", b'{"nvbandwidth": 5}\n')
    add("nvbandwidth-array", b'{"nvbandwidth": []}\n')
    add("listing", ctx_listing)
    add("nan-literal", mutated(BASE, setter("testcases.0.values.0.0", "@v@"), raw={"@v@": "NaN"}))
    # Nesting 100,000 levels deep wherever a value may be anything.
    deep = nested(NESTING)
    for where, change in (
            ("settings", setter("settings.pair", "@deep@")),
            ("warnings", lambda r: (r.__setitem__("warnings", "@deep@"),
                                    r.__setitem__("warning", "w"))),
            ("gpu-list", setter("GPU Device list", "@deep@")),
            ("error", lambda r: r["testcases"].append(
                {"name": "x", "status": "ERROR", "error": "@deep@"})),
            ("unknown-key", setter("unknown_key", "@deep@")),
            ("values", setter("testcases.0.values", "@deep@"))):
        add(f"nested-{where}", mutated(BASE, change, raw={"@deep@": deep}), message=DEPTH_WORDS)
    add("nested-objects-unknown-key", mutated(BASE, setter("unknown_key", "@deep@"),
                                              raw={"@deep@": nested_objects(NESTING)}),
        message=DEPTH_WORDS)
    add("nested-top-level", nested(NESTING).encode(), message=DEPTH_WORDS)
    # Wrong types.
    for key, path, value in (
            ("name-number", "testcases.0.name", 5),
            ("name-null", "testcases.0.name", None),
            ("name-empty", "testcases.0.name", ""),
            ("name-array", "testcases.0.name", ["host_to_device_memcpy_ce"]),
            ("status-number", "testcases.0.status", 7),
            ("status-null", "testcases.0.status", None),
            ("status-unknown", "testcases.0.status", "Maybe"),
            ("testcases-object", "testcases", {}),
            ("testcases-string", "testcases", "x"),
            ("entry-number", "testcases.0", 5),
            ("gpu-list-number", "GPU Device list", 5),
            ("values-number", "testcases.0.values", 5),
            ("values-flat", "testcases.0.values", [190.0, 191.0]),
            # Strings where numbers belong.
            ("values-cell-string", "testcases.0.values.0.0", "x"),
            ("samples-string", "testcases.0.cells.0.0.samples.0", "a"),
            ("median-string", "testcases.0.cells.0.0.median", "x"),
            ("sum-string", "testcases.0.sum", "fast"),
            # Values no bandwidth or latency can have.
            ("values-negative", "testcases.0.values.0.0", -5.0),
            ("values-above-1e7", "testcases.0.values.0.0", 2e7),
            ("latency-negative", "testcases.5.values.0.0", -5.0),
            ("samples-negative", "testcases.0.cells.0.0.samples.0", -5.0),
            ("min-negative", "testcases.0.cells.0.0.min", -5.0),
            ("mean-negative", "testcases.0.cells.0.0.mean", -5.0)):
        add(key, mutated(BASE, setter(path, value)))
    # Above 0 and below any bandwidth or latency (1e-9): as divisors they made ratios infinite.
    for key, path, value in (
            ("values-subnormal", "testcases.0.values.0.0", 5e-324),
            ("values-below-1e-9", "testcases.0.values.0.0", 9e-10),
            ("latency-subnormal", "testcases.5.values.0.0", 5e-324),
            ("samples-subnormal", "testcases.0.cells.0.0.samples.0", 5e-324),
            ("median-subnormal", "testcases.0.cells.0.0.median", 5e-324),
            ("stddev-above-range", "testcases.0.cells.0.0.stddev", 1e300),
            ("sum-subnormal", "testcases.0.sum", 5e-324),
            ("peak-subnormal", "testcases.0.peak_GBps.0.0", 5e-324),
            ("percent-of-peak-subnormal", "testcases.0.percent_of_peak.0.0", 5e-324),
            ("percent-of-peak-1e300", "testcases.0.percent_of_peak.0.0", 1e300)):
        add(key, mutated(BASE, setter(path, value)))
    for key, path in (("values-infinite", "testcases.0.values.0.0"),
                      ("values-minus-infinite", "testcases.0.values.0.0"),
                      ("samples-infinite", "testcases.0.cells.0.0.samples.1"),
                      ("median-infinite", "testcases.0.cells.0.0.median"),
                      ("sum-infinite", "testcases.0.sum")):
        add(key, mutated(BASE, setter(path, "@v@"),
                         raw={"@v@": "-1e400" if "minus" in key else "1e400"}))
    # Upstream's string cells.
    for key, cell in (("upstream-cell-negative", "-5"), ("upstream-cell-infinite", "1e400"),
                      ("upstream-cell-above-1e7", "2e7"), ("upstream-cell-nan", "nan"),
                      ("upstream-cell-inf", "inf"), ("upstream-cell-word", "x"),
                      ("upstream-cell-subnormal", "4.9e-324"),
                      ("upstream-cell-empty", "")):
        add(key, mutated(UPSTREAM, setter("testcases.0.bandwidth_matrix.0.0", cell)))
    add("upstream-cell-number", mutated(UPSTREAM, setter("testcases.0.bandwidth_matrix.0.0", 55.4)),
        either=True, accepted=())
    # Sweep sums and comparison cells that no bandwidth can be.
    for key, value in (("sweep-sum-1.8e308", "1.8e308"), ("sweep-sum-1.7e308", "1.7e308"),
                       ("sweep-sum-negative", "-5"), ("sweep-sum-string", '"x"'),
                       ("sweep-sum-1e-300", "1e-300")):
        add(key, mutated(FEATURES, setter("sweep.series.0.sums.1", "@v@"), raw={"@v@": value}))
    add("comparison-baseline-negative", mutated(FEATURES, setter("comparison.cells.0.baseline", -5.0)))
    add("comparison-baseline-subnormal",
        mutated(FEATURES, setter("comparison.cells.0.baseline", 5e-324)))
    add("comparison-current-infinite", mutated(FEATURES, setter("comparison.cells.0.current", "@v@"),
                                               raw={"@v@": "1e400"}))
    # Shapes a report of its GPUs cannot hold.
    add("matrix-2000x2000-one-gpu", write_big_matrix)
    add("upstream-matrix-300x300-one-gpu",
        mutated(UPSTREAM, setter("testcases.0.bandwidth_matrix", [["1.0"] * 300] * 300)))
    add("matrix-3x3-two-gpus", mutated(BASE, setter("testcases.1.values",
                                                    [[None, 1.0, 1.0], [1.0, None, 1.0],
                                                     [1.0, 1.0, None]])))
    add("ragged-values", mutated(BASE, setter("testcases.1.values", [[None, 110.0], [101.0]])))
    add("ragged-cells", mutated(BASE, lambda r: r["testcases"][1]["cells"].__setitem__(
        1, r["testcases"][1]["cells"][1][:1])))
    add("upstream-ragged", mutated(UPSTREAM2, setter("testcases.1.bandwidth_matrix",
                                                     [["N/A", "110"], ["101"]])))
    return inputs


def reading_cases(inputs: List[Input]) -> List[Case]:
    """Each input through every option that reads a report, with and without -j."""
    cases = []
    for inp in inputs:
        variants = []
        for mode in inp.modes:
            variants += [(mode, False), (mode, True)]
        if inp.kind in ("file", "missing"):
            variants.append(("compare-current", False))
        for mode, as_json in variants:
            cases.append(reading_case(inp, mode, as_json))
    return cases


def input_name(inp: Input) -> Tuple[str, Tuple[str, ...]]:
    """The argument naming the input, and the names the message may use for it."""
    if inp.kind in ("stdin", "stream"):
        return "-", STDIN_NAMES
    if inp.kind == "device":
        return inp.path, (os.path.basename(inp.path),)
    name = {"dir": inp.key, "fifo": inp.key}.get(inp.kind, inp.key + ".json")
    return name, (name,)


def place_input(inp: Input, arg: str, files: Dict) -> Optional[Callable[[Path], None]]:
    """Puts `inp` in a case's working directory under the name `arg`: its bytes into `files`
    (a plain file), or the setup step that makes it (a directory, FIFO, sparse file or link)."""
    if inp.kind == "file":
        files[arg] = inp.data
        return None
    if inp.kind == "dir":
        return lambda w, a=arg: (w / a).mkdir()
    if inp.kind == "fifo":
        return lambda w, a=arg: os.mkfifo(w / a)
    if inp.kind == "sparse":
        return lambda w, a=arg: sparse_over_cap(w, a)
    if inp.kind == "link":
        def make_link(w, a=arg, t=inp.link_target):
            if t == "fifo":
                os.mkfifo(w / "fifo")
            os.symlink(t, w / a)
        return make_link
    return None


def reading_case(inp: Input, mode: str, as_json: bool, category: str = "unusable-report") -> Case:
    arg, names = input_name(inp)
    files: Dict[str, bytes] = {}
    setup = place_input(inp, arg, files)
    stdin = None
    if inp.kind == "stdin":
        stdin = inp.data
    elif inp.kind == "stream":
        stdin = stdin_over_cap
    option = MODE_OPTION[mode]
    if mode == "compare":
        argv, prog = ["--compare", arg, "good.json"], "real"
        files["good.json"] = GOOD
    elif mode == "compare-current":
        argv, prog = ["--compare", "good.json", arg], "real"
        files["good.json"] = GOOD
    elif mode == "baseline":
        argv, prog = ["--baseline", arg, "-t", "0"], "fake"
    else:
        argv, prog = ["--html", "out.html", "--from", arg], "real"
    if as_json:
        argv.append("-j")
    checks: List[Check] = []
    status = {2}
    if inp.either:
        status = {0, 2, 3}
        accepted = list(inp.accepted)
        if mode == "from":
            accepted.append(check_page())
        elif as_json:
            accepted.append(check_stdout_json)
        else:
            accepted.append(check_stdout_text)
        checks.append(when_accepted(*accepted))
    case = Case(
        name=f"{category}/{inp.key}/{mode}{' -j' if as_json else ''}",
        category=category, argv=argv, prog=prog, files=files, setup=setup, stdin=stdin,
        env={"NVBW_FAKE_GPUS": "2"} if prog == "fake" else {},
        status=status, usage=(option, names), message=inp.message,
        stdout_empty=not inp.either, timeout=inp.timeout, rss=inp.rss,
        max_seconds=inp.max_seconds, checks=checks,
        outside=[inp.path] if inp.kind == "device" else [])
    if inp.either and mode == "from":
        # Written when the report is accepted (the page check then reads it), never when refused.
        case.may_create = {"out.html"}
        case.checks.append(lambda r: [] if r.code != 2 or not (r.workdir / "out.html").exists()
                           else ["out.html written although the report was refused"])
    if inp.kind == "stream":
        case.checks.append(lambda r: [] if r.stdin_accepted <= REPORT_SIZE_CAP + STDIN_READ_SLACK
                           else [f"read {r.stdin_accepted // MiB} MiB of stdin, past the "
                                 f"{REPORT_SIZE_CAP // MiB} MiB cap"])
    return case


def reference_cases() -> List[Case]:
    """The unmutated inputs work in every mode: the refusals above are the mutations' doing."""
    cases = []
    for key, data in (("fake-base", GOOD), ("h200x2", dump(H200)), ("upstream", dump(UPSTREAM)),
                      ("upstream-2gpu", dump(UPSTREAM2)), ("features", dump(FEATURES))):
        for mode in ("compare", "baseline", "from"):
            for as_json in (False, True):
                files = {"report.json": data, "good.json": GOOD}
                if mode == "compare":
                    argv, prog, creates = ["--compare", "report.json", "good.json"], "real", set()
                elif mode == "baseline":
                    argv, prog, creates = ["--baseline", "report.json", "-t", "0"], "fake", set()
                else:
                    argv, prog, creates = ["--html", "out.html", "--from", "report.json"], \
                        "real", {"out.html"}
                if as_json:
                    argv.append("-j")
                checks = [check_page()] if mode == "from" else \
                    [check_stdout_json] if as_json else [check_stdout_text]
                cases.append(Case(
                    name=f"reference/{key}/{mode}{' -j' if as_json else ''}",
                    category="reference", argv=argv, prog=prog, files=files,
                    # 2: a report of another machine (GPU model or count) is shown, not judged.
                    env={"NVBW_FAKE_GPUS": "2"}, status={0, 2, 3}, creates=creates,
                    checks=checks))
    # `-` is standard input on purpose.
    cases.append(Case(name="reference/stdin/compare", category="reference",
                      argv=["--compare", "-", "good.json"], files={"good.json": GOOD},
                      stdin=SLOWER_BYTES, status={0, 3}, checks=[check_stdout_text]))
    cases.append(Case(name="reference/stdin/compare-current -j", category="reference",
                      argv=["--compare", "good.json", "-", "-j"], files={"good.json": GOOD},
                      stdin=SLOWER_BYTES, status={0, 3}, checks=[check_stdout_json]))
    cases.append(Case(name="reference/stdin/from", category="reference",
                      argv=["--html", "out.html", "--from", "-"], stdin=GOOD,
                      creates={"out.html"}, checks=[check_page()]))
    cases.append(Case(name="reference/stdin/baseline", category="reference", prog="fake",
                      argv=["--baseline", "-", "-t", "0"], stdin=GOOD,
                      env={"NVBW_FAKE_GPUS": "2"}, status={0, 3}, checks=[check_stdout_text]))
    return cases


def hostile_text_cases() -> List[Case]:
    """Valid reports whose strings hold control characters: accepted, and escaped on output."""
    cases = []
    locations = {
        "testcase-name": (lambda r: r["testcases"][0].__setitem__(
            "name", "host_to_device_memcpy_ce" + HOSTILE), True),
        "only-in-baseline-name": (lambda r: r["testcases"][1].__setitem__("name", HOSTILE), False),
        "settings-pair": (lambda r: r["settings"].__setitem__("pair", ["0" + HOSTILE, "1"]), False),
        "warnings": (lambda r: (r.__setitem__("warnings", ["NOTE: " + HOSTILE]),
                                r.__setitem__("warning", "NOTE: " + HOSTILE)), True),
        "error": (lambda r: r["testcases"].append(
            {"name": "err" + HOSTILE, "status": "ERROR", "error": "boom " + HOSTILE}), False),
        "driver-version": (lambda r: r.__setitem__("Driver Version", "580" + HOSTILE), False),
        "gpu-list": (lambda r: r["GPU Device list"].__setitem__(
            0, "0: NVIDIA H200" + HOSTILE_ONE_LINE + " (00000000:19:00): (node\x1b[2J)"), True),
        "description": (lambda r: r["testcases"][0].__setitem__(
            "bandwidth_description", HOSTILE), True),
        "cpu-model": (lambda r: r["environment"]["host"].__setitem__("cpu_model", HOSTILE), True),
    }
    for where, (change, both) in locations.items():
        for encoding, ascii_only in (("escaped", True), ("raw-utf8", False)):
            base = mutated(BASE, change, ascii_only=ascii_only)
            cur = mutated(SLOWER, change, ascii_only=ascii_only) if both else SLOWER_BYTES
            files = {"base.json": base, "cur.json": cur}
            # A report with an ERROR entry keeps exit 1 (docs/options.md: errors keep 1).
            status = {0, 1, 3} if where == "error" else {0, 3}
            prefix = f"hostile-text/{where}/{encoding}"
            cases.append(Case(name=f"{prefix}/compare", category="hostile-text",
                              argv=["--compare", "base.json", "cur.json"], files=files,
                              status=status, checks=[check_stdout_text, check_stderr_text]))
            cases.append(Case(name=f"{prefix}/compare -j", category="hostile-text",
                              argv=["--compare", "base.json", "cur.json", "-j"], files=files,
                              status=status, checks=[check_stdout_json, check_stderr_text]))
            cases.append(Case(name=f"{prefix}/from", category="hostile-text",
                              argv=["--html", "out.html", "--from", "base.json"], files=files,
                              status={0}, creates={"out.html"},
                              checks=[check_page(), check_stderr_text]))
            cases.append(Case(name=f"{prefix}/compare --html", category="hostile-text",
                              argv=["--compare", "base.json", "cur.json", "--html", "out.html"],
                              files=files, status=status, creates={"out.html"},
                              checks=[check_page(), check_stdout_text, check_stderr_text]))
    # Invalid UTF-8 (raw bytes, an overlong form, a lone surrogate): refused, or escaped.
    for key, raw in (("invalid-utf8", b"bad\xff\xfe name"), ("overlong-utf8", b"slash\xc0\xaf"),
                     ("lone-surrogate", b"sur\\ud800rogate")):
        data = mutated(BASE, setter("testcases.0.name", "@name@"),
                       raw_bytes={"@name@": b'"' + raw + b'"'})
        inp = Input(key, data, either=True)
        for mode in ("compare", "from"):
            for as_json in (False, True):
                case = reading_case(inp, mode, as_json, category="hostile-text")
                case.checks.append(lambda r: [] if r.code == 2 else check_stderr_text(r))
                cases.append(case)
    return cases


def arithmetic_cases() -> List[Case]:
    """Ratios and axes for zero, tiny and huge inputs; JSON written stays valid."""
    zero = copy.deepcopy(BASE)
    with_cell(zero["nvbandwidth"], 0, 0.0)
    five = copy.deepcopy(BASE)
    with_cell(five["nvbandwidth"], 0, 5.0)
    files = {"zero.json": dump(zero), "five.json": dump(five)}
    cases = []
    for a, b in (("zero", "five"), ("five", "zero"), ("zero", "zero")):
        name = f"arithmetic/baseline-{a}-current-{b}"
        argv = ["--compare", f"{a}.json", f"{b}.json"]
        cases.append(Case(name=name + "/compare -j", category="arithmetic", argv=argv + ["-j"],
                          files=files, status={0, 3}, checks=[check_stdout_schema]))
        cases.append(Case(name=name + "/compare", category="arithmetic", argv=argv, files=files,
                          status={0, 3}, checks=[check_stdout_text, check_no_nan_text]))
        cases.append(Case(name=name + "/compare --html", category="arithmetic",
                          argv=argv + ["--html", "out.html"], files=files, status={0, 3},
                          creates={"out.html"}, checks=[check_page(finite=True)]))
    cases.append(Case(name="arithmetic/baseline-zero/run -j", category="arithmetic", prog="fake",
                      argv=["--baseline", "zero.json", "-t", "0", "-j"], files=files,
                      env={"NVBW_FAKE_GPUS": "2"}, status={0, 3}, checks=[check_stdout_schema]))
    # A baseline of -5 is no bandwidth: refused, not called SLOWER by -200%.
    negative = copy.deepcopy(BASE)
    with_cell(negative["nvbandwidth"], 0, -5.0)
    cases.append(Case(name="arithmetic/baseline-negative/compare -j", category="arithmetic",
                      argv=["--compare", "negative.json", "five.json", "-j"],
                      files={"negative.json": dump(negative), "five.json": dump(five)},
                      status={2}, usage=("--compare", ("negative.json",)), stdout_empty=True))
    # Axes for sums of zero and of the smallest doubles must be drawn, finitely and at once.
    # "tiny": the smallest sums a report may hold (1e-300 is refused: unusable-report).
    for key, sums in (("zero", [0.0] * 5), ("tiny", [1e-9, 2e-9, 3e-9, 4e-9, 5e-9]),
                      ("equal", [7.0] * 5), ("one-size", None)):
        def change(r, sums=sums):
            if sums is None:
                r["sweep"]["sizes_MiB"] = [1]
                for s in r["sweep"]["series"]:
                    s["sums"] = s["sums"][:1]
            else:
                r["sweep"]["series"][0]["sums"] = sums
        cases.append(Case(name=f"arithmetic/sweep-sums-{key}/from", category="arithmetic",
                          argv=["--html", "out.html", "--from", "sweep.json"],
                          files={"sweep.json": mutated(FEATURES, change)},
                          creates={"out.html"}, timeout=FAST_TIMEOUT_S,
                          checks=[check_page(finite=True)]))
    all_zero = copy.deepcopy(BASE)
    for entry in range(2):
        e = all_zero["nvbandwidth"]["testcases"][entry]
        for i, row in enumerate(e["values"]):
            for j, v in enumerate(row):
                if v is not None:
                    e["values"][i][j] = 0.0
                    e["bandwidth_matrix"][i][j] = "0"
                    e["cells"][i][j] = {"cv": None, "max": 0.0, "mean": 0.0, "median": 0.0,
                                        "min": 0.0, "samples": [0.0] * 3, "stddev": 0.0}
                    e["percent_of_peak"][i][j] = 0.0
        e["sum"] = 0.0
    cases.append(Case(name="arithmetic/matrix-all-zero/from", category="arithmetic",
                      argv=["--html", "out.html", "--from", "zero.json"],
                      files={"zero.json": dump(all_zero)}, creates={"out.html"},
                      timeout=FAST_TIMEOUT_S, checks=[check_page(finite=True)]))
    return cases


def memory_cases() -> List[Case]:
    """The ~59 MB report as nvbandwidth_fake writes it (indented), and the same document without
    its indentation (~27 MB): the bound is a multiple of the file size, and the denser file is
    the harder one to meet. (The compact file's text comparison reads as its -j one does and is
    left out for time.)"""
    cases = []
    for layout in ("indented", "compact"):
        for key, argv, creates in (
                ("compare", ["--compare", layout, layout], set()),
                ("compare -j", ["--compare", layout, layout, "-j"], set()),
                ("from", ["--html", "out.html", "--from", layout], {"out.html"})):
            if layout == "compact" and key == "compare":
                continue
            cases.append(Case(name=f"memory/big-report-{layout}/{key}", category="memory",
                              argv=argv, status={0}, creates=creates, rss_from=layout,
                              needs="big"))
    return cases


def same_file_cases() -> List[Case]:
    """Writing onto a file this command reads is refused before anything runs."""
    cases = []

    def links(work: Path) -> None:
        os.symlink("report.json", work / "link.json")
        os.link(work / "report.json", work / "hard.json")
        os.symlink(".", work / "here")

    files = {"report.json": GOOD, "cur.json": SLOWER_BYTES}
    for key, argv in (
            ("from-same-path", ["--html", "report.json", "--from", "report.json"]),
            ("from-dot-slash", ["--html", "./report.json", "--from", "report.json"]),
            ("from-symlink-out", ["--html", "link.json", "--from", "report.json"]),
            ("from-symlink-in", ["--html", "report.json", "--from", "link.json"]),
            ("from-hard-link", ["--html", "hard.json", "--from", "report.json"]),
            ("from-dir-symlink", ["--html", "here/report.json", "--from", "report.json"]),
            ("compare-html-base", ["--compare", "report.json", "cur.json", "--html", "report.json"]),
            ("compare-html-current", ["--compare", "report.json", "cur.json", "--html", "cur.json"]),
            ("compare-html-hard-link", ["--compare", "report.json", "cur.json", "--html", "hard.json"]),
            ("compare-html-symlink", ["--compare", "cur.json", "report.json", "--html", "link.json"]),
            ("from-output-same-path", ["--output", "report.json", "--from", "report.json"]),
            ("from-output-symlink-out", ["--output", "link.json", "--from", "report.json"]),
            ("from-output-symlink-in", ["--output", "report.json", "--from", "link.json"]),
            ("from-metrics-hard-link", ["--metrics", "hard.json", "--from", "report.json"]),
            ("compare-output-current", ["--compare", "report.json", "cur.json", "--output", "cur.json"]),
            ("compare-metrics-base", ["--compare", "report.json", "cur.json", "--metrics", "report.json"])):
        for as_json in (False, True):
            cases.append(Case(name=f"same-file/{key}{' -j' if as_json else ''}",
                              category="same-file", argv=argv + (["-j"] if as_json else []),
                              files=files, setup=links, status={2}, usage=("", ()),
                              stdout_empty=True))
    for key, argv in (("baseline-html-baseline", ["--baseline", "report.json", "--html", "report.json"]),
                      ("baseline-html-hard-link", ["--baseline", "report.json", "--html", "hard.json"])):
        for as_json in (False, True):
            cases.append(Case(name=f"same-file/{key}{' -j' if as_json else ''}",
                              category="same-file", prog="fake",
                              argv=argv + ["-t", "0"] + (["-j"] if as_json else []),
                              files=files, setup=links, env={"NVBW_FAKE_GPUS": "2"}, status={2},
                              usage=("", ()), stdout_empty=True))
    return cases


def unwritable_dir() -> Tuple[Optional[str], Callable[[Path], None], Callable[[Path], None]]:
    """A directory that exists and cannot be written: 0555 for a user; for root, which writes
    anywhere the permissions say no, a sysfs directory."""
    if os.geteuid() != 0:
        return ("ro/out.html", lambda w: (w / "ro").mkdir(mode=0o555),
                lambda w: os.chmod(w / "ro", 0o755))
    return ("/sys/kernel/nvbw-hostile.html", lambda w: None, lambda w: None)


def can_mknod() -> bool:
    with tempfile.TemporaryDirectory() as probe:
        try:
            os.mknod(os.path.join(probe, "null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            return True
        except OSError:
            return False


def output_path_cases() -> List[Case]:
    """--html where no file can or may be written: exit 2 before anything runs."""
    cases = []
    ro_target, ro_setup, ro_cleanup = unwritable_dir()

    def mknod_null(work: Path) -> None:
        os.mknod(work / "null.html", 0o666 | stat.S_IFCHR, os.makedev(1, 3))

    targets = [
        ("missing-dir", "nodir/out.html", None, None),
        ("unwritable-dir", ro_target, ro_setup, ro_cleanup),
        ("onto-directory", "adir", lambda w: (w / "adir").mkdir(), None),
        ("onto-fifo", "pipe.html", lambda w: os.mkfifo(w / "pipe.html"), None),
        ("empty-name-dir", "adir/", lambda w: (w / "adir").mkdir(), None),
    ]
    # A character device of our own: an atomic writer that renamed onto it would replace it, not
    # /dev/null. Root without CAP_MKNOD, or a user, get /dev/null itself (a user cannot harm it).
    if can_mknod():
        targets.append(("onto-char-device", "null.html", mknod_null, None))
    elif os.geteuid() != 0:
        targets.append(("onto-dev-null", "/dev/null", None, None))
    for (key, target, setup, cleanup), option in itertools.product(
            targets, ("--html", "--output", "--metrics")):
        absent = [target] if target.startswith("/sys/") else []
        suffix = "" if option == "--html" else " " + option
        modes = [("from", [option, target, "--from", "good.json"], "real"),
                 ("compare", ["--compare", "good.json", "cur.json", option, target], "real"),
                 ("run", ["-t", "0", option, target], "fake")]
        if option != "--metrics":
            modes.append(("summarize", ["--summarize", "good.json", option, target], "real"))
        for mode, argv, prog in modes:
            cases.append(Case(name=f"output-path/{key}/{mode}{suffix}", category="output-path",
                              argv=argv, prog=prog, files={"good.json": GOOD, "cur.json": SLOWER_BYTES},
                              setup=setup, cleanup=cleanup, env={"NVBW_FAKE_GPUS": "2"},
                              status={2}, stdout_empty=True,
                              usage=("", (os.path.basename(target.rstrip("/")),)),
                              timeout=FAST_TIMEOUT_S, absent=absent))
    return cases


def write_error_cases() -> List[Case]:
    """A write that fails (file-size limit, full or closed stdout) is exit 1 and one line; a
    page is complete or absent, never partial, and a page that was there stays as it was."""
    cases = []
    files = {"good.json": GOOD, "cur.json": SLOWER_BYTES}
    previous = {"good.json": GOOD, "cur.json": SLOWER_BYTES, "out.html": b"<p>previous page</p>\n"}
    # stdout goes to /dev/null, which no file-size limit applies to: the page is what hits it.
    for key, argv, prog in (
            ("from", ["--html", "out.html", "--from", "good.json"], "real"),
            ("from -j", ["--html", "out.html", "--from", "good.json", "-j"], "real"),
            ("compare", ["--compare", "good.json", "cur.json", "--html", "out.html"], "real"),
            ("compare -j", ["--compare", "good.json", "cur.json", "--html", "out.html", "-j"], "real"),
            ("run", ["-t", "0", "--html", "out.html"], "fake"),
            ("run -j", ["-t", "0", "--html", "out.html", "-j"], "fake")):
        for existed in (False, True):
            cases.append(Case(
                name=f"write-errors/fsize-html/{key}{'/target-existed' if existed else ''}",
                category="write-errors", argv=argv, prog=prog,
                files=previous if existed else files, env={"NVBW_FAKE_GPUS": "2"},
                stdout="null", fsize=HTML_FSIZE_LIMIT, status={1}, one_line=True))
    for target in ("full", "closed"):
        for key, argv, prog in (
                ("compare-slower", ["--compare", "good.json", "cur.json"], "real"),
                ("compare-slower -j", ["--compare", "good.json", "cur.json", "-j"], "real"),
                ("compare-same", ["--compare", "good.json", "good.json"], "real"),
                ("compare-same -j", ["--compare", "good.json", "good.json", "-j"], "real"),
                ("list -j", ["-j", "-l"], "real"),
                ("version", ["--version"], "real"),
                ("run", ["-t", "0"], "fake"),
                ("run -j", ["-t", "0", "-j"], "fake")):
            cases.append(Case(name=f"write-errors/stdout-{target}/{key}", category="write-errors",
                              argv=argv, prog=prog, files=files, stdout=target,
                              env={"NVBW_FAKE_GPUS": "2"}, status={1}, one_line=True))
        # --html --from prints nothing on stdout: it must neither fail nor let a later message
        # land in the page (the page's descriptor may be 1 or 2 when those are closed).
        for stream in ("stdout", "stderr"):
            cases.append(Case(name=f"write-errors/{stream}-{target}/from", category="write-errors",
                              argv=["--html", "out.html", "--from", "good.json"], files=files,
                              **{stream: target}, status={0}, creates={"out.html"},
                              checks=[check_page()]))
        # Where the one line cannot be written, the status still says it failed.
        cases.append(Case(name=f"write-errors/stderr-{target}/usage-error", category="write-errors",
                          argv=["--compare", "missing.json", "good.json"], files=files,
                          stderr=target, status={1, 2}, stdout_empty=True))
        cases.append(Case(name=f"write-errors/stderr-{target}/compare-refused",
                          category="write-errors",
                          argv=["--html", "out.html", "--from", "bad.json"],
                          files={"bad.json": b"[]"}, stderr=target, status={1, 2},
                          stdout_empty=True))
    return cases


def signal_cases() -> List[Case]:
    """A read of `-` that nobody feeds ends on SIGINT, SIGTERM or SIGHUP with 128+N."""
    cases = []
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        for key, argv, prog in (
                ("compare", ["--compare", "-", "good.json"], "real"),
                ("compare -j", ["--compare", "-", "good.json", "-j"], "real"),
                ("compare-current", ["--compare", "good.json", "-"], "real"),
                ("from", ["--html", "out.html", "--from", "-"], "real"),
                ("baseline", ["--baseline", "-", "-t", "0"], "fake")):
            # With -j a signal before the run still prints one document, which says so.
            json_mode = "-j" in argv
            cases.append(Case(name=f"signals/{signum.name}/{key}", category="signals",
                              argv=argv, prog=prog, files={"good.json": GOOD}, stdin="hang",
                              send=(signum, SIGNAL_DELAY_S), env={"NVBW_FAKE_GPUS": "2"},
                              status={128 + signum}, dies_by={signum}, stdout_empty=not json_mode,
                              checks=[check_stdout_interrupted] if json_mode else [],
                              timeout=FAST_TIMEOUT_S + SIGNAL_DELAY_S))
    return cases


def option_cases() -> List[Case]:
    cases = []
    files = {"good.json": GOOD, "x.json": GOOD}
    refused = [
        ("sweep-empty", ["--sweep", ""]),
        ("baseline-empty", ["--baseline", ""]),
        ("html-empty", ["--html", ""]),
        ("from-empty", ["--from", "", "--html", "o.html"]),
        ("compare-empty-base", ["--compare", "", "x.json"]),
        ("compare-empty-current", ["--compare", "x.json", ""]),
        ("tolerance-empty", ["--tolerance", ""]),
        ("tolerance-empty-compare", ["--tolerance", "", "--compare", "x.json", "good.json"]),
        ("tolerance-nan", ["--tolerance", "nan", "--compare", "x.json", "good.json"]),
        ("tolerance-inf", ["--tolerance", "inf", "--compare", "x.json", "good.json"]),
        ("tolerance-negative", ["--tolerance", "-1", "--compare", "x.json", "good.json"]),
        ("triple-dash-v", ["---v"]),
        ("triple-dash-j", ["---j"]),
        ("triple-dash-b", ["---b", "5"]),
        ("triple-dash-compare", ["---compare", "x.json", "good.json"]),
        ("sweep-overflow", ["--sweep", "33554432:1073741824:549755813888"]),
        ("sweep-huge-size", ["--sweep", "1:1099511627776"]),
        ("sweep-beyond-uint64", ["--sweep", "1:18446744073709551616"]),
        ("sweep-factor-one", ["--sweep", "1:4:1"]),
        ("sweep-factor-zero", ["--sweep", "1:4:0"]),
        ("html-without-file", ["--html"]),
    ]
    for key, argv in refused:
        cases.append(Case(name=f"options/{key}", category="options", argv=argv, files=files,
                          status={2}, usage=("", ()), stdout_empty=True, rss=OPTION_RSS,
                          max_seconds=OPTION_MAX_SECONDS, timeout=FAST_TIMEOUT_S * 2))
    # On the faked GPUs: refused before the run prints anything.
    for key, argv in (("sweep-empty", ["--sweep", ""]), ("baseline-empty", ["--baseline", ""]),
                      ("html-empty", ["--html", ""]), ("triple-dash-j", ["---j"]),
                      ("sweep-overflow", ["--sweep", "33554432:1073741824:549755813888"]),
                      ("sweep-huge-size", ["--sweep", "1:1099511627776"])):
        cases.append(Case(name=f"options/{key}/run", category="options", prog="fake",
                          argv=argv + ["-t", "0"], files=files, env={"NVBW_FAKE_GPUS": "2"},
                          status={2}, usage=("", ()), stdout_empty=True, rss=OPTION_RSS,
                          max_seconds=OPTION_MAX_SECONDS, timeout=FAST_TIMEOUT_S * 2))
    return cases


def spelling_cases() -> List[Case]:
    """The valid spellings still work."""
    files = {"good.json": GOOD, "cur.json": SLOWER_BYTES, "up.json": dump(UPSTREAM2),
             "up-slower.json": dump(upstream_style(SLOWER))}
    cases = []
    for key, argv, prog, status, creates, checks in (
            ("compare", ["--compare", "good.json", "cur.json"], "real", {3}, set(), [check_stdout_text]),
            ("compare -j", ["--compare", "good.json", "cur.json", "-j"], "real", {3}, set(),
             [check_stdout_schema]),
            ("compare --json", ["--json", "--compare", "good.json", "cur.json"], "real", {3}, set(),
             [check_stdout_json]),
            ("compare-prefix", ["--comp", "good.json", "cur.json"], "real", {3}, set(), []),
            # Reports without samples are judged by --tolerance: 20% slower is SLOWER at the
            # default 5% and SAME at 50%.
            ("tolerance-default", ["--compare", "up.json", "up-slower.json"], "real", {3}, set(),
             []),
            ("tolerance", ["--tolerance", "50", "--compare", "up.json", "up-slower.json"], "real",
             {0}, set(), []),
            ("tolerance-equals", ["--tolerance=5", "--compare", "good.json", "good.json"], "real",
             {0}, set(), []),
            ("html-from", ["--html", "o.html", "--from", "good.json"], "real", {0}, {"o.html"},
             [check_page("o.html")]),
            ("html-from-equals", ["--html=o.html", "--from=good.json"], "real", {0}, {"o.html"},
             [check_page("o.html")]),
            ("html-into-subdir", ["--html", "sub/o.html", "--from", "good.json"], "real", {0},
             {"sub/o.html"}, [check_page("sub/o.html")]),
            ("list -j", ["-j", "-l"], "real", {0}, set(), [check_stdout_json]),
            ("version", ["--version"], "real", {0}, set(), []),
            ("help", ["-h"], "real", {0}, set(), []),
            ("run -j", ["-t", "0", "-j"], "fake", {0}, set(), [check_stdout_schema]),
            ("run bundled -js", ["-t", "0", "-js"], "fake", {0}, set(), [check_stdout_json]),
            ("run sweep", ["-t", "0", "--sweep", "1:4"], "fake", {0}, set(), []),
            ("run sweep factor", ["-t", "0", "--sweep", "1:16:4"], "fake", {0}, set(), []),
            ("run baseline html", ["-t", "0", "--baseline", "good.json", "--html", "o.html"],
             "fake", {0, 3}, {"o.html"}, [check_page("o.html")]),
            ("run baseline -j", ["-t", "0", "-j", "--baseline", "good.json"], "fake", {0, 3},
             set(), [check_stdout_schema])):
        setup = (lambda w: (w / "sub").mkdir()) if key == "html-into-subdir" else None
        cases.append(Case(name=f"option-spellings/{key}", category="option-spellings",
                          argv=argv, prog=prog, files=files, setup=setup,
                          env={"NVBW_FAKE_GPUS": "2"}, status=status, creates=creates,
                          checks=checks))
    return cases


# --- Build paths -----------------------------------------------------------------------------

def loaded_sections(data: bytes) -> List[Tuple[str, bytes]]:
    """The contents of an ELF file's allocated sections (what the program can print), without
    debug information, symbol tables or comments."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return [("whole file", data)]
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx]
    sections = []
    for name, kind, flags, _addr, offset, size, *_ in headers:
        label = data[names[4] + name:data.index(b"\0", names[4] + name)].decode()
        if flags & 0x2 and kind != 8:  # SHF_ALLOC, not SHT_NOBITS
            sections.append((label, data[offset:offset + size]))
    return sections


def build_path_case(which: str) -> Case:
    def check(ctx: Context) -> List[str]:
        path = ctx.binary if which == "real" else ctx.fake_binary
        needle = ctx.source_dir.rstrip("/").encode() + b"/"
        problems = []
        for label, content in loaded_sections(Path(path).read_bytes()):
            at = content.find(needle)
            if at >= 0:
                start = content.rfind(b"\0", 0, at) + 1
                end = content.find(b"\0", at)
                problems.append(f"{os.path.basename(path)} {label} holds the source directory: "
                                f"{content[start:end][:160]!r} ({content.count(needle)} times)")
        return problems
    return Case(name=f"build-paths/{which}-binary", category="build-paths", argv=[],
                static=check)


# --- Main ------------------------------------------------------------------------------------

def make_big_report(ctx: Context) -> None:
    path = ctx.shared / "big.json"
    env = dict(os.environ, NVBW_FAKE_GPUS=str(BIG_REPORT_GPUS))
    with open(path, "wb") as out:
        done = subprocess.run([ctx.fake_binary, "-j", "-i", str(BIG_REPORT_SAMPLES)], stdout=out,
                              stderr=subprocess.PIPE, env=env, timeout=300)
    if done.returncode != 0 or path.stat().st_size < 10 * MiB:
        ctx.big_problem = (f"nvbandwidth_fake exited {done.returncode} with "
                           f"{path.stat().st_size} bytes: {done.stderr[:200]!r}")
        return
    # JSON strings hold no raw tab or newline, so deleting them all only removes indentation.
    compact = ctx.shared / "big-compact.json"
    with open(path, "rb") as source, open(compact, "wb") as out:
        subprocess.run(["tr", "-d", "\\n\\t"], stdin=source, stdout=out, check=True, timeout=120)
    ctx.big, ctx.big_compact = path, compact


def listing_output(ctx: Context) -> bytes:
    done = subprocess.run([ctx.binary, "-j", "-l"], capture_output=True, timeout=30)
    if done.returncode == 0 and done.stdout.strip():
        return done.stdout
    return (GOLDEN / "listing.json").read_bytes()


def summary_names(name: str, unreadable: bool) -> Check:
    """The summary names the file, as unreadable when it must be, and says nothing on stderr."""
    def check(result: Result) -> List[str]:
        problems = [] if not result.stderr else ["stderr is not empty: %r" % result.stderr[:200]]
        if unreadable and name.encode() not in result.stdout:
            problems.append(f"the summary does not name {name}")
        if unreadable and b"unreadable" not in result.stdout:
            problems.append("the summary lists no unreadable file")
        return problems
    return check


# Faults in what the summary does not read (each cell's samples and statistics: it judges the
# `values`), which it only checks to be JSON (fleet_summary.h): such a report may be summarized.
SUMMARY_UNREAD = {"samples-string", "median-string", "samples-negative", "min-negative",
                  "mean-negative", "ragged-cells", "samples-subnormal", "median-subnormal",
                  "stddev-above-range"}


def summarize_cases(inputs: List[Input]) -> List[Case]:
    """--summarize never stops at a file it cannot use: it names it as unreadable (exit 3), beside
    the good report, in text and in JSON valid against the schema. Standard input is no input of
    --summarize's; a directory is read recursively (an empty one adds nothing)."""
    cases = []
    for inp in inputs:
        if inp.kind in ("stdin", "stream"):
            continue
        arg, _ = input_name(inp)
        files: Dict[str, Union[bytes, Callable[[Path], None]]] = {"good.json": GOOD}
        setup = place_input(inp, arg, files)
        readable = inp.either or inp.kind == "dir" or inp.key in SUMMARY_UNREAD

        for as_json in (False, True):
            checks: List[Check] = [summary_names(os.path.basename(arg), not readable)]
            checks.append(check_stdout_schema if as_json else check_stdout_text)
            cases.append(Case(
                name=f"summarize/{inp.key}{' -j' if as_json else ''}", category="summarize",
                argv=["--summarize", "good.json", arg] + (["-j"] if as_json else []),
                files=files, setup=setup, status={0, 3} if readable else {3},
                timeout=inp.timeout, rss=inp.rss, max_seconds=inp.max_seconds, checks=checks,
                outside=[inp.path] if inp.kind == "device" else []))
    # A folder of reports with a hidden temporary file (a killed --output's) and a bad report.
    def folder(w: Path) -> None:
        (w / "fleet" / "rack1").mkdir(parents=True)
        (w / "fleet" / "rack1" / "a.json").write_bytes(GOOD)
        (w / "fleet" / "b.json").write_bytes(SLOWER_BYTES)
        (w / "fleet" / ".b.json.Xy12ab").write_bytes(GOOD[:100])
        (w / "fleet" / "c.json").write_bytes(GOOD[: len(GOOD) // 3])
    cases.append(Case(name="summarize/folder-with-hidden-and-bad", category="summarize",
                      argv=["--summarize", "fleet", "-j"], setup=folder, status={3},
                      checks=[summary_names("c.json", True), check_stdout_schema,
                              lambda r: [] if b".b.json" not in r.stdout
                              else ["a hidden temporary file was read"]]))
    cases.append(Case(name="summarize/output-onto-input", category="summarize",
                      argv=["--summarize", "good.json", "--output", "good.json"],
                      files={"good.json": GOOD}, status={2}, usage=("--output", ("good.json",)),
                      stdout_empty=True))
    return cases


# --- The fleet commands' promises (tests/hostile/README.md, "promises") -----------------------

def one_gpu_report(host: str, value: str) -> bytes:
    """A one-GPU report of `host` whose only cell is `value`, written as given (JSON text)."""
    return (('{"nvbandwidth": {"GPU Device list": ["0: NVIDIA H200 (00000000:19:00): (%s)"], '
             '"hostname": "%s", "testcases": [{"name": "host_to_device_memcpy_ce", '
             '"status": "Passed", "bandwidth_description": '
             '"memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)", "values": [[%s]], '
             '"sum": %s}]}}\n') % (host, host, value, value)).encode()


def many_gpu_report(path: Path, gpus: int, host: str = "node-a") -> None:
    """A report of `gpus` GPUs with one device-to-device matrix of 1s (N/A on the diagonal),
    written row by row: ~2.1 MB for 1,024 GPUs."""
    head = {"nvbandwidth": {"GPU Device list": [f"{i}: NVIDIA H200 (00000000:{i % 256:02x}:00): "
                                                f"({host})" for i in range(gpus)],
                            "hostname": host, "version": "v0.8", "git_version": "x",
                            "schema_version": "1", "testcases": ["@entry@"]}}
    before, after = json.dumps(head, separators=(",", ":")).encode().split(b'"@entry@"')
    with open(path, "wb") as f:
        f.write(before + b'{"name":"device_to_device_memcpy_read_ce","status":"Passed",'
                         b'"bandwidth_description":"memcpy CE GPU(row) <- GPU(column) bandwidth '
                         b'(GB/s)","values":[')
        for r in range(gpus):
            row = "1," * r + "null" + ",1" * (gpus - 1 - r)
            f.write(("[" + row + "]" + ("," if r < gpus - 1 else "")).encode())
        f.write(b"]}" + after)


def stacked_upstream_report(path: Path, gpus: int = 1024) -> None:
    """Upstream's layout with one stacked 3N x N bidirectional matrix of "1" cells (12.6 MB)."""
    row = ("[" + ",".join(['"1"'] * gpus) + "]").encode()
    head = ('{"nvbandwidth":{"CUDA Runtime Version":12000,"Driver Version":"550","git_version":'
            '"x","version":"v0.8","GPU Device list":' +
            json.dumps([f"{i}: NVIDIA H200 (00000000:19:00): (node-a)" for i in range(gpus)]) +
            ',"testcases":[{"name":"device_to_device_bidirectional_memcpy_read_ce","status":'
            '"Passed","bandwidth_description":"memcpy CE GPU(row) <-> GPU(column) Total '
            'bandwidth (GB/s)","sum":1.0,"bandwidth_matrix":[').encode()
    with open(path, "wb") as f:
        f.write(head)
        for r in range(3 * gpus):
            f.write(row + (b"," if r < 3 * gpus - 1 else b""))
        f.write(b"]}]}}")


def plain_host() -> Optional[str]:
    """This machine's host name when %h would write it unchanged."""
    import socket
    host = socket.gethostname()
    return host if re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", host) else None


def summary_check(nodes: int, unreadable: int, reason: str = "") -> Check:
    """The -j summary has this many nodes and unreadable paths (one of whose reasons says so)."""
    def check(result: Result) -> List[str]:
        doc, problems = strict_json(result.stdout, "stdout")
        if problems:
            return problems
        summary = doc["nvbandwidth"]["summary"]
        counts = summary["counts"]
        if counts["nodes"] != nodes or counts["unreadable"] != unreadable:
            problems.append(f"summarized {counts['nodes']} nodes and {counts['unreadable']} "
                            f"unreadable, expected {nodes} and {unreadable}: "
                            f"{summary['unreadable']}"[:400])
        if reason and not any(reason in u["reason"] for u in summary["unreadable"]):
            problems.append(f"no unreadable path says {reason!r}: {summary['unreadable']}"[:400])
        return problems
    return check


def summarized_folder_cases() -> List[Case]:
    """--summarize never writes over a report it finds in a folder (by path, by %h, through a hard
    link or a link in the folder), and two targets never name one file."""
    cases = []
    host = plain_host()

    def reports(w: Path) -> None:
        (w / "reports").mkdir()
        (w / "reports" / "node01.json").write_bytes(GOOD)
        (w / "reports" / "node02.json").write_bytes(SLOWER_BYTES)
        if host:
            (w / "reports" / f"{host}.json").write_bytes(GOOD)
        (w / "outside.json").write_bytes(SLOWER_BYTES)
        os.symlink("../outside.json", w / "reports" / "link.json")
        os.link(w / "reports" / "node01.json", w / "hard.json")
    targets = [("output-onto-walked-report", ["--output", "reports/node01.json"]),
               ("html-onto-walked-report", ["--html", "reports/node02.json"]),
               ("output-onto-hard-link-of-walked-report", ["--output", "hard.json"]),
               ("html-onto-target-of-link-in-folder", ["--html", "outside.json"])]
    if host:
        targets.append(("output-substituted-onto-walked-report", ["--output", "reports/%h.json"]))
    for key, target in targets:
        for as_json in (False, True):
            cases.append(Case(name=f"same-file/summarize-{key}{' -j' if as_json else ''}",
                              category="same-file",
                              argv=["--summarize", "reports"] + target + (["-j"] if as_json else []),
                              setup=reports, status={2}, usage=(target[0], ()),
                              message="which this command reads", stdout_empty=True))
    for key, argv, prog in (
            ("from", ["--from", "good.json", "--html", "r.html", "--output", "r.html"], "real"),
            ("compare", ["--compare", "good.json", "cur.json", "--metrics", "m", "--output", "./m"],
             "real"),
            ("summarize", ["--summarize", "good.json", "--html", "s.html", "--output", "s.html"],
             "real"),
            ("run", ["-t", "0", "--html", "r.html", "--output", "./r.html"], "fake")):
        cases.append(Case(name=f"same-file/two-targets-one-file/{key}", category="same-file",
                          argv=argv, prog=prog, files={"good.json": GOOD, "cur.json": SLOWER_BYTES},
                          env={"NVBW_FAKE_GPUS": "2"}, status={2}, usage=("", ()),
                          message="one file cannot hold both", stdout_empty=True))
    return cases


def make_chain(top: Path, depth: int, report_at: int, report: bytes) -> None:
    """Folders named "d", `depth` deep under `top`, made through descriptors one at a time (their
    paths grow past the system's limit on a path), with deep.json at level `report_at`."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for level in range(1, depth + 1):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = below
        if level == report_at:
            out = os.open("deep.json", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(out, report)
            os.close(out)
    os.close(fd)


def remove_chain(top: Path) -> None:
    """Removes make_chain's folders without long paths or recursion: each level's child moves up
    to `top` before the level is removed."""
    current, n = top / "d", 0
    while current is not None:
        for name in os.listdir(current):
            if name != "d":
                os.unlink(current / name)
        below = None
        if (current / "d").exists():
            below = top / f"level{n}"
            os.rename(current / "d", below)
            n += 1
        os.rmdir(current)
        current = below


def folder_cases() -> List[Case]:
    """A folder that cannot be listed, at any depth and for any reason, is unreadable with the
    reason (exit 3) and the walk goes on: no read right (as a user, or root without
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), a path longer than the system takes."""
    cases = []
    wrap = []
    if os.geteuid() == 0:
        if not os.access("/usr/bin/setpriv", os.X_OK):
            return cases
        wrap = ["/usr/bin/setpriv", "--inh-caps=-dac_override,-dac_read_search",
                "--bounding-set=-dac_override,-dac_read_search"]

    def tree(w: Path) -> None:
        for rack in ("a", "b", "c/deeper", "d/deeper", "e"):
            (w / "tree" / rack).mkdir(parents=True)
        for where, data in (("a/n1.json", GOOD), ("b/n2.json", GOOD), ("c/n3.json", GOOD),
                            ("c/deeper/n6.json", GOOD), ("d/deeper/n4.json", GOOD),
                            ("e/n5.json", SLOWER_BYTES)):
            (w / "tree" / where).write_bytes(data)
        os.chmod(w / "tree" / "b", 0)
        os.chmod(w / "tree" / "c" / "deeper", 0)

    def restore(w: Path) -> None:
        os.chmod(w / "tree" / "b", 0o755)
        os.chmod(w / "tree" / "c" / "deeper", 0o755)
    for as_json in (False, True):
        cases.append(Case(
            name=f"folders/no-read-right-at-two-depths{' -j' if as_json else ''}",
            category="folders", argv=["--summarize", "tree"] + (["-j"] if as_json else []),
            wrap=wrap, setup=tree, cleanup=restore, status={3},
            checks=[summary_check(4, 2, "Permission denied")] if as_json else
            [check_stdout_text, lambda r: [] if b"Summary: 4 nodes, 1 flagged, 2 unreadable." in
             r.stdout and b"tree/b: cannot be listed: Permission denied" in r.stdout
             else [f"the summary does not list tree/b: {r.stdout[-300:]!r}"]]))

    # 2,100 levels under --nofile=64: walked with one descriptor at a time down to where a path
    # gets too long (about 2,040 levels), which is unreadable; the report at level 1,500 is found.
    # The tree lies beside the working directory (the harness's own walk would recurse too deep),
    # reached through a link.
    def deep(w: Path) -> None:
        outside = w.parent / (w.name + "-deep")
        outside.mkdir()
        (outside / "a.json").write_bytes(GOOD)
        (outside / "z.json").write_bytes(GOOD)
        make_chain(outside, 2100, 1500, SLOWER_BYTES)
        os.symlink(outside, w / "fleet")

    # The tree is removed with the case's directories (remove_case_dirs), by the thread that
    # removes them: its 2,100 levels take seconds of waiting on the disk.
    cases.append(Case(name="folders/2100-deep-under-nofile-64", category="folders",
                      argv=["--summarize", "fleet", "-j"], nofile=64, setup=deep,
                      status={3}, checks=[summary_check(3, 1, "File name too long")]))
    return cases


def start_failure_cases() -> List[Case]:
    """A run that fails before or while it sets up still writes --output, --html and --metrics,
    with its error and nvbandwidth_run_error 1 (the real binary has no driver here)."""
    def metrics_error(result: Result) -> List[str]:
        path = result.workdir / "m.prom"
        text = path.read_text() if path.is_file() else ""
        return [] if re.search(r"^nvbandwidth_run_error(\{[^}]*\})? 1$", text, re.M) else \
            [f"m.prom has no nvbandwidth_run_error 1: {text[:200]!r}"]

    def json_error(result: Result) -> List[str]:
        doc, problems = strict_json((result.workdir / "r.json").read_bytes(), "r.json")
        if not problems and not doc["nvbandwidth"].get("error"):
            problems.append("r.json holds no error")
        return problems
    files = ["--output", "r.json", "--metrics", "m.prom", "--html", "r.html"]
    checks = [check_stdout_json, json_error, metrics_error, check_page("r.html")]
    return [
        Case(name="start-failure/no-driver -j", category="start-failure",
             argv=["-j", "-t", "0"] + files, status={1}, creates={"r.json", "m.prom", "r.html"},
             checks=checks),
        Case(name="start-failure/no-driver/text-output", category="start-failure",
             argv=["-t", "0", "--output", "r.txt"], status={1}, creates={"r.txt"},
             checks=[lambda r: [] if b"ERROR: cannot start" in (r.workdir / "r.txt").read_bytes()
                     else ["r.txt does not say why the run could not start"]]),
        Case(name="start-failure/executor -j", category="start-failure", prog="fake",
             argv=["-j", "-t", "0"] + files,
             env={"NVBW_FAKE_GPUS": "2", "NVBW_FAKE_EXECUTOR_FAIL": "no memory for the buffers"},
             status={1}, creates={"r.json", "m.prom", "r.html"}, checks=checks),
    ]


def json_output_cases() -> List[Case]:
    """Every JSON the program writes, on stdout and in files, parses with a strict reader (no NaN,
    no 1e+9999), also for reports at the edges of what a report may hold: cells of 0, of 1e-9
    (the least above 0) and near 1e7 (the most), compared and summarized against each other."""
    edge_min = copy.deepcopy(BASE)
    with_cell(edge_min["nvbandwidth"], 0, 1e-9)
    edge_max = copy.deepcopy(BASE)  # its SUM too must stay within 1e7
    with_cell(edge_max["nvbandwidth"], 0, 1e7 - 1000)
    zero = copy.deepcopy(BASE)
    with_cell(zero["nvbandwidth"], 0, 0.0)
    files = {"good.json": GOOD, "cur.json": SLOWER_BYTES, "min.json": dump(edge_min),
             "max.json": dump(edge_max), "zero.json": dump(zero), "up.json": dump(UPSTREAM2),
             "features.json": dump(FEATURES), "floors.txt": b"host_to_device_memcpy_ce 100000\n",
             "fleet/a.json": one_gpu_report("node-a", "1e-9"),
             "fleet/b.json": one_gpu_report("node-b", "1e-9"),
             "fleet/c.json": one_gpu_report("node-c", "1e7")}

    def folder(w: Path) -> None:
        (w / "fleet").mkdir(exist_ok=True)
    setup_files = {k: v for k, v in files.items() if not k.startswith("fleet/")}

    def with_fleet(w: Path) -> None:
        folder(w)
        for k, v in files.items():
            if k.startswith("fleet/"):
                (w / k).write_bytes(v)
    cases = []
    stdout_cases = [
        ("run", ["-t", "0", "1", "-j"], "fake", {0}),
        ("run-baseline-expect", ["-t", "0", "-j", "--baseline", "min.json", "--expect",
                                 "floors.txt", "--min-percent-of-peak", "50"], "fake", {0, 3}),
        ("list", ["-j", "-l"], "real", {0}),
        ("compare-min-max", ["--compare", "min.json", "max.json", "-j"], "real", {0, 3}),
        ("compare-max-min", ["--compare", "max.json", "min.json", "-j"], "real", {0, 3}),
        ("compare-zero-max", ["--compare", "zero.json", "max.json", "-j"], "real", {0, 3}),
        ("compare-upstream", ["--compare", "up.json", "good.json", "-j", "--expect",
                              "floors.txt"], "real", {0, 3}),
        ("from-expect", ["--from", "max.json", "--expect", "floors.txt", "-j"], "real", {0, 3}),
        ("from-percent-of-peak", ["--from", "min.json", "--min-percent-of-peak", "100", "-j"],
         "real", {0, 3}),
        ("summarize-edges", ["--summarize", "fleet", "min.json", "max.json", "zero.json",
                             "good.json", "-j"], "real", {0, 3}),
        ("summarize-features", ["--summarize", "features.json", "up.json", "-j"], "real", {0, 3}),
    ]
    for key, argv, prog, status in stdout_cases:
        cases.append(Case(name=f"json-strict/stdout/{key}", category="json-strict", argv=argv,
                          prog=prog, files=setup_files, setup=with_fleet,
                          env={"NVBW_FAKE_GPUS": "2"}, status=status,
                          checks=[check_stdout_schema if key != "list" else check_stdout_json]))
    file_cases = [
        ("run", ["-t", "0", "--output", "o.json"], "fake", {0}),
        ("from", ["--from", "max.json", "--output", "o.json"], "real", {0}),
        ("compare", ["--compare", "min.json", "max.json", "--output", "o.json"], "real", {0, 3}),
        ("summarize", ["--summarize", "fleet", "max.json", "--output", "o.json"], "real", {0, 3}),
    ]
    for key, argv, prog, status in file_cases:
        cases.append(Case(name=f"json-strict/file/{key}", category="json-strict", argv=argv,
                          prog=prog, files=setup_files, setup=with_fleet,
                          env={"NVBW_FAKE_GPUS": "2"}, status=status, creates={"o.json"},
                          checks=[check_json_file("o.json", schema=True)]))
    # Three reports of 4.9e-324, 4.9e-324 and 1e7 gave "sum_percent_of_median" : 1e+9999.
    def subnormal_fleet(w: Path) -> None:
        (w / "fleet").mkdir()
        for name, value in (("a", "4.9e-324"), ("b", "4.9e-324"), ("c", "1e7")):
            (w / "fleet" / f"{name}.json").write_bytes(one_gpu_report(f"node-{name}", value))
    cases.append(Case(name="json-strict/stdout/summarize-subnormal-medians", category="json-strict",
                      argv=["--summarize", "fleet", "-j"], setup=subnormal_fleet, status={3},
                      checks=[check_stdout_schema, summary_check(1, 2, "is not a bandwidth")]))
    return cases


def promise_option_cases() -> List[Case]:
    """Options a command cannot honour, -t/-p names that match nothing, and `--` taken for an
    option's value: usage errors before anything is read or written."""
    files = {"good.json": GOOD, "cur.json": SLOWER_BYTES, "floors.txt": b"host_to_device_memcpy_ce 1\n"}
    refused = [
        ("summarize-expect", ["--summarize", "good.json", "--expect", "floors.txt"]),
        ("summarize-min-percent-of-peak", ["--summarize", "good.json", "--min-percent-of-peak",
                                           "100"]),
        ("summarize-t-typo", ["--summarize", "good.json", "-t", "typo_name"]),
        ("summarize-t-index-out-of-bound", ["--summarize", "good.json", "-t", "999"]),
        ("summarize-t-no-such-matrix", ["--summarize", "good.json", "-t",
                                        "host_to_device_memcpy_ce_total"]),
        ("summarize-p-nothing", ["--summarize", "good.json", "-p", "nothing_starts_so"]),
        ("summarize-tolerance", ["--summarize", "good.json", "--tolerance", "10"]),
        ("compare-t", ["--compare", "good.json", "cur.json", "-t", "0"]),
        ("compare-p", ["--compare", "good.json", "cur.json", "-p", "host"]),
        ("from-t", ["--from", "good.json", "--html", "o.html", "-t", "0"]),
        ("from-tolerance", ["--from", "good.json", "--html", "o.html", "--tolerance", "10"]),
        ("tolerance-without-comparison", ["-t", "0", "--tolerance", "10"]),
        ("html-takes-double-dash", ["--html", "--", "--from", "good.json"]),
        ("output-takes-double-dash", ["--from", "good.json", "--output", "--"]),
        ("summarize-nothing-after-double-dash", ["--summarize", "--"]),
        ("options-after-double-dash", ["--", "--summarize", "good.json"]),
        ("t-takes-double-dash", ["-t", "--", "0"]),
    ]
    for option in (["-b", "64"], ["-i", "5"], ["-m"], ["-s"], ["-d"], ["-v"], ["--loopCount", "4"],
                   ["--perfFormatter"], ["-H"], ["-P", "2"], ["--pair", "0", "1"]):
        for mode, argv in (("compare", ["--compare", "good.json", "cur.json"]),
                           ("from", ["--from", "good.json", "--html", "o.html"]),
                           ("summarize", ["--summarize", "good.json"])):
            refused.append((f"{mode}{option[0]}", argv + option))
    cases = []
    for key, argv in refused:
        cases.append(Case(name=f"options/{key}", category="options", argv=argv, files=files,
                          status={2}, usage=("", ()), stdout_empty=True, rss=OPTION_RSS,
                          max_seconds=OPTION_MAX_SECONDS, timeout=FAST_TIMEOUT_S * 2))
    cases.append(Case(name="option-spellings/summarize-double-dash", category="option-spellings",
                      argv=["-j", "--summarize", "--", "good.json", "cur.json"], files=files,
                      status={0, 3}, checks=[summary_check(2, 0)]))
    return cases


def substitution_cases() -> List[Case]:
    """A job id of "." or ".." names no folder: out/sub/%j/r.json is not out/r.json."""
    cases = []
    for job, name in ((".", "_.json"), ("..", "_..json")):
        cases.append(Case(name=f"output-path/job-id-{job}/names-no-folder",
                          category="output-path", prog="fake",
                          argv=["-t", "0", "--output", "out/sub/%j/r.json"],
                          setup=lambda w: (w / "out" / "sub").mkdir(parents=True),
                          env={"NVBW_FAKE_GPUS": "2", "SLURM_JOB_ID": job}, status={2},
                          usage=("--output", ()), stdout_empty=True))
        cases.append(Case(name=f"output-path/job-id-{job}/a-plain-file", category="output-path",
                          prog="fake", argv=["-t", "0", "-j", "--output", "out/%j.json"],
                          setup=lambda w: (w / "out").mkdir(),
                          env={"NVBW_FAKE_GPUS": "2", "SLURM_JOB_ID": job}, status={0},
                          creates={f"out/{name}"}))
    return cases


def loop_signal_cases() -> List[Case]:
    """SIGINT, SIGTERM and SIGHUP during a long loop over a report (the metrics of 1,024 GPUs; the
    page and the comparison of the ~59 MB report) end the command with 128+N within REACTION_S,
    and no file is left."""
    cases = []
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        cases.append(Case(name=f"signals/{signum.name}/metrics-of-1024-gpus", category="signals",
                          argv=["--from", "r1024.json", "--metrics", "m.prom"],
                          files={"r1024.json": lambda p: many_gpu_report(p, 1024)},
                          send=(signum, SIGNAL_DELAY_S), reaction=REACTION_S,
                          status={128 + signum}, dies_by={signum}, stdout_empty=True))
    for key, argv in (("html-of-big-report", ["--html", "out.html", "--from", "indented"]),
                      ("compare-big-reports", ["--compare", "indented", "indented", "-j"])):
        json_mode = "-j" in argv
        cases.append(Case(name=f"signals/SIGINT/{key}", category="signals", argv=argv,
                          send=(signal.SIGINT, SIGNAL_DELAY_S), reaction=REACTION_S,
                          status={130}, dies_by={signal.SIGINT}, stdout_empty=not json_mode,
                          checks=[check_stdout_interrupted] if json_mode else [],
                          needs="big", rss_from="indented"))
    return cases


def metrics_memory_cases() -> List[Case]:
    """--metrics holds its text once (at most the 256 MiB budget) and refuses at once a report
    whose cells cannot fit; a report packed denser than any report is refused while it is read."""
    long_host = "gpu-node-" + "x" * 100 + ".cluster.example.org"
    return [
        Case(name="memory/metrics-1024-gpus-within-the-budget", category="memory",
             argv=["--from", "r1024.json", "--metrics", "m.prom"],
             files={"r1024.json": lambda p: many_gpu_report(p, 1024)}, creates={"m.prom"},
             rss=8 * 3 * MiB + BIG_REPORT_RSS_BASE, rss_output=("m.prom", METRICS_TEXT_RSS_FACTOR),
             timeout=60),
        Case(name="memory/metrics-1024-gpus-over-the-budget", category="memory",
             argv=["--from", "r1024.json", "--metrics", "m.prom"],
             files={"r1024.json": lambda p: many_gpu_report(p, 1024, long_host)}, status={1},
             one_line=True, rss=8 * 3 * MiB + BIG_REPORT_RSS_BASE, max_seconds=FAST_REFUSAL_S,
             checks=[lambda r: [] if re.search(rb"--metrics 'm.prom': the metrics of this report "
                                               rb"would exceed 256 MiB", r.stderr)
                     else [f"stderr does not say the metrics would exceed 256 MiB: "
                           f"{r.stderr[:200]!r}"]]),
        Case(name="memory/stacked-upstream-report-of-short-strings", category="memory",
             argv=["--from", "stacked.json", "--metrics", "m.prom"],
             files={"stacked.json": stacked_upstream_report}, status={2},
             usage=("--from", ("stacked.json",)), message=r"MiB of memory",
             rss=8 * 13 * MiB + BIG_REPORT_RSS_BASE, max_seconds=FAST_REFUSAL_S),
    ]


def all_cases(ctx: Context) -> List[Case]:
    cases = reference_cases()
    cases += reading_cases(unusable_inputs(listing_output(ctx)))
    cases += hostile_text_cases()
    cases += arithmetic_cases()
    cases += memory_cases()
    cases += same_file_cases()
    cases += output_path_cases()
    cases += write_error_cases()
    cases += signal_cases()
    cases += option_cases()
    cases += spelling_cases()
    cases += summarize_cases(unusable_inputs(listing_output(ctx)))
    cases += summarized_folder_cases()
    cases += folder_cases()
    cases += start_failure_cases()
    cases += json_output_cases()
    cases += promise_option_cases()
    cases += substitution_cases()
    cases += loop_signal_cases()
    cases += metrics_memory_cases()
    cases += [build_path_case("real"), build_path_case("fake")]
    if ctx.sanitized:  # ASan and UBSan embed source paths of their own in the binary
        cases = [c for c in cases if c.category != "build-paths"]
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    return cases


def describe(case: Case, ctx: Context) -> str:
    parts = [f"{k}={shlex.quote(v)}" for k, v in case.env.items()
             if case.prog == "fake" or not k.startswith("NVBW_FAKE")]
    parts += [shlex.quote(a) if len(a) < 200 else "<long argument>" for a in case.command(ctx)]
    extra = []
    if case.stdin is not None:
        extra.append("stdin: " + ("a pipe nobody writes to" if case.stdin == "hang" else
                                  f"{len(case.stdin)} bytes" if isinstance(case.stdin, bytes)
                                  else "a stream"))
    if case.stdout != "file":
        extra.append(f"stdout {case.stdout}")
    if case.stderr != "file":
        extra.append(f"stderr {case.stderr}")
    if case.send:
        extra.append(f"{signal.Signals(case.send[0]).name} after {case.send[1]} s")
    if case.fsize is not None:
        extra.append(f"RLIMIT_FSIZE {case.fsize}")
    if case.nofile is not None:
        extra.append(f"RLIMIT_NOFILE {case.nofile}")
    if case.wrap:
        extra.append("through " + " ".join(case.wrap))
    return " ".join(parts) + (f"   [{'; '.join(extra)}]" if extra else "")


def table(results: List[Result]) -> str:
    rows = {}
    for r in results:
        rows.setdefault(r.case.category, []).append(r)
    lines = ["| category | cases | passed | statuses seen | peak RSS (max) | total time |",
             "|---|---:|---:|---|---:|---:|"]

    def row(label, group):
        counts: Dict[str, int] = {}
        for r in group:
            counts[r.status] = counts.get(r.status, 0) + 1
        ordered = sorted(counts.items(), key=lambda kv: (not kv[0].isdigit(),
                                                         int(kv[0]) if kv[0].isdigit() else 0, kv[0]))
        statuses = ", ".join(f"{s} ×{n}" for s, n in ordered)
        peak = max((r.rss_kib for r in group), default=0)
        seconds = sum(r.seconds for r in group)
        return (f"| {label} | {len(group)} | {sum(r.passed for r in group)} | {statuses} | "
                f"{peak / 1024:.0f} MiB | {seconds:.1f} s |")
    for category, group in rows.items():
        lines.append(row(category, group))
    lines.append(row("**all**", results))
    return "\n".join(lines)


def remove_case_dirs(work: Path) -> None:
    """A judged case's working and capture directories (what a case made unreadable is made
    readable first; the case's cleanup has restored what it knows of)."""
    capture = work.parent / work.name.replace("case", "capture", 1)
    deep = work.parent / (work.name + "-deep")  # folder_cases' tree beside the working directory
    if deep.is_dir():
        remove_chain(deep)
        shutil.rmtree(deep, ignore_errors=True)
    for top in (work, capture):
        make_dirs_readable(top)
        shutil.rmtree(top, ignore_errors=True)


def make_dirs_readable(top: Path) -> None:
    """Undoes what a case made unreadable under top, so that it can be removed."""
    for sub in top.rglob("*"):
        if sub.is_dir() and not sub.is_symlink():
            try:
                os.chmod(sub, 0o755)
            except OSError:
                pass


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="nvbandwidth")
    parser.add_argument("--fake-binary", required=True, help="nvbandwidth_fake")
    parser.add_argument("--sanitized", action="store_true",
                        help="ASan/UBSan build: no RLIMIT_AS, larger bounds, no build-path check")
    parser.add_argument("--table", action="store_true", help="print a markdown summary table")
    parser.add_argument("-k", dest="select", default="", help="run the cases whose name holds this")
    parser.add_argument("--source-dir", help="the source tree the binaries were built from")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    args = parser.parse_args(argv)

    root = Path(tempfile.mkdtemp(prefix="nvbw-hostile-"))
    begun = time.monotonic()
    try:
        ctx = Context(args, root)
        cases = [c for c in all_cases(ctx) if args.select in c.name]
        if args.list:
            for case in cases:
                print(case.name)
            return 0
        if any(c.needs == "big" for c in cases):
            make_big_report(ctx)
            reports = {"indented": str(ctx.big), "compact": str(ctx.big_compact)}
            for case in cases:
                if case.needs == "big" and ctx.big:
                    case.argv = [reports.get(a, a) for a in case.argv]
                    case.outside = sorted(set(reports.values()) & set(case.argv))
        started = time.monotonic()
        # The slow cases first, so that the pool ends with many short ones.
        order = sorted(cases, key=lambda c: (c.needs != "big", c.category != "signals"))
        # Each judged case's directories are removed at once by a thread of their own: removing a
        # directory can wait milliseconds on the disk (a file system mounted with discard), over
        # ten seconds for the corpus's four thousand if left to the end; the wait overlaps the
        # next cases, and it takes no core.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as remover, \
                concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            def run_and_remove(case: Case) -> Result:
                result = run_case(case, ctx)
                if result.workdir is not None and not args.keep:
                    remover.submit(remove_case_dirs, result.workdir)
                return result
            results = list(pool.map(run_and_remove, order))
        # By position, not cases.index(): a Case compares field by field, and 1,337 searches of
        # the list were six seconds of CPU.
        position = {id(case): n for n, case in enumerate(cases)}
        results.sort(key=lambda r: position[id(r.case)])
        failed = [r for r in results if not r.passed]
        for r in failed:
            print(f"FAIL {r.case.name}  ({r.status}, {r.seconds:.2f} s, {r.rss_kib // 1024} MiB)")
            if r.case.static is None:
                print(f"  command: {describe(r.case, ctx)}")
            for problem in r.problems:
                print(f"  - {problem}")
            if r.stderr and not any("stderr" in p for p in r.problems):
                print(f"  stderr: {r.stderr[:300]!r}")
        # A child's ru_maxrss starts at the harness's own peak (exec inherits it), so a peak at
        # or below this floor means "no more than the floor".
        floor_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if args.table:
            print()
            print(table(results))
            print()
            print(f"Peak RSS is ru_maxrss from wait4; a child starts at the harness's own peak "
                  f"({floor_kib // 1024} MiB), so values at that floor mean no more than it.")
            print()
        big = (f", big report {ctx.big.stat().st_size / MiB:.1f} MiB indented, "
               f"{ctx.big_compact.stat().st_size / MiB:.1f} MiB compact") if ctx.big else ""
        print(f"hostile corpus: {len(results) - len(failed)} of {len(results)} cases passed "
              f"in {time.monotonic() - started:.1f} s (inputs made in {started - begun:.1f} s)"
              f"{' (sanitized)' if args.sanitized else ''}{big}")
        return 1 if failed else 0
    finally:
        SCHEMA_SERVICE.close()
        if args.keep:
            print(f"kept {root}")
        else:
            for work in root.glob("case*"):
                make_dirs_readable(work)
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
