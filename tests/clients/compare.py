"""Reading one output of ours and upstream's output of the same figures with a client's rules, and
saying how they differ: extra values, lost values, other names, a failed parse. For text clients,
the lines of ours that the client reads differently are named (blame()).
"""
import difflib
import os
from dataclasses import dataclass

import client_chm as chm
import client_dcgm as dcgm
import client_dra as dra
import client_nhc as nhc
import client_superbench as sb
from client_common import ClientError

# Testcases of upstream v0.8 whose own titles SuperBench's newer rules cannot type (neither
# `memcpy` nor `memory latency`): their `_sum_None` metrics are upstream's, not ours.
SUPERBENCH_UPSTREAM_UNTYPED = {
    'device_to_device_latency_sm', 'multinode_device_to_device_broadcast_one_to_all_sm',
    'multinode_device_to_device_broadcast_all_to_all_sm', 'multinode_bisect_write_ce'}


@dataclass
class Output:
    stdout: str
    stderr: str = ''
    status: int = 0


def save_output(folder, name, output):
    """Keeps `output` as folder/name.out, .err and .rc (nothing without a folder)."""
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    for suffix, text in (('out', output.stdout), ('err', output.stderr),
                         ('rc', '%d\n' % output.status)):
        with open(os.path.join(folder, '%s.%s' % (name, suffix)), 'w', encoding='utf-8') as f:
            f.write(text)


def _attempt(read, output, context):
    try:
        return True, read(output, context)
    except ClientError as e:
        return False, str(e)


# Text clients: name -> read(Output, context) -> reading
TEXT_CLIENTS = {
    'cluster-health-monitor (text)': lambda o, c: chm.read_text(o.stdout),
    'NHC check_gpu_bw': lambda o, c: nhc.read(o.stdout),
    'SuperBench (newer)': lambda o, c: sb.read(o.stdout, c.get('requested', [])),
    'SuperBench (older)': lambda o, c: sb.read_old(o.stdout),
    'DRA multinode grep': lambda o, c: dra.read(o.stdout),
}


# Clients that run fixed testcases: their readings cut down to those (context['only']), for
# outputs that hold more testcases than the client's command line would run (the goldens).
RESTRICTABLE = {
    'cluster-health-monitor (text)': lambda r, only: {k: v for k, v in r.items() if k in only},
    'NHC check_gpu_bw': lambda r, only: [(n, rows) for n, rows in r if n in only],
}


# Upstream's trailer NOTE, as NHC reads it: two rows of non-numbers in the last block (its known
# failure on upstream's own output, docs/compatibility.md#k2): both sides fail on the trailer
# alike, and its rows are not compared.
_TRAILER_ROWS = [
    'NOTE: The reported results may not reflect the full capabilities of the platform.'.split()[1:],
    'Performance can vary with software drivers, hardware clocks, and system topology.'.split()[1:]]


def _without_trailer_rows(reading):
    return [(name, [row for row in rows if row not in _TRAILER_ROWS]) for name, rows in reading]


def _dict_diff(ours, theirs, what='value'):
    lines = []
    for key in ours:
        if key not in theirs:
            lines.append('extra %s %r = %r' % (what, key, ours[key]))
        elif ours[key] != theirs[key]:
            lines.append('%r: ours %r, upstream %r' % (key, ours[key], theirs[key]))
    for key in theirs:
        if key not in ours:
            lines.append('lost %s %r = %r' % (what, key, theirs[key]))
    return lines


