"""The figures of one run, whatever printed them: header facts, and per testcase its status and
matrices (title, cells, SUM). Built from our JSON report (the numbers), from our text output (the
upstream-shaped structures only: `Running`, title, column header, rows, SUM; every other line is
ignored), or from upstream v0.8's JSON. upstream_render.py prints them as upstream would.
"""
import re
from dataclasses import dataclass, field
from typing import List, Optional

UPSTREAM_DEFAULT_BUFFER_MIB = 512


@dataclass
class Matrix:
    key: str                      # the SUM line's key
    title: str
    cells: List[List[Optional[float]]]   # None where upstream prints N/A
    sum: float
    unit: str = 'GB/s'            # or 'ns'
    row_labels: Optional[List[str]] = None
    cv: Optional[float] = None    # the largest coefficient of variation of a cell, as a fraction

    @property
    def present(self):
        return [v for row in self.cells for v in row if v is not None]


@dataclass
class Testcase:
    name: str
    # 'Passed', 'Waived', 'ERROR' (the testcase failed), 'NotFound' (an unknown -t token; message
    # holds upstream's text), or 'Running' (cut short)
    status: str
    matrices: List[Matrix] = field(default_factory=list)
    message: str = ''


@dataclass
class Process:
    rank: int
    host: str
    device: int
    name: str
    pci: str


@dataclass
class Report:
    version: str = 'v0.8'
    git_version: str = ''
    cuda_runtime: int = 0
    cuda_driver: int = 0
    driver_version: str = ''
    hostname: str = ''
    devices: List[tuple] = field(default_factory=list)    # (name, bdf)
    processes: List[Process] = field(default_factory=list)
    mpi_version: str = ''
    buffer_size_mib: int = UPSTREAM_DEFAULT_BUFFER_MIB
    gpus_opened: bool = True
    testcases: List[Testcase] = field(default_factory=list)
    interrupted: Optional[str] = None
    error: Optional[str] = None   # a run-level error (start-up failed)
    # A fragment of a run (a golden of the body alone) has no header or no trailer.
    has_header: bool = True
    has_trailer: bool = True


_DEVICE_ENTRY = re.compile(r'^(\d+): (.*) \(([0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]+)\): \((.*)\)$')
_NOT_FOUND = re.compile(r'^Testcase (.+) not found!$|^Testcase index (.+) out of bound!$')


def _max_cv(cells):
    cvs = [c.get('cv') for row in cells or [] for c in row if isinstance(c, dict)]
    cvs = [v for v in cvs if v is not None]
    return max(cvs) if cvs else None


def from_our_json(doc):
    """The figures of one of our -j reports."""
    top = doc['nvbandwidth']
    report = Report(version=top.get('version', ''), git_version=top.get('git_version', ''),
                    cuda_runtime=top.get('CUDA Runtime Version', 0),
                    driver_version=top.get('Driver Version', ''))
    report.cuda_driver = top.get('CUDA Driver Version', report.cuda_runtime)
    report.gpus_opened = 'GPU Device list' in top
    for entry in top.get('GPU Device list', []):
        m = _DEVICE_ENTRY.match(entry)
        if not m:
            raise ValueError('unexpected GPU Device list entry %r' % entry)
        report.devices.append((m.group(2), m.group(3)))
        report.hostname = m.group(4)
    for p in top.get('processes', []):
        report.processes.append(Process(p['rank'], p['host'], p['device'], p['name'], p['pci']))
    report.mpi_version = top.get('MPI version', '')
    report.buffer_size_mib = top.get('settings', {}).get('bufferSize_MiB',
                                                          UPSTREAM_DEFAULT_BUFFER_MIB)
    report.interrupted = top.get('interrupted')
    report.error = top.get('error')
    for entry in top.get('testcases', []):
        status = entry['status']
        if status == 'Passed':
            group = entry.get('testcase', entry['name'])
            last = report.testcases[-1] if report.testcases else None
            matrix = None
            if 'values' in entry:
                matrix = Matrix(key=entry['name'], title=entry['bandwidth_description'],
                                cells=entry['values'], sum=entry['sum'],
                                unit=entry.get('unit', 'GB/s'),
                                row_labels=entry.get('row_labels'),
                                cv=_max_cv(entry.get('cells')))
            if ('testcase' in entry and last is not None and last.name == group
                    and last.status == 'Passed'
                    and all(m.key != entry['name'] for m in last.matrices)):
                last.matrices.append(matrix)
            else:
                report.testcases.append(
                    Testcase(group, 'Passed', [matrix] if matrix else []))
        elif status == 'Waived':
            report.testcases.append(Testcase(entry['name'], 'Waived',
                                             message=entry.get('waive_reason', '')))
        elif status == 'ERROR':
            message = entry.get('error', '')
            if _NOT_FOUND.match(message):
                report.testcases.append(Testcase(entry['name'], 'NotFound', message=message))
            else:
                report.testcases.append(Testcase(entry['name'], 'ERROR', message=message))
        else:
            report.testcases.append(Testcase(entry['name'], status))
    return report


