"""The `lines` section: every line the program can print besides its matrices, derived from the
code (nvbw_line_catalogue: line_catalogue.cpp), read with each client's rules.

- Every waive reason the registry can give, on the faked machines that give them (1, 2, 8 GPUs;
  4 ranks), in both interfaces: the fake binary run on each machine prints upstream's bare
  `Waived: ` on stdout and the reason on stderr; its stdout holds upstream's lines only after the
  first `Running` line; every client reads it as upstream's output of the same figures.
- Every ERROR form, cell NOTE and run warning, rendered by the text output itself: upstream's
  two selection errors on stdout, everything else on stderr, where each line, had it been on
  stdout after a testcase, would have been read as that testcase's values by NHC's rules (a word)
  or the cluster-health-monitor's (a number): why it is there. The header's notes come before
  any `Running` line, where no client reads, and none could open a matrix or a testcase.
- Whole runs that make those lines for real: failing testcases (verification, each driver
  failure), unknown -t tokens, a sweep, noisy and outlier cells, run warnings, a comparison with
  confirmations and expectation checks; the MPI fake under mpirun with 4 ranks when given.
"""
import json
import os
import re
import subprocess
import tempfile

import client_chm as chm
import compare
import report_model as rm
import upstream_render as ur
from compare import Output

TEXT_CLIENTS = ['cluster-health-monitor (text)', 'NHC check_gpu_bw', 'SuperBench (newer)',
                'SuperBench (older)', 'DRA multinode grep']
MODES = [('default', [], 'v0.8'), ('--compat v0.10', ['--compat', 'v0.10'], 'v0.10')]

# ---- upstream's line forms ----------------------------------------------------------------------

_BANNER = re.compile(r'^Running \S+\.$')
_COLUMNS = re.compile(r'^ +\d+( +\d+)*$')
_ROW = re.compile(r'^ *\S+( +(-?\d+\.\d\d|N/A))+$')
_FORMS = [re.compile(p) for p in (
    r'^$', r'^Running \S+\.$', r'^SUM \S+ -?\d+\.\d\d$', r'^&&&& PERF \S+ -?\d+\.\d\d [+-](GB/s|ns)$',
    r'^COEFFICIENT_OF_VARIATION \S+ -?\d+\.\d\d$', r'^Waived: $', r'^Waived \S+: \S.*$',
    r'^ERROR: Testcase \S* not found!$', r'^ERROR: Testcase index \S+ out of bound!$')]
_TRAILER = ur.TRAILER.strip('\n').split('\n')


_SWEEP = re.compile(r'^Sweep of \S+ \(SUM, (GB/s|ns)\):$')


def stdout_problems(stdout):
    """Lines after the first `Running` line that are none of upstream's forms (a matrix title is
    the line before a column header, its rows the lines after it up to the blank line). --sweep's
    table takes the place of the matrices (no client runs --sweep): its lines are its results."""
    lines = stdout.split('\n')
    start = next((i for i, l in enumerate(lines) if _BANNER.match(l)), len(lines))
    problems = []
    in_matrix = in_sweep = False
    for i in range(start, len(lines)):
        line = lines[i]
        if in_sweep and line:
            continue
        in_sweep = bool(_SWEEP.match(line))
        if in_sweep:
            continue
        if in_matrix and line:
            if not _ROW.match(line) and not _COLUMNS.match(line):
                problems.append('a line of ours inside a matrix: %r' % line)
            continue
        in_matrix = False
        if i + 1 < len(lines) and _COLUMNS.match(lines[i + 1]):
            in_matrix = True  # a title
            continue
        if any(f.match(line) for f in _FORMS) or line in _TRAILER:
            continue
        problems.append('a line of ours on stdout after the first Running line: %r' % line)
    return problems


def header_problems(line):
    """A line before the first `Running` line that some client would read: SuperBench's rows,
    matrix openers and ERROR lines, NHC's and the cluster-health-monitor's banners, DRA's SUM."""
    if re.match(r'^\s*\d', line) or line.strip().startswith(('memcpy', 'memory latency',
                                                            'Running', 'SUM ', 'ERROR: Testcase')):
        return ['a header line a client would read: %r' % line]
    if re.search(r'SUM multinode_device_to_device_memcpy_read_ce [0-9]+\.[0-9]+', line):
        return ['a header line the DRA grep would read: %r' % line]
    return []


