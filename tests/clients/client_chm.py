"""Azure cluster-health-monitor's GPU bandwidth check (docs/compatibility.md#k1).

Text (built on upstream v0.10.0):
    nvbandwidth -t host_to_device_memcpy_ce device_to_host_memcpy_ce [device_to_device_memcpy_read_ce] -i 10
Its later revision adds `--format json` and reads nvbandwidth.testcases[].

read_text() and read_json() return what the monitor reads: {testcase: [candidate cell values]},
in the order it meets them; the check then takes each testcase's minimum (minimum_bandwidth()).
"""
import json
import re

from client_common import ClientError, parse_float

TEXT_TESTCASES = ['host_to_device_memcpy_ce', 'device_to_host_memcpy_ce',
                  'device_to_device_memcpy_read_ce']
JSON_TESTCASES = ['host_to_device_memcpy_ce', 'device_to_host_memcpy_ce']

# Thresholds of an H100 VM size (GB/s): host testcases and device-to-device.
H100_THRESHOLDS = {'host_to_device_memcpy_ce': 48.0, 'device_to_host_memcpy_ce': 48.0,
                   'device_to_device_memcpy_read_ce': 335.0}

_BANNER = re.compile(r'^Running\s+(\S+?)\.?$')


def text_command(with_d2d=True):
    tests = TEXT_TESTCASES if with_d2d else TEXT_TESTCASES[:2]
    return ['-t'] + tests + ['-i', '10']


def json_command():
    return ['-t'] + JSON_TESTCASES + ['-i', '10', '--format', 'json']


def read_text(stdout):
    """{testcase: [values]}: every field after the first of a matrix row that parses as a float
    > 0, on every line after a banner that is not skipped."""
    readings = {}
    current = None
    skip_next = False
    for raw in stdout.splitlines():
        line = raw.strip()
        if not line:
            continue
        banner = _BANNER.match(line)
        if banner:
            current = banner.group(1)
            readings.setdefault(current, [])
            skip_next = True  # the column header
            continue
        if current is None:
            continue  # before the first banner
        if 'memcpy' in line or line.startswith('SUM') or line.startswith(
                'COEFFICIENT_OF_VARIATION'):
            continue
        if skip_next:
            skip_next = False
            continue
        for field in line.split()[1:]:
            value = parse_float(field)
            if value is not None and value > 0:
                readings[current].append(value)
    return readings


def read_json(stdout):
    """{name: [values]} of the Passed testcases of the --format json document; string cells that
    do not parse as numbers ("N/A") are dropped."""
    # A Go-style decode: invalid JSON or a key of the wrong type fails; missing keys are empty.
    try:
        doc = json.loads(stdout)
    except ValueError as e:
        raise ClientError('cannot read the JSON document: %s' % e) from e
    top = doc.get('nvbandwidth') if isinstance(doc, dict) else None
    if top is not None and not isinstance(top, dict):
        raise ClientError('"nvbandwidth" is not an object')
    testcases = (top or {}).get('testcases') or []
    if not isinstance(testcases, list):
        raise ClientError('"testcases" is not an array')
    readings = {}
    for entry in testcases:
        if not isinstance(entry, dict) or entry.get('status') != 'Passed':
            continue
        values = readings.setdefault(entry.get('name'), [])
        for row in entry.get('bandwidth_matrix') or []:
            for cell in row:
                value = parse_float(cell) if isinstance(cell, str) else None
                if value is not None:
                    values.append(value)
    return readings


def minimum_bandwidth(readings):
    """The result of each testcase: the minimum of its values (None when it has none)."""
    return {name: (min(values) if values else None) for name, values in readings.items()}


def failing_testcases(readings, thresholds=None):
    """Testcases whose minimum is below the VM size's threshold: the node fails its check."""
    thresholds = thresholds or H100_THRESHOLDS
    low = {}
    for name, minimum in minimum_bandwidth(readings).items():
        if name in thresholds and minimum is not None and minimum < thresholds[name]:
            low[name] = minimum
    return low