def describe_difference(ours, theirs):
    """Lines saying how two readings differ."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        if set(ours) == {'metrics', 'unsupported', 'waived'} == set(theirs):
            lines = _dict_diff(ours['metrics'], theirs['metrics'], 'metric')
            for key in ('unsupported', 'waived'):
                if ours[key] != theirs[key]:
                    lines.append('%s: ours %r, upstream %r' % (key, ours[key], theirs[key]))
            return lines
        return _dict_diff(ours, theirs)
    a = [repr(x) for x in ours] if isinstance(ours, list) else [repr(ours)]
    b = [repr(x) for x in theirs] if isinstance(theirs, list) else [repr(theirs)]
    diff = difflib.unified_diff(b, a, 'upstream', 'ours', lineterm='', n=0)
    return [('extra ' if l[0] == '+' else 'lost ') + l[1:] for l in list(diff)[2:]
            if not l.startswith('@@')]


def _changed_runs(ours, theirs):
    """(j1, j2, upstream's lines there) for each run of lines of `ours` that upstream's output
    does not have there: inserted (upstream has nothing) or replaced (upstream has other lines)."""
    a, b = theirs.split('\n'), ours.split('\n')
    return [(j1, j2, a[i1:i2]) for tag, i1, i2, j1, j2 in
            difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if tag in ('insert', 'replace')]


def blame(read, ours, theirs, context):
    """Our lines that change what the client reads. Each run of lines that upstream does not
    print is removed (or, where upstream prints other lines there, replaced by upstream's) and
    the output read again; in a run that matters, each line of it in turn."""
    baseline = _attempt(read, ours, context)
    lines = ours.stdout.split('\n')

    def changes(j1, j2, instead=()):
        edited = Output('\n'.join(lines[:j1] + list(instead) + lines[j2:]), ours.stderr,
                        ours.status)
        return _attempt(read, edited, context) != baseline

    guilty = []
    for j1, j2, upstream in _changed_runs(ours.stdout, theirs.stdout):
        if changes(j1, j2):
            single = [lines[k] for k in range(j1, j2) if j2 - j1 == 1 or changes(k, k + 1)]
            guilty.extend(single or ['%s (with the %d lines after it)' % (lines[j1], j2 - j1 - 1)])
        elif upstream and changes(j1, j2, upstream):
            guilty.append('%s (where upstream prints %s)' % (
                ' / '.join(repr(l) for l in lines[j1:j2]), ' / '.join(repr(l) for l in upstream)))
    return guilty


def _quoted(line):
    return line if ' (where upstream prints ' in line else repr(line)


def superbench_unclean(reading, stdout):
    """Metrics of ours that SuperBench cannot type (`_sum_None`) and upstream would not give."""
    problems = []
    for name in reading['metrics']:
        if name.endswith('_None') or '_None' in name:
            testcase = name.split('_sum_')[0] if '_sum_' in name else name
            base = testcase
            for suffix in ('_read1', '_read2', '_write1', '_write2', '_total'):
                if base.endswith(suffix):
                    base = base[:-len(suffix)]
            if base not in SUPERBENCH_UPSTREAM_UNTYPED:
                line = next((l for l in stdout.split('\n') if l.startswith('SUM %s ' % testcase)),
                            '')
                problems.append('metric %r (from our line %r): the matrix title starts with '
                                'neither "memcpy" nor "memory latency"' % (name, line))
    return problems


def compare_text(client, ours, theirs, context=None, notes=None):
    """Problems (strings) of `client` reading `ours` where upstream's `theirs` has the same
    figures; [] when it reads both alike (and ours cleanly). Where the client cannot read
    upstream's own output there is nothing to match: that goes to `notes`."""
    context = context or {}
    read = TEXT_CLIENTS[client]
    ok_ours, r_ours = _attempt(read, ours, context)
    ok_theirs, r_theirs = _attempt(read, theirs, context)
    problems = []
    if not ok_ours and not ok_theirs:
        pass  # the client fails on upstream's output as well
    elif not ok_ours:
        problems.append('fails on ours (%s) but reads upstream\'s' % r_ours)
    elif not ok_theirs:
        if notes is not None:
            notes.append('reads ours, fails on upstream\'s own output (%s)' % r_theirs)
    elif r_ours != r_theirs:
        only = context.get('only')
        if only is not None and client in RESTRICTABLE:
            a, b = RESTRICTABLE[client](r_ours, only), RESTRICTABLE[client](r_theirs, only)
            if notes is not None and (a, b) != (r_ours, r_theirs):
                notes.extend('outside this client\'s testcases: ' + l
                             for l in describe_difference(r_ours, r_theirs))
            r_ours, r_theirs = a, b
        if r_ours != r_theirs and client == 'NHC check_gpu_bw':
            a, b = _without_trailer_rows(r_ours), _without_trailer_rows(r_theirs)
            if a == b and notes is not None:
                notes.append('expected: NHC reads upstream\'s trailer NOTE as rows on both sides '
                             '(docs/compatibility.md#k2), other trailer lines of it here: not '
                             'compared')
            r_ours, r_theirs = a, b
        if r_ours != r_theirs:
            problems.extend(describe_difference(r_ours, r_theirs))
    differs = bool(problems)
    if ok_ours and client == 'SuperBench (newer)':
        problems.extend(superbench_unclean(r_ours, ours.stdout))
    if differs:
        guilty = blame(read, ours, theirs, context)
        problems.extend('our line that changes the reading: %s' % _quoted(line)
                        for line in guilty[:10])
        if len(guilty) > 10:
            problems.append('... and %d more of our lines' % (len(guilty) - 10))
    return problems


def compare_chm_json(ours, theirs, notes=None, only=None):
    """As compare_text(); `only`: the testcases that count (the goldens hold more)."""
    ok_ours, r_ours = _attempt(lambda o, c: chm.read_json(o.stdout), ours, {})
    ok_theirs, r_theirs = _attempt(lambda o, c: chm.read_json(o.stdout), theirs, {})
    if ok_ours and ok_theirs and only is not None and r_ours != r_theirs:
        if notes is not None:
            notes.extend('outside this client\'s testcases: ' + l
                         for l in describe_difference(r_ours, r_theirs))
        r_ours = {k: v for k, v in r_ours.items() if k in only}
        r_theirs = {k: v for k, v in r_theirs.items() if k in only}
    if not ok_ours and not ok_theirs:
        return []
    if not ok_ours:
        return ['fails on ours (%s) but reads upstream\'s' % r_ours]
    if not ok_theirs:
        if notes is not None:
            notes.append('reads ours, fails on upstream\'s own output (%s)' % r_theirs)
        return []
    return describe_difference(r_ours, r_theirs) if r_ours != r_theirs else []


def _dcgm_entries(testcases):
    return ['%s [%s]' % (t['name'], t['status']) for t in testcases]


# ---- DCGM: the project's documented JSON decisions, as named expectations -----------------------

# docs/compatibility.md: C8 (verbose MIN/MAX/AVG over present cells only) and C9 (one JSON entry
# per matrix). They are decisions, not misreadings: where DCGM reads ours differently from
# upstream's, the difference must be exactly what the decision says, and nothing else.
DOCUMENTED = {
    'C8': 'docs/compatibility.md#c8: -v min/max/average over the present cells (upstream: min '
          'counts N/A as 0)',
    'C9': 'docs/compatibility.md#c9: a bidirectional testcase is three entries '
          '<key>_read1|_write1, _read2|_write2, _total (upstream: one entry of stacked rows)',
}
_PARTS = (('_read1', '_read2', '_total'), ('_write1', '_write2', '_total'))


def _close(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-9)


def _present(rows):
    return [float(c) for row in rows for c in row if c != 'N/A']


def _c8_expected(mine, theirs, rows):
    """Problems unless ours' min/max/average are C8's (over the present cells of `rows`, our
    6-digit strings, hence the tolerance) where they differ from upstream's. `rows`: the matrix
    the statistics are of."""
    present = _present(rows)
    problems = []
    for key in ('min', 'max', 'average'):
        if mine.get(key) == theirs.get(key):
            continue
        if not present:
            if key in mine:
                problems.append('%s: %s of a matrix without a present cell' % (mine['name'], key))
            continue
        want = {'min': min(present), 'max': max(present),
                'average': sum(present) / len(present)}[key]
        if key not in mine or not _close(mine[key], want):
            problems.append('%s: %s %r is not C8\'s %r over the present cells'
                            % (mine['name'], key, mine.get(key), want))
    return problems


def _without_statistics(entry):
    return {k: v for k, v in entry.items() if k not in ('min', 'max', 'average')}


def documented_dcgm(ours, theirs):
    """Upstream's DCGM reading with C8 and C9 applied where ours shows them, after checking that
    ours is exactly what they document: (theirs as ours should read, {'C8': n, 'C9': n},
    problems)."""
    applied = {'C8': 0, 'C9': 0}
    problems = []
    by_name = {t['name']: t for t in ours['testcases']}
    adjusted = []
    for t in theirs['testcases']:
        parts = next(([by_name.get(t['name'] + p) for p in names] for names in _PARTS
                      if t['name'] not in by_name and all(t['name'] + p in by_name
                                                          for p in names)), None)
        if parts is None:
            mine = by_name.get(t['name'])
            if (mine is not None and mine != t and 'bandwidth_matrix' in mine
                    and _without_statistics(mine) == _without_statistics(t)):
                found = _c8_expected(mine, t, mine['bandwidth_matrix'])
                problems.extend(found)
                if not found:
                    applied['C8'] += 1
                    adjusted.append(mine)
                    continue
            adjusted.append(t)
            continue
        total = parts[-1]
        stacked = [row for p in parts for row in p.get('bandwidth_matrix', [])]
        same = (all(p['status'] == t['status'] for p in parts)
                and stacked == t.get('bandwidth_matrix')
                and total.get('sum') == t.get('sum')
                and total.get('bandwidth_description') == t.get('bandwidth_description'))
        if not same:
            problems.append('%s: its three entries are not upstream\'s stacked entry split '
                            '(C9): statuses, rows, the total\'s sum and title must match'
                            % t['name'])
            adjusted.append(t)
            continue
        applied['C9'] += 1
        for p in parts:
            # upstream's statistics are the total's; the parts' are over their own matrices.
            found = _c8_expected(p, t if p is total else p, p['bandwidth_matrix'])
            problems.extend(found)
            if p is total and any(p.get(k) != t.get(k) for k in ('min', 'max', 'average')):
                applied['C8'] += not found
        adjusted.extend(parts)
    return dict(theirs, testcases=adjusted), applied, problems


def compare_dcgm(ours, theirs, notes=None, applied=None):
    """Both documents read: the same verdict, testcases and values, but for the documented
    decisions C8 and C9 (documented_dcgm(): checked to be exactly what they say, counted in
    `applied` and named in `notes`). Ours does not read: a failure unless upstream's does not
    either. Only upstream's does not read: a note. The `warning` and `error` texts are notes too
    (DCGM requires them to be strings, see dcgm_notes())."""
    ok_ours, r_ours = _attempt(lambda o, c: dcgm.read(o.stdout), ours, {})
    ok_theirs, r_theirs = _attempt(lambda o, c: dcgm.read(o.stdout), theirs, {})
    if not ok_ours:
        return [] if not ok_theirs else ['fails on ours (%s) but reads upstream\'s' % r_ours]
    if not ok_theirs:
        if notes is not None:
            notes.append('reads ours, fails on upstream\'s own output (%s)' % r_theirs)
        return []
    r_theirs, seen, problems = documented_dcgm(r_ours, r_theirs)
    for key, count in seen.items():
        if applied is not None:
            applied[key] = applied.get(key, 0) + count
        if count and notes is not None:
            notes.append('expected, documented %s in %d entr%s: %s' % (
                key, count, 'y' if count == 1 else 'ies', DOCUMENTED[key]))
    why_ours = dcgm.verdict(r_ours, ours.status)
    why_theirs = dcgm.verdict(r_theirs, theirs.status)
    if bool(why_ours) != bool(why_theirs):
        problems.append('verdict: ours %s %r, upstream %s %r' % (
            'fails' if why_ours else 'passes', why_ours,
            'fails' if why_theirs else 'passes', why_theirs))
    if r_ours['header'] != r_theirs['header']:
        problems.extend(_dict_diff(r_ours['header'], r_theirs['header'], 'header key'))
    names_ours = _dcgm_entries(r_ours['testcases'])
    names_theirs = _dcgm_entries(r_theirs['testcases'])
    if names_ours != names_theirs:
        problems.extend('testcases: ' + l for l in describe_difference(names_ours, names_theirs))
    ours_by_name = {}
    for t in r_ours['testcases']:
        ours_by_name.setdefault(t['name'], t)
    for t in r_theirs['testcases']:
        mine = ours_by_name.get(t['name'])
        if mine is not None and mine != t:
            problems.extend('%s: %s' % (t['name'], l) for l in _dict_diff(mine, t, 'key'))
    return problems


def dcgm_notes(ours, theirs):
    ok_ours, r_ours = _attempt(lambda o, c: dcgm.read(o.stdout), ours, {})
    ok_theirs, r_theirs = _attempt(lambda o, c: dcgm.read(o.stdout), theirs, {})
    if not (ok_ours and ok_theirs):
        return []
    return ['%s: ours %r, upstream %r' % (key, r_ours[key], r_theirs[key])
            for key in ('warning', 'error') if r_ours[key] != r_theirs[key]]