# ---- reading a run as every client does ----------------------------------------------------------

def _figures(output):
    return rm.from_our_json(json.loads(output.stdout))


def client_problems(text, doc, compat, requested, json_clients=True):
    """Every text client on `text` and the JSON clients on `doc` (both Outputs of one run),
    against upstream's rendering of the figures of `doc`. The cluster-health-monitor's JSON
    revision runs two testcases: only theirs count."""
    report = _figures(doc)
    theirs = Output(ur.render_text(report, compat=compat))
    problems = []
    for client in TEXT_CLIENTS:
        found = compare.compare_text(client, text, theirs, {'requested': requested})
        problems.extend('%s: %s' % (client, p) for p in found)
    if not json_clients:
        return problems
    theirs_json = Output(ur.render_json(report), '', ur.reference_status(report))
    problems.extend('DCGM: ' + p for p in compare.compare_dcgm(doc, theirs_json))
    problems.extend('cluster-health-monitor (JSON): ' + p
                    for p in compare.compare_chm_json(doc, theirs_json, None,
                                                      set(chm.JSON_TESTCASES)))
    return problems


def _waived_lines(stdout):
    """The waiver lines: v0.8's bare `Waived: `, v0.10's `Waived <key>: <reason>`."""
    return sum(1 for line in stdout.split('\n')
               if line == 'Waived: ' or re.match(r'^Waived \S+: ', line))


def _waiver_problems(stdout, stderr, waived, compat):
    """v0.8: each reason on stderr. v0.10: each on stdout in v0.10's line, no word of it a number
    (the cluster-health-monitor would read it as the previous testcase's value)."""
    problems = []
    for key, reason in waived:
        if compat == 'v0.8':
            line = 'NOTE: %s waived: %s' % (key, reason)
            if line not in stderr:
                problems.append('not on stderr: %r' % line)
            continue
        line = 'Waived %s: %s' % (key, ur.without_number_tokens(reason))
        if line not in stdout.split('\n'):
            problems.append('not on stdout: %r' % line)
        if any(ur.reads_as_number(t) for t in line.split()):
            problems.append('a number on a waiver line: %r' % line)
    return problems


def _listed(run_binary, binary, margs, env):
    out = run_binary(binary, margs + ['--list'], env)
    return [m.group(2) for m in re.finditer(r'(?m)^(\d+),\s+([\w_]+):', out.stdout)]


# ---- the catalogue ------------------------------------------------------------------------------

def _stderr_line_is_read_on_stdout(line):
    """Whether `line`, printed on stdout after a testcase that is not a memcpy one, changes what
    NHC or the cluster-health-monitor read from upstream's output: the reason it is on stderr."""
    report = rm.Report(cuda_runtime=13000, cuda_driver=13000, driver_version='580',
                       hostname='h', devices=[('NVIDIA H200', '00000000:19:00')])
    report.testcases.append(rm.Testcase('device_local_copy', 'Passed', [rm.Matrix(
        'device_local_copy', 'memcpy local GPU(column) bandwidth (GB/s)', [[1834.5]], 1834.5)]))
    clean = ur.render_text(report)
    at = clean.index('NOTE: The reported results')
    dirty = Output(clean[:at] + line + '\n' + clean[at:])
    return any(compare.compare_text(client, dirty, Output(clean))
               for client in ('cluster-health-monitor (text)', 'NHC check_gpu_bw'))


def check_forms_selftest(results):
    """The structural check itself: upstream's real outputs pass it; a line of ours after a
    testcase fails it (today's waiver, as it was printed on stdout before issue 29)."""
    here = os.path.dirname(os.path.abspath(__file__))
    upstream = os.path.join(here, '..', 'golden', 'upstream')
    problems = []
    for name in ('default.txt', 'list.txt'):
        with open(os.path.join(upstream, name), encoding='utf-8') as f:
            problems += ['%s: %s' % (name, p) for p in stdout_problems(f.read())]
    with open(os.path.join(upstream, 'default.txt'), encoding='utf-8') as f:
        text = f.read()
    named = text.replace('Waived: \n', 'Waived: all_to_one_write_ce: needs two GPUs with peer '
                         'access; this system has 1 GPU\n', 1)
    if not stdout_problems(named):
        problems.append('a named Waived line on stdout is not found')
    results.report('lines selftest: upstream\'s outputs have only upstream\'s forms; a waive '
                   'reason on stdout is found', problems)