def _split_stacked(entry, name):
    """Upstream stacks the read1/read2/total (write1/write2/total) rows of a bidirectional
    testcase into one matrix: split them again."""
    rows = entry['bandwidth_matrix']
    width = len(rows[0]) if rows else 0
    if not (('_bidirectional_' in name and name.startswith('device_to_device'))
            and len(rows) == 3 * width):
        return [(name, entry['bandwidth_description'], rows, entry['sum'])]
    kind = 'write' if name.endswith('write_ce') or name.endswith('write_sm') else 'read'
    total_title = entry['bandwidth_description']
    parts = []
    for i, (suffix, word) in enumerate([(kind + '1', kind.capitalize() + '1'),
                                        (kind + '2', kind.capitalize() + '2'),
                                        ('total', 'Total')]):
        block = rows[i * width:(i + 1) * width]
        title = total_title.replace('Total', word)
        total = sum(float(c) for r in block for c in r if c != 'N/A')
        parts.append(('%s_%s' % (name, suffix), title, block,
                      entry['sum'] if suffix == 'total' else total))
    return parts


def from_upstream_json(doc):
    """The figures of an upstream v0.8 -j document (cells are 6-digit strings)."""
    top = doc['nvbandwidth']
    report = Report(version=top.get('version', ''), git_version=top.get('git_version', ''),
                    cuda_runtime=top.get('CUDA Runtime Version', 0),
                    driver_version=top.get('Driver Version', ''))
    report.cuda_driver = report.cuda_runtime  # upstream prints the driver's version twice
    for entry in top.get('GPU Device list', []):
        m = _DEVICE_ENTRY.match(entry)
        report.devices.append((m.group(2), m.group(3)))
        report.hostname = m.group(4)
    if 'warning' in top and 'smaller than the default buffer size' in top['warning']:
        report.buffer_size_mib = 64
    for entry in top.get('testcases', []):
        status = entry['status']
        if status == 'Passed':
            matrices = []
            for key, title, rows, total in _split_stacked(entry, entry['name']):
                cells = [[None if c == 'N/A' else float(c) for c in r] for r in rows]
                unit = 'ns' if title.endswith('(ns)') else 'GB/s'
                matrices.append(Matrix(key, title, cells, total, unit))
            report.testcases.append(Testcase(entry['name'], 'Passed', matrices))
        else:
            report.testcases.append(Testcase(entry['name'], 'Waived' if status == 'Waived'
                                             else status))
    return report


# ---- our text ---------------------------------------------------------------------------------

_COLUMN_HEADER = re.compile(r'^ +0( +\d+)*$')
_SUM_LINE = re.compile(r'^SUM (\S+) (\S+)$')
_PERF_LINE = re.compile(r'^&&&& PERF (\S+) (\S+) [+-](?:GB/s|ns)$')
_INTERRUPTED = re.compile(r'^Interrupted by (SIG[A-Z]+): ')


def _version_number(text):
    """13000 from "13000" (v0.8) or from "13.0 (13000)" (v0.10)."""
    m = re.search(r'\((\d+)\)$', text)
    return int(m.group(1) if m else text)


