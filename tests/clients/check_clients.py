#!/usr/bin/python3
"""The client compatibility suite (issue 18): five programs that parse nvbandwidth's output, each
re-implemented from their rules (docs/compatibility.md#clients), read our output and upstream's output of the same
figures; any difference (an extra value, a lost value, another name, a failed parse) fails.

    check_clients.py [--fake PATH] [--binary PATH] [SECTION ...]

Sections (default: all):
  renderer   upstream_render.py against upstream's real outputs in tests/golden/upstream
  upstream   each client on upstream's real outputs: they must read cleanly
  goldens    each client on our committed goldens (tests/golden) against their upstream rendering
  fake       whole runs of the fake platform (1, 2, 8 GPUs) with every extra line forced, for the
             command line of each client, in every --compat mode the binary has
  selftest   the checker itself: a run warning after the last testcase must fail it
  lines      every line the program can print besides its matrices, from the code
             (--catalogue: nvbw_line_catalogue), on stdout or stderr as it must be, in real runs
             of the fake (and of the MPI fake with 4 ranks: --mpi-fake, --mpirun) (check_lines.py)
  real       each client's command line on real binaries (--real-binary, and --upstream-binary
             when given) on this machine's GPUs, outputs kept under --save (check_real.py)
  real-lines (named only) our lines on a real binary (--real-binary): a selection with waived
             testcases between measured ones, and -b 90000's allocation failure in the user's
             terms (check_lines.py; run it on a GPU machine)

Exit status: 0 when nothing failed (skips are printed), 1 otherwise.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import client_chm as chm  # noqa: E402
import client_dcgm as dcgm  # noqa: E402
import client_dra as dra  # noqa: E402
import client_nhc as nhc  # noqa: E402
import client_superbench as sb  # noqa: E402
import check_lines  # noqa: E402
import check_real  # noqa: E402
import compare  # noqa: E402
import report_model as rm  # noqa: E402
import upstream_render as ur  # noqa: E402
from client_common import ClientError  # noqa: E402
from compare import Output  # noqa: E402

GOLDEN = os.path.normpath(os.path.join(HERE, '..', 'golden'))
UPSTREAM = os.path.join(GOLDEN, 'upstream')
MAX_PROBLEM_LINES = int(os.environ.get("CHECK_CLIENTS_MAX_LINES", "14"))


class Results:
    def __init__(self, verbose=False):
        self.failed = self.passed = self.skipped = 0
        self.verbose = verbose

    def report(self, name, problems, notes=()):
        if problems:
            self.failed += 1
            print('FAIL %s' % name)
            for line in problems[:MAX_PROBLEM_LINES]:
                print('     %s' % line)
            if len(problems) > MAX_PROBLEM_LINES:
                print('     ... %d more' % (len(problems) - MAX_PROBLEM_LINES))
        else:
            self.passed += 1
            if self.verbose:
                print('PASS %s' % name)
        if self.verbose or problems:
            for note in notes:
                print('     note: %s' % note)

    def skip(self, name, why):
        self.skipped += 1
        print('SKIP %s: %s' % (name, why))


def read_file(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


# ---- renderer ---------------------------------------------------------------------------------

_NUMBER = re.compile(r'\d+\.\d\d')

# v0.10's sample output (docs/compatibility.md#v010), the one v0.10 text known line for line.
V010_SAMPLE = """nvbandwidth Version: v0.10.0
Built from Git version: v0.10.0

CUDA Runtime Version: 13.2 (13020)
CUDA Driver Version (API): 13.2 (13020)
Driver Version: 595.71.05

Running device_to_device_memcpy_read_ce.
memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)
           0         1
 0       N/A    395.08
 1    395.08       N/A

SUM device_to_device_memcpy_read_ce 790.16
COEFFICIENT_OF_VARIATION device_to_device_memcpy_read_ce 0.00