def check_catalogue_lines(results, catalogue):
    upstream_selection = re.compile(r'^ERROR: Testcase (\S* not found|index \S+ out of bound)!$')
    for entry in catalogue['lines']:
        problems = stdout_problems(entry['stdout'])
        ours = [l for l in entry['stderr'].split('\n') if l]
        stdout_ours = [l for l in entry['stdout'].split('\n') if upstream_selection.match(l)]
        if not ours and not stdout_ours:
            problems.append('printed nowhere: a person never sees it')
        for line in ours:
            if upstream_selection.match(line):
                problems.append('upstream\'s own line is not on stdout: %r' % line)
            elif not _stderr_line_is_read_on_stdout(line):
                problems.append('on stderr, but no client would misread it on stdout: %r' % line)
            elif not stdout_problems('Running k.\n' + line + '\n'):
                problems.append('the stdout check would not find it there: %r' % line)
        results.report('catalogue | %s: our lines on stderr, stdout upstream\'s' % entry['what'],
                       problems)
    problems = []
    for entry in catalogue['header']:
        problems.extend(header_problems(entry['line']))
    results.report('catalogue | the header\'s %d notes: none is read before the first Running '
                   'line' % len(catalogue['header']), problems)


def check_waivers(results, catalogue, fake, run_binary):
    """Every distinct reason, found on stderr of the fake run on a machine that gives it."""
    covered = {(w['compat'], w['key'], w['reason'])
               for v in catalogue['variants'] for w in v['waived']}
    distinct = {tuple(d) for d in catalogue['distinct']}
    results.report('waivers: the %d machines run cover all %d reasons of the %d machines the '
                   'registry\'s checks tell apart (%d reason texts)'
                   % (len(catalogue['variants']), len(distinct), catalogue['machines'],
                      len({d[2] for d in distinct})),
                   [] if covered == distinct else ['not run: %r' % sorted(distinct - covered)[:5]])
    for variant in catalogue['variants']:
        env = dict(variant['env'])
        tag = ', '.join('%s=%s' % (k[len('NVBW_FAKE_'):], v if len(v) < 20 else v[:17] + '...')
                        for k, v in sorted(env.items()))
        for label, margs, compat in MODES:
            waived = [w for w in variant['waived'] if w['compat'] == compat]
            text = run_binary(fake, margs + ['-i', '1'], env)
            doc = run_binary(fake, margs + ['-i', '1', '-j'], env)
            problems = stdout_problems(text.stdout)
            problems += _waiver_problems(text.stdout, text.stderr,
                                         [(w['key'], w['reason']) for w in waived], compat)
            if _waived_lines(text.stdout) != len(waived):
                problems.append('%d "Waived: " lines on stdout for %d waived testcases'
                                % (_waived_lines(text.stdout), len(waived)))
            problems += client_problems(text, doc, compat, _listed(run_binary, fake, margs, env))
            results.report('waivers | %s, %s: %d waived, every client reads upstream\'s figures'
                           % (tag, label, len(waived)), problems)