def from_our_text(text):
    """The figures in one of our text outputs, read from upstream's structures only."""
    lines = text.split('\n')
    report = Report(has_header=text.startswith('nvbandwidth Version: '),
                    has_trailer='\nNOTE: The reported results may not reflect' in '\n' + text)
    i = 0
    body_start = None
    for i, line in enumerate(lines):
        if line.startswith('nvbandwidth Version: '):
            report.version = line[len('nvbandwidth Version: '):]
        elif line.startswith('Built from Git version: '):
            report.git_version = line[len('Built from Git version: '):]
        elif line.startswith('CUDA Runtime Version: '):
            report.cuda_runtime = _version_number(line.split(': ', 1)[1])
        elif line.startswith('CUDA Driver Version: ') or line.startswith(
                'CUDA Driver Version (API): '):
            report.cuda_driver = _version_number(line.split(': ', 1)[1])
        elif line.startswith('Driver Version: '):
            report.driver_version = line[len('Driver Version: '):]
        elif line.startswith('NOTE: You have chosen a buffer size that is smaller'):
            report.buffer_size_mib = 64
        elif line.startswith('Running ') or line.startswith('Waived') or line.startswith(
                'ERROR: '):
            body_start = i
            break
        elif re.match(r'^Device \d+: ', line):
            name, bdf = re.match(r'^Device \d+: (.*) \((\S+)\)$', line).groups()
            report.devices.append((name, bdf))
        elif line.startswith('MPI version: '):
            report.mpi_version = line[len('MPI version: '):]
        elif re.match(r'^Process +\d+ \(', line):
            m = re.match(r'^Process +(\d+) \((.*)\): device (\d+): (.*) \((\S+)\)$', line)
            report.processes.append(Process(int(m.group(1)), m.group(2), int(m.group(3)),
                                            m.group(4), m.group(5)))
    # The hostname: the line before the first Device line.
    for j, line in enumerate(lines[:body_start or 0]):
        if re.match(r'^Device 0: ', line) and j > 0:
            report.hostname = lines[j - 1]
            break
    if body_start is None:
        return report
    i = body_start
    current = None
    while i < len(lines):
        line = lines[i]
        if line.startswith('Running ') and line.endswith('.'):
            current = Testcase(line[len('Running '):-1], 'Passed')
            report.testcases.append(current)
        elif line.startswith('Waived:'):
            name = line[len('Waived: '):].split(':', 1)[0]
            report.testcases.append(Testcase(name, 'Waived'))
            current = None
        elif line.startswith('Waived '):  # v0.10: "Waived <key>: <reason>"
            name, _, reason = line[len('Waived '):].partition(': ')
            report.testcases.append(Testcase(name, 'Waived', message=reason))
            current = None
        elif line.startswith('ERROR: '):
            message = line[len('ERROR: '):]
            m = _NOT_FOUND.match(message)
            if m:
                report.testcases.append(Testcase(m.group(1) or m.group(2), 'NotFound',
                                                 message=message))
            elif current is not None and not current.matrices:
                current.status = 'ERROR'
                current.message = message
        elif _INTERRUPTED.match(line):
            report.interrupted = _INTERRUPTED.match(line).group(1)
            if current is not None and not current.matrices:
                current.status = 'ERROR'
        elif (current is not None and i + 1 < len(lines)
              and _COLUMN_HEADER.match(lines[i + 1])):
            i = _read_matrix(lines, i, current)
            continue
        i += 1
    return report


def _read_matrix(lines, i, testcase):
    title = lines[i]
    columns = len(lines[i + 1].split())
    j = i + 2
    cells, labels = [], []
    while j < len(lines) and lines[j].strip():
        fields = lines[j].split()
        if len(fields) != columns + 1:
            raise ValueError('row %r of %r has %d cells, not %d' %
                             (lines[j], title, len(fields) - 1, columns))
        labels.append(fields[0])
        cells.append([None if f == 'N/A' else float(f) for f in fields[1:]])
        j += 1
    # An empty line, then the SUM (or PERF) line.
    if j + 1 >= len(lines):
        raise ValueError('matrix %r has no SUM line' % title)
    m = _SUM_LINE.match(lines[j + 1]) or _PERF_LINE.match(lines[j + 1])
    if not m:
        raise ValueError('matrix %r is not followed by its SUM line: %r' % (title, lines[j + 1]))
    unit = 'ns' if title.endswith('(ns)') else 'GB/s'
    plain = all(label == str(k) for k, label in enumerate(labels))
    testcase.matrices.append(Matrix(m.group(1), title, cells, float(m.group(2)), unit,
                                    None if plain else labels))
    return j + 2
