"""SuperBench's nvbandwidth micro-benchmark (docs/compatibility.md#k3), both generations.

Newer: `nvbandwidth --list` first (names by `(\\d+),\\s+([\\w_]+):`; the listing fails if anything
was written to stderr), then
    nvbandwidth --bufferSize 64 [--testcase ...] --testSamples 3
read() returns its metrics {name: value}, the testcases it marks unsupported and the ones it
counts as waived. read_old() is the older generation: host CE matrices only, every cell float()ed.

Where docs/compatibility.md#k3 leaves a detail open, this module decides it one way, the same for every input:
- the row and column kinds are the 3 characters before `(row)` / `(column)`, lowercased, or ""
  when the title has no such marker (device_local_copy's title has no `(row)`);
- a digit line is a header or a row only while a matrix is open (a title starting `memcpy` or
  `memory latency` was seen since the last SUM); other digit lines are ignored;
- the SUM metric is named after the SUM line's key (`SUM (\\S+) ...`) and the matrix type, which is
  None when no recognised title opened the matrix: `<key>_sum_None`;
- the SUM state reset closes the matrix and forgets its type; the testcase name stays;
- the older generation reads a matrix's rows up to the first empty line after its header.
"""
import re

from client_common import ClientError

_LISTED = re.compile(r'(\d+),\s+([\w_]+):')
_UNSUPPORTED = re.compile(r'ERROR: Testcase (\S+) not found!')
_RUNNING = re.compile(r'^Running\s+(.+)$')
_SUM = re.compile(r'SUM (\S+) (\d+\.\d+)')


def list_command():
    return ['--list']


def run_command(testcases=None):
    command = ['--bufferSize', '64']
    if testcases:
        command += ['--testcase'] + list(testcases)
    return command + ['--testSamples', '3']


def read_listing(stdout, stderr):
    """[(index, name)] of the listing; ClientError when anything was written to stderr."""
    if stderr:
        raise ClientError('the listing wrote to stderr: %r' % stderr[:200])
    return [(int(i), name) for i, name in _LISTED.findall(stdout)]


def _kind(title, marker):
    at = title.find(marker)
    return title[at - 3:at].lower() if at >= 3 else ''


def read(stdout, requested):
    """{'metrics': {name: value}, 'unsupported': [...], 'waived': [...]} of one run whose
    requested testcases were `requested` (names)."""
    metrics = {}
    unsupported = []
    seen = []
    test = None
    kind = None          # 'bw', 'lat' or None
    matrix_open = False
    columns = None       # the column header's fields, once read
    row_kind = col_kind = ''
    for raw in stdout.splitlines():
        line = raw.strip()
        found = _UNSUPPORTED.search(line)
        if found:
            unsupported.append(found.group(1))
            continue
        running = _RUNNING.match(line)
        if running:
            test = running.group(1).lower()[:-1]
            seen.append(test)
            continue
        if line.startswith('memcpy') or line.startswith('memory latency'):
            kind = 'bw' if 'bandwidth' in line else 'lat'
            row_kind, col_kind = _kind(line, '(row)'), _kind(line, '(column)')
            matrix_open = True
            columns = None
            continue
        if matrix_open and line[:1].isdigit():
            fields = line.split()
            if columns is None:
                columns = fields
                continue
            for j, cell in zip(columns, fields[1:]):
                if cell == 'N/A':
                    continue
                try:
                    value = float(cell)
                except ValueError as e:
                    raise ClientError('cell %r of %s: %s' % (cell, test, e)) from e
                metrics['%s_%s%s_%s%s_%s' % (test, row_kind, fields[0], col_kind, j, kind)] = value
            continue
        total = _SUM.search(line)
        if total:
            metrics['%s_sum_%s' % (total.group(1), kind)] = float(total.group(2))
            kind = None
            matrix_open = False
            columns = None
    waived = [name for name in requested if name not in seen and name not in unsupported]
    return {'metrics': metrics, 'unsupported': unsupported, 'waived': waived}


def read_old(stdout):
    """The older generation: {name: value} of the cells of matrices titled `memcpy CE CPU(row)`;
    every cell goes through float(), so one `N/A` aborts the whole result (ClientError)."""
    metrics = {}
    test = None
    state = None  # None, 'header' or 'rows'
    columns = []
    for raw in stdout.splitlines():
        line = raw.strip()
        running = _RUNNING.match(line)
        if running:
            test = running.group(1).lower()[:-1]
            state = None
            continue
        if line.startswith('memcpy CE CPU(row)'):
            state = 'header'
            continue
        if state == 'header':
            columns = line.split()
            state = 'rows'
            continue
        if state == 'rows':
            if not line:
                state = None
                continue
            fields = line.split()
            for j, cell in zip(columns, fields[1:]):
                try:
                    metrics['%s_cpu%s_gpu%s' % (test, fields[0], j)] = float(cell)
                except ValueError as e:
                    raise ClientError('cell %r of %s: %s' % (cell, test, e)) from e
    return metrics