def _runs(fake, work):
    """(name, env, args, the start of a line of ours on stderr, '' when the run has none): runs
    of the fake binary whose lines are ours, each made for real."""
    floors = os.path.join(work, 'floors.txt')
    with open(floors, 'w') as f:
        f.write('host_to_device_memcpy_ce 1000\ndevice_to_host_memcpy_ce 10\n'
                'device_to_device_memcpy_read_ce 1\n')
    base = os.path.join(work, 'base.json')
    with open(base, 'w') as f:
        f.write(subprocess.run([fake, '-j', '-t', '0', '1', '4', '-i', '3'], stdout=subprocess.PIPE,
                               env=dict(os.environ, NVBW_FAKE_GPUS='2'), check=False)
                .stdout.decode())
    one = {'NVBW_FAKE_GPUS': '1'}
    return [
        ('verification fails', {'NVBW_FAKE_GPUS': '2', 'NVBW_FAKE_FAIL': 'CPU(row) -> GPU'}, [],
         'ERROR: Testcase '),
        ('device memory runs out (-b 90000 on 141 GiB)',
         dict(one, NVBW_FAKE_GPU_MEMORY_MIB='143771'),
         ['-b', '90000', '-t', 'device_local_copy', 'device_local_read_sm', '0'],
         'ERROR: Testcase device_local_copy failed: GPU 0 cannot hold'),
        ('pinning fails', dict(one, NVBW_FAKE_PIN_FAIL='1'), ['-t', '0', 'device_local_copy'],
         'ERROR: Testcase host_to_device_memcpy_ce failed: cannot pin'),
        ('peer access fails', {'NVBW_FAKE_GPUS': '8', 'NVBW_FAKE_PEER_FAIL': '1-0'},
         ['-t', '4', 'all_to_one_write_ce', '0'], 'ERROR: Testcase all_to_one_write_ce failed: '),
        ('kernel launches fail', {'NVBW_FAKE_GPUS': '2', 'NVBW_FAKE_CC': '1:80',
                                  'NVBW_FAKE_LAUNCH_FAIL': 'cudaErrorNoKernelImageForDevice'},
         ['-p', 'host_to', 'device_local'], 'ERROR: Testcase device_local_copy_sm failed: '),
        ('unknown -t tokens (upstream\'s lines: on stdout)', {'NVBW_FAKE_GPUS': '2'},
         ['-t', '0', 'no_such_testcase', 'device_local_copy', '999', '1.5', '1'], ''),
        ('a sweep with failing sizes', dict(one, NVBW_FAKE_GPU_MEMORY_MIB='3'),
         ['--sweep', '1:4', '-t', 'device_local_copy', '0'], 'NOTE: device_local_copy: no 90%'),
        ('noisy and outlier cells, 8 GPUs', {'NVBW_FAKE_GPUS': '8', 'NVBW_FAKE_LINKS': 'nvswitch',
                                             'NVBW_FAKE_JITTER': '5'}, [],
         'NOTE: host_to_device_memcpy_ce: samples vary'),
        ('run warnings', {'NVBW_FAKE_GPUS': '2', 'NVBW_FAKE_THROTTLE_S': '2.35',
                          'NVBW_FAKE_PCIE': 'run', 'NVBW_FAKE_LINKS': 'direct'}, [],
         'WARNING: GPU 0: clocks were held down'),
        ('a comparison with confirmations', {'NVBW_FAKE_GPUS': '2', 'NVBW_FAKE_SCALE': '80'},
         ['--baseline', base, '-t', '0', '1', '4'], 'Confirmation of '),
        ('expectation checks', {'NVBW_FAKE_GPUS': '2'},
         ['--expect', floors, '-t', '0', '1', 'device_local_copy'], 'BELOW '),
    ]


def check_runs(results, fake, run_binary):
    with tempfile.TemporaryDirectory(prefix='nvbw_lines_') as work:
        for name, env, args, ours in _runs(fake, work):
            for label, margs, compat in MODES:
                text = run_binary(fake, margs + args, env)
                doc = run_binary(fake, margs + args + ['-j'], env)
                problems = stdout_problems(text.stdout)
                mine = [l for l in text.stderr.split('\n') if l]
                if ours and not any(l.startswith(ours) for l in mine):
                    problems.append('no line starting %r on stderr: %r' % (ours, mine[:3]))
                if not ours and mine:
                    problems.append('lines on stderr where the run has none: %r' % mine[:3])
                if '--sweep' not in args:
                    # --baseline and --expect exit 3 by design; the JSON clients run neither.
                    plain = not any(a in args for a in ('--baseline', '--expect'))
                    problems += client_problems(text, doc, compat,
                                                _listed(run_binary, fake, margs, env), plain)
                results.report('runs | %s, %s: stdout upstream\'s, every client reads upstream\'s '
                               'figures' % (name, label), problems)