NOTE: The reported results may not reflect the full capabilities of the platform.
Performance can vary with software drivers, hardware clocks, and system topology.
"""


def _line_diff(expected, actual):
    import difflib
    return list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), 'upstream',
                                     'rendered', lineterm='', n=1))


def check_renderer(results):
    doc_text = read_file(os.path.join(UPSTREAM, 'default.json'))
    text = read_file(os.path.join(UPSTREAM, 'default.txt'))
    from_json = rm.from_upstream_json(json.loads(doc_text))
    results.report('renderer: v0.8 JSON of default.json\'s figures is default.json, byte for byte',
                   _line_diff(doc_text, ur.render_json(from_json)))
    # default.txt and default.json are two runs: their numbers differ, the layout does not.
    results.report('renderer: v0.8 text of default.json\'s figures is default.txt, numbers masked',
                   _line_diff(_NUMBER.sub('#', text),
                              _NUMBER.sub('#', ur.render_text(from_json))))
    results.report('renderer: v0.8 text of default.txt\'s own figures is default.txt, byte for '
                   'byte', _line_diff(text, ur.render_text(rm.from_our_text(text))))
    sample = rm.Report(version='v0.10.0', git_version='v0.10.0', cuda_runtime=13020,
                       cuda_driver=13020, driver_version='595.71.05',
                       devices=[('NVIDIA B300', '00000000:19:00')] * 2)
    sample.testcases.append(rm.Testcase('device_to_device_memcpy_read_ce', 'Passed', [rm.Matrix(
        'device_to_device_memcpy_read_ce', 'memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)',
        [[None, 395.08], [395.08, None]], 790.16, cv=0.001)]))
    results.report('renderer: v0.10 text is v0.10\'s sample',
                   _line_diff(V010_SAMPLE + '\n', ur.render_text(sample, compat='v0.10')))
    listing = ur.render_listing_v010()
    entries = sb.read_listing(listing, '')
    problems = []
    if entries != list(enumerate(ur.V010_TESTCASES)) or len(entries) != 44:
        problems.append('the v0.10 listing does not read as 44 testcases at indices 0-43')
    if '\n\n\n42, device_to_device_latency_tma:' not in listing:
        problems.append('no blank line before index 42')
    results.report('renderer: v0.10 listing', problems)


# ---- upstream's real outputs ----------------------------------------------------------------

def _cells(report, memcpy_only=False):
    values = {}
    for t in report.testcases:
        for m in t.matrices:
            if memcpy_only and 'memcpy' not in m.title:
                continue
            values.setdefault(t.name, []).extend(v for row in m.cells for v in row
                                                 if v is not None)
    return values


def check_upstream(results):
    text = read_file(os.path.join(UPSTREAM, 'default.txt'))
    doc_text = read_file(os.path.join(UPSTREAM, 'default.json'))
    listing = read_file(os.path.join(UPSTREAM, 'list.txt'))
    verbose = read_file(os.path.join(UPSTREAM, 'verbose-t0-latency.txt'))
    figures = rm.from_our_text(text)
    cells = _cells(figures)
    passed = [t.name for t in figures.testcases if t.status == 'Passed']

    reading = chm.read_text(text)
    problems = [] if reading == cells else compare.describe_difference(reading, cells)
    results.report('upstream default.txt: cluster-health-monitor reads each testcase\'s cells',
                   problems)

    reading = nhc.read(text)
    # The blocks of NHC's own testcases hold their cells; the last block ends with the trailer.
    mine = [(n, rows) for n, rows in reading if n in nhc.TESTCASES]
    expected = [(n, [['%.2f' % v for v in cells[n]]]) for n in passed if n in nhc.TESTCASES]
    problems = [] if mine == expected else compare.describe_difference(mine, expected)
    trailer = [line.split()[1:] for line in ur.TRAILER.strip().split('\n')]
    if reading[-1][1][-2:] != trailer:
        problems.append('the last block does not end with the trailer: %r' % reading[-1][1])
    failures = nhc.check(reading)
    if not failures or any('not a number' not in f for f in failures):
        problems.append('NHC should fail on non-numbers only: %r' % failures[:3])
    results.report('upstream default.txt: NHC reads each block\'s cells, and the trailer NOTE '
                   'in the last block (its known failure on upstream)', problems)

    listed = sb.read_listing(listing, '')
    problems = []
    if [i for i, _ in listed] != list(range(35)):
        problems.append('list.txt does not read as indices 0-34: %r' % listed)
    results.report('upstream list.txt: SuperBench reads 35 testcases at 0-34', problems)
    names = [n for _, n in listed]
    reading = sb.read(text, names)
    problems = []
    for t in figures.testcases:
        for m in t.matrices:
            kind = 'bw' if m.unit == 'GB/s' else 'lat'
            if reading['metrics'].get('%s_sum_%s' % (m.key, kind)) != round(m.sum, 2):
                problems.append('no %s_sum_%s' % (m.key, kind))
    cell_metrics = [k for k in reading['metrics'] if '_sum_' not in k]
    if sorted(reading['metrics'][k] for k in cell_metrics) != sorted(
            v for vs in cells.values() for v in vs):
        problems.append('cell metrics are not the cells: %r' % cell_metrics)
    waived = [n for n in names if n not in passed]
    if reading['waived'] != waived or reading['unsupported']:
        problems.append('waived %r, unsupported %r' % (reading['waived'], reading['unsupported']))
    results.report('upstream default.txt: SuperBench (newer) reads every SUM and cell, and the '
                   'waived testcases', problems)
    reading_v = sb.read(verbose, ['host_to_device_memcpy_ce', 'host_device_latency_sm'])
    results.report('upstream verbose-t0-latency.txt: SuperBench (newer) ignores the sample and '
                   'MIN/MAX/AVG lines', compare.describe_difference(
                       reading_v['metrics'], {k: v for k, v in reading_v['metrics'].items()
                                              if k.startswith('host_')})
                   + ([] if len(reading_v['metrics']) == 4 else
                      ['expected 4 metrics: %r' % reading_v['metrics']]))
    try:
        old = sb.read_old(text)
        problems = [] if sorted(old.values()) == sorted(
            v for t in figures.testcases for m in t.matrices
            if m.title.startswith('memcpy CE CPU(row)') for row in m.cells for v in row) \
            else ['older SuperBench reads %r' % old]
    except ClientError as e:
        problems = ['older SuperBench fails: %s' % e]
    results.report('upstream default.txt: SuperBench (older) reads the host CE cells', problems)

    doc = json.loads(doc_text)
    try:
        reading = dcgm.read(doc_text)
        problems = dcgm.verdict(reading, 0)
        statuses = {t['status'] for t in reading['testcases']}
        if not statuses <= {'passed', 'waived'}:
            problems.append('statuses %r' % statuses)
    except ClientError as e:
        problems = ['DCGM cannot read default.json: %s' % e]
    results.report('upstream default.json: DCGM reads the document and passes', problems)
    reading = chm.read_json(doc_text)
    expected = {t['name']: [float(c) for row in t['bandwidth_matrix'] for c in row]
                for t in doc['nvbandwidth']['testcases'] if t['status'] == 'Passed'}
    results.report('upstream default.json: cluster-health-monitor (JSON) reads the Passed cells',
                   [] if reading == expected else compare.describe_difference(reading, expected))
    results.report('upstream default.txt: the DRA grep finds no multinode SUM line',
                   dra.read(text))


# ---- our goldens ------------------------------------------------------------------------------

TEXT_CLIENT_NAMES = ['cluster-health-monitor (text)', 'NHC check_gpu_bw', 'SuperBench (newer)',
                     'SuperBench (older)', 'DRA multinode grep']


def _requested(report):
    return [t.name for t in report.testcases if t.status != 'NotFound']


def check_goldens(results):
    for path in sorted(_golden_files('.txt')):
        name = os.path.relpath(path, GOLDEN)
        text = read_file(path)
        if '\tSample 0:' in text or 'Cell statistics of' in text:
            results.skip('golden %s' % name, 'verbose text: no client reads -v text, and its '
                         'sample lines differ from upstream\'s by design (decisions #8)')
            continue
        if text.startswith('Index, Name:') or 'Index, Name:' in text[:200]:
            continue  # a listing: checked in the fake section with the real listings
        try:
            figures = rm.from_our_text(text)
        except ValueError as e:
            results.report('golden %s' % name, ['its figures do not read: %s' % e])
            continue
        theirs = Output(ur.render_text(figures, perf='&&&& PERF' in text))
        # CHM and NHC run three testcases: in a golden with more, only theirs count.
        context = {'requested': _requested(figures), 'only': set(chm.TEXT_TESTCASES)}
        for client in TEXT_CLIENT_NAMES:
            notes = []
            results.report('golden %s: %s' % (name, client),
                           compare.compare_text(client, Output(text), theirs, context, notes),
                           notes)
    for path in sorted(_golden_files('.json')):
        name = os.path.relpath(path, GOLDEN)
        text = read_file(path)
        doc = json.loads(text)
        top = doc.get('nvbandwidth') if isinstance(doc, dict) else None
        if not isinstance(top, dict) or 'version' not in top or any(
                'status' not in t for t in top.get('testcases', [])):
            continue  # not a run report (a listing, an HTML fixture)
        figures = rm.from_our_json(doc)
        verbose = any('min' in t or 'average' in t for t in top.get('testcases', []))
        failed = 'error' in top or any(t.status in ('ERROR', 'NotFound', 'Running')
                                       for t in figures.testcases)
        status = 1 if failed else 0
        ours = Output(text, '', status)
        theirs = Output(ur.render_json(figures, verbose=verbose), '', status)
        notes = compare.dcgm_notes(ours, theirs)
        results.report('golden %s: DCGM' % name, compare.compare_dcgm(ours, theirs, notes), notes)
        notes = []
        results.report('golden %s: cluster-health-monitor (JSON)' % name,
                       compare.compare_chm_json(ours, theirs, notes, set(chm.JSON_TESTCASES)),
                       notes)


def _golden_files(extension):
    for folder in (GOLDEN, os.path.join(GOLDEN, 'd2d')):
        for entry in os.listdir(folder):
            if entry.endswith(extension):
                yield os.path.join(folder, entry)


# ---- whole runs on the fake platform --------------------------------------------------------

FAKE_ENV_PREFIXES = ('NVBW_FAKE_', 'NVBANDWIDTH_COMPAT')


def run_binary(binary, args, env=None, timeout=60):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(FAKE_ENV_PREFIXES)}
    clean.update(env or {})
    p = subprocess.run([binary] + list(args), env=clean, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return Output(p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace'),
                  p.returncode)


def links_for(gpus):
    return 'direct' if gpus == 2 else 'nvswitch'


# Scenarios: (name, what it forces, env(gpus, samples) -> knobs). Together they make every line
# our program can add to a client's output appear.
SCENARIOS = [
    ('quiet', 'no extra line but the ones a healthy machine gets (outlier NOTEs)',
     lambda gpus, samples: {}),
    ('header', 'noisy-cell NOTEs, PCIe-below-maximum, MIG and set-clocks WARNINGs, peer-access '
     'NOTE', lambda gpus, samples: dict(
         {'NVBW_FAKE_JITTER': '5', 'NVBW_FAKE_PCIE': 'start', 'NVBW_FAKE_MIG': '1',
          'NVBW_FAKE_CLOCKS_SET': '1'}, **({'NVBW_FAKE_NO_PEER': '0-1'} if gpus > 2 else {}))),
    ('run-warnings', 'throttling and link-trained-down WARNINGs after the last testcase',
     lambda gpus, samples: {'NVBW_FAKE_THROTTLE_S': '2.35', 'NVBW_FAKE_PCIE': 'run',
                            'NVBW_FAKE_JITTER': '5'}),
    ('no-nvml', 'the NVML NOTE', lambda gpus, samples: {'NVBW_FAKE_LINKS': 'none'}),
    ('errors', 'ERROR lines of failing testcases',
     lambda gpus, samples: {'NVBW_FAKE_FAIL': 'CPU(row) <- GPU(column)'}),
    ('interrupted', 'SIGINT in the second testcase: the Interrupted line instead of the trailer',
     lambda gpus, samples: {'NVBW_FAKE_SIGINT_AFTER': str(samples * gpus + 3)}),
]
# Scenarios whose runs measure every selected testcase: a client must read something there (no
# pass because both sides read nothing).
COMPLETE = {'quiet', 'header', 'run-warnings', 'no-nvml'}
# GPU counts per scenario: 8 GPUs (slowest) where they add lines: outliers, the peer-access NOTE,
# the run warnings after a long last testcase.
GPU_COUNTS = {'quiet': [1, 2, 8], 'header': [1, 2, 8], 'run-warnings': [1, 2, 8],
              'no-nvml': [1, 2], 'errors': [1, 2], 'interrupted': [1, 2]}
# Scenarios per mode: `--compat v0.8` is the default byte for byte, the environment variable is
# the option; both get a few.
MODE_SCENARIOS = {'--compat v0.8': ['quiet', 'run-warnings'],
                  'NVBANDWIDTH_COMPAT=v0.10': ['quiet', 'run-warnings']}
NOT_A_TESTCASE = 'no_such_testcase'


class Modes:
    """The --compat modes the binary has, found by running `--compat MODE -l`."""

    def __init__(self, binary):
        def lists(args, env, entry):
            out = run_binary(binary, args + ['-l'], env)
            return out.status == 0 and entry in out.stdout

        v08_entry, v010_entry = '\n34, device_local_copy:\n', '\n34, device_to_device_memcpy_read_tma:\n'
        self.v08 = lists(['--compat', 'v0.8'], {}, v08_entry)
        self.v010 = lists(['--compat', 'v0.10'], {}, v010_entry)
        self.v010_env = lists([], {'NVBANDWIDTH_COMPAT': 'v0.10'}, v010_entry)
        self.format_json = run_binary(binary, ['--format', 'json', '-l']).status == 0

    def all(self):
        """(label, args, env, compat for rendering, supported?)"""
        return [('default', [], {}, 'v0.8', True),
                ('--compat v0.8', ['--compat', 'v0.8'], {}, 'v0.8', self.v08),
                ('--compat v0.10', ['--compat', 'v0.10'], {}, 'v0.10', self.v010),
                ('NVBANDWIDTH_COMPAT=v0.10', [], {'NVBANDWIDTH_COMPAT': 'v0.10'}, 'v0.10',
                 self.v010_env)]


def _mode_in_force(output, compat):
    """A v0.10 run must look like one (its header line), a v0.8 run must not."""
    has = 'CUDA Driver Version (API): ' in output.stdout
    if compat == 'v0.10' and not has:
        return ['--compat v0.10 is not in force: no "CUDA Driver Version (API)" line']
    if compat == 'v0.8' and has:
        return ['v0.8 output has v0.10\'s "CUDA Driver Version (API)" line']
    return []


class FakeRuns:
    def __init__(self, fake, jobs):
        self.fake = fake
        self.pool = ThreadPoolExecutor(max_workers=jobs)

    def env(self, gpus, knobs, mode_env):
        env = {'NVBW_FAKE_GPUS': str(gpus), 'NVBW_FAKE_LINKS': links_for(gpus)}
        env.update(knobs)
        env.update(mode_env)
        return env

    def text_pair(self, args, env):
        """Our text output of `args`, and upstream's rendering of the same run's figures."""
        text = self.pool.submit(run_binary, self.fake, args, env)
        figures = self.pool.submit(run_binary, self.fake, args + ['-j'], env)
        return text, figures


def _figures(output):
    try:
        return rm.from_our_json(json.loads(output.stdout))
    except (ValueError, KeyError) as e:
        raise RuntimeError('our -j report does not read: %s' % e) from e


def check_fake(results, fake, binary, jobs):
    if not fake or not os.access(fake, os.X_OK):
        results.skip('fake runs', 'no fake binary (build target nvbandwidth_fake)')
        return
    modes = Modes(fake)
    runs = FakeRuns(fake, jobs)
    supported = []
    # Every mode is part of the product (issue 18): one the binary lacks fails, never skips.
    for label, args, env, compat, ok in modes.all():
        if ok:
            supported.append((label, args, env, compat))
        else:
            results.report('mode %s' % label, ['the binary does not have it: `%s -l` does not '
                                               'list that interface' % ' '.join(
                                                   ['%s=%s' % kv for kv in env.items()]
                                                   + ['nvbandwidth'] + args)])
    if not modes.format_json:
        results.report('--format json', ['the binary does not have it: `nvbandwidth --format '
                                         'json -l` exits non-zero'])
    check_listings(results, fake, binary, supported)
    check_put_back(results, fake)
    pending = []
    listing = {}
    for label, margs, menv, compat in supported:
        listed = sb.read_listing(run_binary(fake, margs + ['--list'], menv).stdout, '')
        listing[label] = [n for _, n in listed]
    for label, margs, menv, compat in supported:
        scenarios = [s for s in SCENARIOS if s[0] in MODE_SCENARIOS.get(label, [s[0]])]
        for scenario, _, knobs_of in scenarios:
            for gpus in GPU_COUNTS[scenario]:
                tag = '%s, %d GPU%s, %s' % (scenario, gpus, 's' if gpus > 1 else '', label)
                pending += _submit_text_clients(runs, tag, margs, menv, compat, scenario,
                                                knobs_of, gpus, listing[label])
                pending += _submit_json_clients(runs, modes, tag, margs, menv, knobs_of, gpus,
                                                listing[label])
        for scenario, _, knobs_of in scenarios:
            tag = '%s, 4 ranks, %s' % (scenario, label)
            knobs = dict(knobs_of(2, 3), NVBW_FAKE_RANKS='4')
            if 'NVBW_FAKE_FAIL' in knobs:
                knobs['NVBW_FAKE_FAIL'] = 'GPU(row) -> GPU(column)'  # the multinode read fails
            args = margs + dra.command()
            text, figures = runs.text_pair(args, runs.env(2, knobs, menv))
            pending.append(('DRA multinode grep | %s' % tag, 'DRA multinode grep', args,
                            text, figures, compat, {'complete': scenario in COMPLETE}))
    documented = {}
    for name, client, args, text, figures, compat, context in pending:
        _finish(results, name, client, args, text, figures, compat, context, documented)
    runs.pool.shutdown()
    # The documented JSON decisions DCGM sees must be met where they apply, and they do apply in
    # these runs (bidirectional testcases on 2 and 8 GPUs, N/A cells under -v).
    results.report('DCGM: the documented differences C8 and C9 are exercised (%s)' % ', '.join(
        '%s in %d entries' % (k, documented.get(k, 0)) for k in sorted(compare.DOCUMENTED)),
        ['%s never applied: %s' % (k, compare.DOCUMENTED[k]) for k in sorted(compare.DOCUMENTED)
         if not documented.get(k)])


def check_put_back(results, fake):
    """The regression case on our own output: the run-end lines we print on stderr (throttling,
    a link trained down, the interruption) put back on stdout after the last testcase, as the
    program printed them before issue 18, must fail cluster-health-monitor and NHC, naming the
    line; where they are now, they pass (the fake section) and people still see them."""
    for label, margs, menv, compat in (('default', [], {}, 'v0.8'),
                                       ('--compat v0.10', ['--compat', 'v0.10'], {}, 'v0.10')):
        for scenario, knobs in (
                ('run-warnings', {'NVBW_FAKE_THROTTLE_S': '2.35', 'NVBW_FAKE_PCIE': 'run'}),
                ('interrupted', {'NVBW_FAKE_SIGINT_AFTER': str(10 * 2 + 3)})):
            env = dict({'NVBW_FAKE_GPUS': '2', 'NVBW_FAKE_LINKS': 'direct'}, **knobs, **menv)
            args = margs + chm.text_command()
            ours = run_binary(fake, args, env)
            theirs = Output(ur.render_text(_figures(run_binary(fake, args + ['-j'], env)),
                                           compat=compat))
            # Before issue 18 these were on stdout, and the interrupted testcase's ERROR line
            # (on stderr since issue 29) before them.
            moved = [line for line in ours.stderr.split('\n')
                     if line.startswith(('WARNING: ', 'Interrupted by ', 'ERROR: interrupted by '))]
            problems = []
            if not moved:
                problems.append('stderr has no run-end line to put back: %r' % ours.stderr)
            if any(line in ours.stdout for line in moved):
                problems.append('a run-end line is on stdout')
            trailer = ours.stdout.find('NOTE: The reported results')
            at = trailer if trailer >= 0 else len(ours.stdout)
            put_back = Output(ours.stdout[:at] + ''.join(l + '\n' for l in moved)
                              + ours.stdout[at:], '', ours.status)
            for client in ('cluster-health-monitor (text)', 'NHC check_gpu_bw'):
                if compare.compare_text(client, ours, theirs):
                    problems.append('%s: fails on our output as it is' % client)
                found = compare.compare_text(client, put_back, theirs)
                if not any(line in p for line in moved for p in found):
                    problems.append('%s: the lines put back on stdout do not fail it, or are not '
                                    'named: %r' % (client, found[:3]))
            results.report('regression | %s, %s: our stderr run-end lines, put back on stdout '
                           'after the last testcase, fail cluster-health-monitor and NHC'
                           % (scenario, label), problems)


def _submit_text_clients(runs, tag, margs, menv, compat, scenario, knobs_of, gpus, listed):
    pending = []
    commands = [
        (['cluster-health-monitor (text)'], chm.text_command(), 10, None),
        (['NHC check_gpu_bw'], nhc.command(), 3, None),
        (['SuperBench (newer)', 'SuperBench (older)'], sb.run_command(), 3, listed),
    ]
    if scenario == 'errors':
        requested = ['host_to_device_memcpy_ce', NOT_A_TESTCASE, 'device_to_host_memcpy_ce',
                     'device_to_device_memcpy_read_ce', 'device_local_copy']
        commands.append((['SuperBench (newer)', 'SuperBench (older)'],
                         sb.run_command(requested), 3, requested))
    for clients, command, samples, requested in commands:
        args = margs + command
        text, figures = runs.text_pair(args, runs.env(gpus, knobs_of(gpus, samples), menv))
        for client in clients:
            pending.append(('%s | %s: %s' % (client, tag, ' '.join(command)), client, args, text,
                            figures, compat, {'requested': requested or [],
                                              'complete': scenario in COMPLETE}))
    return pending


def _submit_json_clients(runs, modes, tag, margs, menv, knobs_of, gpus, listed):
    pending = []
    command = chm.json_command()
    label = 'cluster-health-monitor (JSON)'
    env = runs.env(gpus, knobs_of(gpus, 10), menv)
    pending.append(('%s | %s: %s' % (label, tag, ' '.join(command)), 'chm-json', margs + command,
                    runs.pool.submit(run_binary, runs.fake, margs + command, env), None, None,
                    {}))
    tests = [n for n in listed if not n.startswith('multinode')]
    command = dcgm.command(tests)
    env = runs.env(gpus, knobs_of(gpus, 3), menv)
    pending.append(('DCGM | %s: -j -v -t <each of %d testcases>' % (tag, len(tests)), 'dcgm',
                    margs + command, runs.pool.submit(run_binary, runs.fake, margs + command,
                                                      env), None, None, {}))
    return pending


def _finish(results, name, client, args, text, figures, compat, context, documented=None):
    try:
        ours = text.result()
        if client in ('chm-json', 'dcgm'):
            report = _figures(ours)
            theirs = Output(ur.render_json(report, verbose=client == 'dcgm'), '',
                            ur.reference_status(report))
            if client == 'dcgm':
                notes = compare.dcgm_notes(ours, theirs)
                results.report(name, compare.compare_dcgm(ours, theirs, notes, documented), notes)
            else:
                notes = []
                results.report(name, compare.compare_chm_json(ours, theirs, notes), notes)
            return
        report = _figures(figures.result())
        theirs = Output(ur.render_text(report, compat=compat))
        notes = []
        problems = _mode_in_force(ours, compat) + compare.compare_text(client, ours, theirs,
                                                                       context, notes)
        if context.get('complete') and not compare.TEXT_CLIENTS[client](theirs, context):
            problems.append('reads nothing from upstream\'s rendering of a complete run')
        results.report(name, problems, notes)
    except RuntimeError as e:
        results.report(name, [str(e)])


def check_listings(results, fake, binary, supported):
    """SuperBench's listing step: the same index for every upstream name, our additions read as
    themselves, nothing on stderr."""
    upstream_v08 = sb.read_listing(read_file(os.path.join(UPSTREAM, 'list.txt')), '')
    upstream_v010 = sb.read_listing(ur.render_listing_v010(), '')
    for program in [p for p in (fake, binary) if p and os.access(p, os.X_OK)]:
        for label, margs, menv, compat in supported:
            name = 'SuperBench listing | %s %s' % (os.path.basename(program), label)
            out = run_binary(program, margs + ['--list'], menv)
            try:
                ours = sb.read_listing(out.stdout, out.stderr)
            except ClientError as e:
                results.report(name, [str(e)])
                continue
            expected = upstream_v010 if compat == 'v0.10' else upstream_v08
            ours_json = run_binary(program, margs + ['--list', '-j'], menv)
            problems = []
            if out.status != 0:
                problems.append('--list exits %d' % out.status)
            names = {n for _, n in expected}
            kept = [e for e in ours if e[1] in names]
            if kept != expected:
                problems.extend(compare.describe_difference(kept, expected))
            extra = [e for e in ours if e[1] not in names]
            try:
                ours_listed = [(t['index'], t['name']) for t in _listing_entries(ours_json)]
                unknown = [e for e in extra if e not in ours_listed]
                if unknown:
                    problems.append('listing entries that are no testcase of ours: %r' % unknown)
            except (ValueError, KeyError, TypeError) as e:
                problems.append('-l -j does not read: %s' % e)
            results.report(name, problems)


def _listing_entries(output):
    doc = json.loads(output.stdout)
    if isinstance(doc, dict):
        doc = doc.get('nvbandwidth', doc)
        doc = doc.get('testcases', doc)
    return doc


# ---- self-test --------------------------------------------------------------------------------

THROTTLE_LINE = ('WARNING: GPU 0: clocks were held down for power or thermal reasons for 2.35 s '
                 'during the run: its figures may be low.')


def _insert_after_last_sum(text, line):
    lines = text.split('\n')
    last = max(i for i, l in enumerate(lines) if l.startswith('SUM '))
    # As the program prints it today: after the last testcase's blank line, before the trailer.
    return '\n'.join(lines[:last + 2] + [line] + lines[last + 2:])


def check_selftest(results):
    figures = rm.from_upstream_json(json.loads(read_file(os.path.join(UPSTREAM, 'default.json'))))
    figures.testcases = [t for t in figures.testcases if t.name in chm.TEXT_TESTCASES]
    clean = Output(ur.render_text(figures))
    throttled = Output(_insert_after_last_sum(clean.stdout, THROTTLE_LINE))
    reading = chm.read_text(throttled.stdout)
    problems = []
    if chm.minimum_bandwidth(reading).get('device_to_host_memcpy_ce') != 2.35:
        problems.append('the monitor\'s rules do not take 2.35 for device_to_host_memcpy_ce\'s '
                        'minimum: %r' % reading)
    if 'device_to_host_memcpy_ce' not in chm.failing_testcases(reading):
        problems.append('a healthy node with the throttle line does not fail the H100 check')
    for client in ('cluster-health-monitor (text)', 'NHC check_gpu_bw'):
        found = compare.compare_text(client, throttled, clean)
        if not found:
            problems.append('%s: the suite passes output with the throttle line after the last '
                            'testcase' % client)
        elif 'our line that changes the reading: %r' % THROTTLE_LINE not in found:
            problems.append('%s: the throttle line is not named as the line read: %r'
                            % (client, found))
        if compare.compare_text(client, clean, clean):
            problems.append('%s: the suite fails upstream\'s own output' % client)
    header = clean.stdout.replace('\nRunning ', '\n%s\nRunning ' % THROTTLE_LINE, 1)
    if compare.compare_text('cluster-health-monitor (text)', Output(header), clean):
        problems.append('the throttle line before the first banner should be harmless')
    results.report('selftest: the run WARNING printed after the last testcase fails the suite '
                   '(cluster-health-monitor reads 2.35 GB/s; NHC a non-number)', problems)

    interrupted = Output(_insert_after_last_sum(clean.stdout, 'Interrupted by SIGINT: 1 of 3 '
                                                'selected testcases reported above; the rest '
                                                'did not run.'))
    results.report('selftest: an Interrupted line after a testcase is read as values',
                   [] if compare.compare_text('cluster-health-monitor (text)', interrupted,
                                              clean) else ['not detected'])

    local = rm.Report(cuda_runtime=13000, cuda_driver=13000, driver_version='580',
                      hostname='h', devices=[('NVIDIA H200', '00000000:19:00')])
    local.testcases.append(rm.Testcase('device_local_read_sm', 'Passed', [rm.Matrix(
        'device_local_read_sm', 'memory read SM local GPU(column) bandwidth (GB/s)',
        [[4580.0]], 4580.0)]))
    output = Output(ur.render_text(local))
    found = compare.compare_text('SuperBench (newer)', output, output,
                                 {'requested': ['device_local_read_sm']})
    results.report('selftest: SuperBench\'s `_sum_None` for a title it cannot type is a failure '
                   'even where upstream\'s rendering reads the same',
                   [] if any('device_local_read_sm_sum_None' in p for p in found)
                   else ['not detected: %r' % found])

    doc = ur.render_json(figures, verbose=True)
    compact = json.dumps(json.loads(doc))
    try:
        dcgm.read(compact)
        problems = ['DCGM read a one-line document']
    except ClientError:
        problems = []
    results.report('selftest: DCGM finds no document in one-line JSON', problems)


# ---- main -------------------------------------------------------------------------------------

SECTIONS = ['renderer', 'upstream', 'goldens', 'fake', 'selftest', 'lines', 'real']
# Sections run only when named: they run a real binary on this machine's GPUs.
NAMED_ONLY = ['real-lines']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('sections', nargs='*', choices=SECTIONS + NAMED_ONLY + [[]], default=[])
    parser.add_argument('--fake', help='build/tests/nvbandwidth_fake')
    parser.add_argument('--binary', help='build/nvbandwidth (its listing is checked)')
    parser.add_argument('--real-binary', help='real: our binary, run on this machine\'s GPUs')
    parser.add_argument('--upstream-binary', help='real: upstream\'s binary, run the same way')
    parser.add_argument('--save', help='real: keep every output under this folder')
    parser.add_argument('--catalogue', help='lines: build/tests/nvbw_line_catalogue')
    parser.add_argument('--mpi-fake', help='lines: build/tests/nvbandwidth_mpi_fake')
    parser.add_argument('--mpirun', help='lines: the mpirun that runs it')
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('-v', '--verbose', action='store_true', help='print passing checks too')
    options = parser.parse_args()
    sections = options.sections or SECTIONS
    results = Results(options.verbose)
    if 'renderer' in sections:
        check_renderer(results)
    if 'upstream' in sections:
        check_upstream(results)
    if 'goldens' in sections:
        check_goldens(results)
    if 'fake' in sections:
        check_fake(results, options.fake, options.binary, options.jobs)
    if 'selftest' in sections:
        check_selftest(results)
    if 'lines' in sections:
        check_lines.check_lines(results, options.fake, options.catalogue, run_binary,
                                options.mpi_fake, options.mpirun)
    if 'real-lines' in sections:
        check_lines.check_real_lines(results, options.real_binary,
                                     options.save and os.path.join(options.save, 'lines'),
                                     run_binary)
    if 'real' in sections:
        check_real.check_real(results, options.real_binary, options.upstream_binary, options.save,
                              run_binary)
    print('%d passed, %d failed, %d skipped' % (results.passed, results.failed, results.skipped))
    return 1 if results.failed else 0


if __name__ == '__main__':
    sys.exit(main())
