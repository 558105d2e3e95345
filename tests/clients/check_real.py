"""The `real` section of the client suite: each client's own command line run on real binaries
(ours in both interfaces, and upstream's when given), on whatever GPUs the machine has, and read
with the client's rules.

Ours: what each client reads from our output must be what it reads from upstream's output of the
same figures. A text run's figures are read back from its own text (upstream's structures only:
titles, matrices, SUM lines), a JSON run's from its own report, and drawn again as upstream
prints them (upstream_render.py); any difference is a line of ours a client misreads.
Upstream's: each client must read it as upstream prints it (the renderer redraws it byte for
byte, and the client reads both alike); the values read are counted, which is the evidence that
the rules apply to a real run at all.

Every output is kept under --save DIR (one folder per binary and interface) for the record.
The DRA grep needs the multinode testcases (several processes): not run here.
"""
import json
import os

import client_chm as chm
import client_dcgm as dcgm
import client_nhc as nhc
import client_superbench as sb
import compare
import report_model as rm
import upstream_render as ur
from client_common import ClientError
from compare import Output

# (client label, what it reads with, command of the client).
TEXT_RUNS = [
    ('cluster-health-monitor (text)', 'chm-text', chm.text_command()),
    ('NHC check_gpu_bw', 'nhc', nhc.command()),
]


class Source:
    """One binary in one interface: `label`, how to run it, how upstream would draw its figures."""

    def __init__(self, label, binary, args, compat, ours):
        self.label, self.binary, self.args, self.compat, self.ours = (label, binary, args, compat,
                                                                      ours)


def _values_read(reading):
    """How many values a reading holds, whatever the client's structure."""
    if isinstance(reading, dict):
        if 'metrics' in reading:
            return len(reading['metrics'])
        if 'testcases' in reading:
            return sum(1 for t in reading['testcases'] for row in t.get('matrix', [])
                       for v in row if v is not None)
        return sum(len(v) if isinstance(v, list) else 1 for v in reading.values())
    if isinstance(reading, list):
        return sum(len(row) for _, rows in reading for row in rows)
    return 0


def _redraw_text(source, output):
    """Upstream's text of the figures in `output` (ours: read from our own text)."""
    return Output(ur.render_text(rm.from_our_text(output.stdout), compat=source.compat))


def _redraw_json(source, output, verbose):
    doc = json.loads(output.stdout)
    figures = rm.from_upstream_json(doc) if not source.ours else rm.from_our_json(doc)
    return Output(ur.render_json(figures, verbose=verbose))


def _text_client(results, run, source, client, name, args, context):
    output = run(source, name, args)
    if output.status not in (0, 1):
        results.report('real | %s | %s' % (source.label, client),
                       ['exit status %d: %s' % (output.status, output.stderr[-300:])])
        return
    try:
        theirs = _redraw_text(source, output)
    except (ValueError, KeyError, AttributeError) as e:
        results.report('real | %s | %s' % (source.label, client),
                       ['its text does not read as figures: %s' % e])
        return
    notes = []
    problems = compare.compare_text(client, output, theirs, context, notes)
    try:
        count = _values_read(compare.TEXT_CLIENTS[client](output, context))
        notes.append('%d values read' % count)
    except ClientError as e:
        notes.append('the client fails on it: %s' % e)
        count = None
    if count == 0:
        problems.append('the client reads no value from a real run')
    results.report('real | %s | %s: %s' % (source.label, client, ' '.join(args)), problems,
                   notes)


def _json_client(results, run, source, client, name, args, shown=None):
    output = run(source, name, args)
    label = 'real | %s | %s: %s' % (source.label, client, shown or ' '.join(args))
    try:
        theirs = _redraw_json(source, output, verbose=client == 'DCGM')
    except (ValueError, KeyError) as e:
        results.report(label, ['the report does not read: %s' % e])
        return
    notes = []
    if client == 'DCGM':
        notes = compare.dcgm_notes(output, theirs)
        problems = compare.compare_dcgm(output, theirs, notes, {})
        try:
            reading = dcgm.read(output.stdout)
            notes.append('%d testcases read, verdict: %s' % (
                len(reading['testcases']), dcgm.verdict(reading, output.status) or 'pass'))
        except ClientError as e:
            problems.append('DCGM cannot read it: %s' % e)
    else:
        problems = compare.compare_chm_json(output, theirs, notes)
        try:
            reading = chm.read_json(output.stdout)
            notes.append('%d values read' % _values_read(reading))
            if not reading:
                problems.append('the client reads no value from a real run')
        except ClientError as e:
            problems.append('the client fails on it: %s' % e)
    results.report(label, problems, notes)


def check_source(results, run, source):
    for client, name, command in TEXT_RUNS:
        _text_client(results, run, source, client, name, source.args + command, {})
    listing = run(source, 'sb-list', source.args + sb.list_command())
    try:
        names = [n for _, n in sb.read_listing(listing.stdout, listing.stderr)]
    except ClientError as e:
        results.report('real | %s | SuperBench listing' % source.label, [str(e)])
        return
    results.report('real | %s | SuperBench listing' % source.label,
                   [] if names else ['no testcase listed'], ['%d testcases' % len(names)])
    for client in ('SuperBench (newer)', 'SuperBench (older)'):
        _text_client(results, run, source, client, 'sb-run', source.args + sb.run_command(),
                     {'requested': names})
    if source.ours or '--format' in source.args:
        _json_client(results, run, source, 'cluster-health-monitor (JSON)', 'chm-json',
                     source.args + chm.json_command())
    tests = [n for n in names if not n.startswith('multinode')]
    _json_client(results, run, source, 'DCGM', 'dcgm', source.args + dcgm.command(tests),
                 ' '.join(source.args + ['-j -v -t <each of %d testcases>' % len(tests)]))


def check_real(results, binary, upstream, save, run_binary):
    """`run_binary(binary, args, env, timeout)` runs one command; outputs of one source and
    command are run once and shared by the clients that read the same command line."""
    if not binary:
        results.skip('real runs', 'no --real-binary given')
        return
    cache = {}

    def run(source, name, args):
        key = (source.label, tuple(args))
        if key not in cache:
            cache[key] = run_binary(source.binary, args, None, 900)
            compare.save_output(save and os.path.join(save, source.label), name, cache[key])
        return cache[key]

    sources = [Source('ours-v0.8', binary, [], 'v0.8', True),
               Source('ours-v0.10', binary, ['--compat', 'v0.10'], 'v0.10', True)]
    if upstream:
        sources.append(Source('upstream-v0.8', upstream, [], 'v0.8', False))
    else:
        results.skip('real runs of upstream', 'no --upstream-binary given')
    for source in sources:
        check_source(results, run, source)