def check_mpi(results, mpi_fake, mpirun):
    """4 ranks of the MPI fake (the multinode testcases measured across processes)."""
    env = dict(os.environ, NVBANDWIDTH_DISABLE_MULTICAST='1', OMPI_MCA_rmaps_base_oversubscribe='1')
    env.pop('NVBANDWIDTH_COMPAT', None)

    def mpi(args):
        p = subprocess.run([mpirun, '--allow-run-as-root', '--oversubscribe', '-n', '4',
                            '-x', 'NVBANDWIDTH_DISABLE_MULTICAST', '-x', 'NVBW_FAKE_GPUS',
                            mpi_fake] + args, env=dict(env, NVBW_FAKE_GPUS='4'),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        return Output(p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace'),
                      p.returncode)

    for label, margs, compat in MODES:
        args = margs + ['-i', '1']
        text, doc = mpi(args), mpi(args + ['-j'])
        listed = [m.group(2) for m in re.finditer(r'(?m)^(\d+),\s+([\w_]+):',
                                                  mpi(margs + ['--list']).stdout)]
        problems = stdout_problems(text.stdout)
        if _waived_lines(text.stdout) < 2:
            problems.append('the broadcasts (multicast disabled) are not waived: %r' % text.stdout)
        problems += client_problems(text, doc, compat, listed)
        results.report('mpi | 4 ranks of the MPI fake, %s: stdout upstream\'s, every client reads '
                       'upstream\'s figures' % label, problems)


def check_lines(results, fake, catalogue_binary, run_binary, mpi_fake=None, mpirun=None):
    if not fake or not catalogue_binary:
        results.report('lines', ['needs --fake and --catalogue'])
        return
    catalogue = json.loads(subprocess.run([catalogue_binary], stdout=subprocess.PIPE,
                                          check=True).stdout)
    check_forms_selftest(results)
    check_catalogue_lines(results, catalogue)
    check_waivers(results, catalogue, fake, run_binary)
    check_runs(results, fake, run_binary)
    if mpi_fake and mpirun:
        check_mpi(results, mpi_fake, mpirun)
    else:
        results.skip('mpi', 'no --mpi-fake/--mpirun (the multinode build)')


# ---- on a real machine (check_clients.py real-lines --real-binary PATH) ----------------------

# A selection with testcases a one-GPU machine waives between others that run (0 and 1 host, 4
# and 5 device-to-device, 32 host latency, then the local ones).
WAIVED_IN_THE_MIDDLE = ['-t', '0', '4', '1', '32', '5', 'device_local_copy', 'device_local_read_sm',
                        '-i', '3']
# More than a 141 GiB GPU holds for device_local_copy's two buffers; device_local_read_sm's one
# buffer fits.
TOO_LARGE = ['-b', '90000', '-t', 'device_local_copy', 'device_local_read_sm']


def _entries(doc):
    return json.loads(doc.stdout)['nvbandwidth']['testcases']


def _real_env():
    """CHECK_CLIENTS_REAL_ENV="VAR=VALUE ...": the environment of the real runs (the tests give
    the fake its machine so; run_binary drops the fake's variables from the caller's)."""
    words = os.environ.get('CHECK_CLIENTS_REAL_ENV', '').split()
    return dict(w.split('=', 1) for w in words if '=' in w)


def check_real_waivers(results, binary, save, run_binary):
    """A real run whose selection has waived testcases between measured ones, in both
    interfaces: stdout upstream's lines, each reason on stderr, every client reads upstream's
    output of its figures."""
    for label, margs, compat in MODES:
        tag = 'waived-%s' % compat
        env = _real_env()
        # One run, its text on stdout and its report through --output: the clients' reading of
        # the text is held to upstream's rendering of that same run's figures (two runs of a real
        # GPU differ by their noise).
        with tempfile.TemporaryDirectory() as folder:
            report = os.path.join(folder, 'report.json')
            text = run_binary(binary, margs + WAIVED_IN_THE_MIDDLE + ['--output', report], env,
                              timeout=900)
            written = open(report).read() if os.path.exists(report) else ''
        doc = Output(written, '', text.status)
        compare.save_output(save, tag, text)
        compare.save_output(save, tag + '-j', doc)
        problems = stdout_problems(text.stdout)
        try:
            entries = _entries(doc)
        except (ValueError, KeyError) as e:
            results.report('real-lines | %s' % tag, ['the -j report does not read: %s' % e])
            continue
        waived = [e for e in entries if e.get('status') == 'Waived']
        measured = [e for e in entries if e.get('status') == 'Passed']
        if not waived:
            problems.append('nothing was waived: the selection is meant for a machine of one GPU '
                            '(or without peer access)')
        if not measured:
            problems.append('nothing was measured')
        if _waived_lines(text.stdout) != len(waived):
            problems.append('%d "Waived: " lines on stdout for %d waived testcases'
                            % (_waived_lines(text.stdout), len(waived)))
        problems += _waiver_problems(text.stdout, text.stderr,
                                     [(e['name'], e.get('waive_reason', '')) for e in waived],
                                     compat)
        listed = _listed(run_binary, binary, margs, env)
        problems += client_problems(text, doc, compat, listed)
        results.report('real-lines | %s: %d waived between %d measured entries; stdout upstream\'s, '
                       'every client reads upstream\'s figures' % (label, len(waived), len(measured)),
                       problems)


def check_real_allocation(results, binary, save, run_binary):
    """-b 90000 on a GPU of 141 GiB: device_local_copy fails in the user's terms, the call behind
    it only in error_detail; device_local_read_sm still runs."""
    env = _real_env()
    text = run_binary(binary, TOO_LARGE, env, timeout=900)
    doc = run_binary(binary, TOO_LARGE + ['-j'], env, timeout=900)
    verbose = run_binary(binary, TOO_LARGE[:-1] + ['-v'], env, timeout=900)
    compare.save_output(save, 'b90000', text)
    compare.save_output(save, 'b90000-j', doc)
    compare.save_output(save, 'b90000-v', verbose)
    problems = stdout_problems(text.stdout)
    if text.status != 1:
        problems.append('exit status %d, not 1 (a testcase failed)' % text.status)
    start = 'ERROR: Testcase device_local_copy failed: GPU 0 cannot hold this testcase\'s 2 ' \
            'buffers of 90000 MiB (180000 MiB in all): it has '
    line = next((l for l in text.stderr.split('\n') if l.startswith('ERROR: Testcase '
                                                                     'device_local_copy')), '')
    if not line.startswith(start):
        problems.append('the message is not in the user\'s terms: %r' % line)
    for part in ('MiB of it free', 'CUDA_ERROR_OUT_OF_MEMORY', '--bufferSize (-b)',
                 'would fit'):
        if part not in line:
            problems.append('the message lacks %r: %r' % (part, line))
    for developer in ('.cpp', '&ptr', 'cuda_raii'):
        if developer in line:
            problems.append('the message carries %r: %r' % (developer, line))
    if 'SUM device_local_read_sm ' not in text.stdout:
        problems.append('device_local_read_sm did not run after it')
    if 'Detail: cuMemAlloc(' not in verbose.stderr:
        problems.append('-v shows no Detail line: %r' % verbose.stderr[-300:])
    try:
        entries = {e['name']: e for e in _entries(doc)}
        copy = entries.get('device_local_copy', {})
        read = entries.get('device_local_read_sm', {})
        if copy.get('status') != 'ERROR' or 'ERROR: ' + copy.get('error', '') != line:
            problems.append('JSON: device_local_copy %r' % copy)
        if 'cuMemAlloc(' not in copy.get('error_detail', ''):
            problems.append('JSON: no error_detail with the call: %r' % copy)
        values = [v for row in read.get('values', []) for v in row if v]
        if read.get('status') != 'Passed' or not values:
            problems.append('JSON: device_local_read_sm %r' % read)
    except (ValueError, KeyError, AttributeError) as e:
        problems.append('the -j report does not read: %s' % e)
    results.report('real-lines | -b 90000 -t device_local_copy device_local_read_sm: %s'
                   % (line[len('ERROR: '):] or 'no ERROR line'), problems)


def check_real_lines(results, binary, save, run_binary):
    if not binary:
        results.report('real-lines', ['needs --real-binary'])
        return
    check_real_waivers(results, binary, save, run_binary)
    check_real_allocation(results, binary, save, run_binary)
