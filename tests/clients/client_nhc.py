"""Azure HPC node health checks, check_gpu_bw PCIE P2P (docs/compatibility.md#k2).

    nvbandwidth -t host_to_device_memcpy_ce device_to_host_memcpy_ce [device_to_device_memcpy_read_ce]

read() returns what the shell check reads: [(testcase, [[field, ...] per row])], one entry per
block of stdout that starts at a line beginning `Running`. check() is its verdict.
"""
import re

TESTCASES = ['host_to_device_memcpy_ce', 'device_to_host_memcpy_ce',
             'device_to_device_memcpy_read_ce']
# Expected GB/s in its configurations, H100/H200.
H100_EXPECTED = {'host_to_device_memcpy_ce': 48.0, 'device_to_host_memcpy_ce': 48.0,
                 'device_to_device_memcpy_read_ce': 335.0}

# What `bc` takes for a number (no exponent).
_BC_NUMBER = re.compile(r'[+-]?(?:\d+\.?\d*|\.\d+)\Z')


def command(with_d2d=True):
    return ['-t'] + (TESTCASES if with_d2d else TESTCASES[:2])


def read(stdout):
    blocks = []
    for line in stdout.split('\n'):
        if line.startswith('Running'):
            name = line[len('Running'):].replace('.', '').lstrip(' ')
            blocks.append((name, [line]))
        elif blocks:
            blocks[-1][1].append(line)
    readings = []
    for name, lines in blocks:
        kept = [l for l in lines if 'memcpy' not in l][1:]  # then the first remaining line
        rows = []
        for line in kept:
            cells = [f for f in line.split()[1:] if 'N/A' not in f]  # fields 2..NF
            if cells:
                rows.append(cells)
        readings.append((name, rows))
    return readings


def check(readings, expected=None):
    """The failures the check reports: a field that is not a number, or a value below the
    expected one. An empty list: the node passes."""
    expected = expected or H100_EXPECTED
    failures = []
    for name, rows in readings:
        for row in rows:
            for field in row:
                if not _BC_NUMBER.match(field):
                    failures.append('%s: %r is not a number' % (name, field))
                elif name in expected and float(field) < expected[name]:
                    failures.append('%s: %s below %s' % (name, field, expected[name]))
    return failures
