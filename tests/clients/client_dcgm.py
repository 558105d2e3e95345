"""DCGM diagnostic's nvbandwidth plugin (docs/compatibility.md#k4).

    nvbandwidth -j -v -t <name> [-t <name> ...]      (CUDA_VISIBLE_DEVICES set to GPU UUIDs)

read() returns what the plugin reads, or raises ClientError when it cannot read a document (no
`{` / `}` lines, invalid JSON, a required key missing or of the wrong type, an unknown status).
verdict() says whether the diagnostic passes: a non-zero exit or a testcase with status error
fails it.
"""
import json
import numbers

from client_common import ClientError, parse_float

STATUSES = ('passed', 'waived', 'error', 'not found')


def command(testcases):
    command = ['-j', '-v']
    for name in testcases:
        command += ['-t', name]
    return command


def _only(line, brace):
    return line.strip('\t') == brace


def extract_document(stdout):
    """From the first line that is only `{` to the last line that is only `}` (tabs allowed)."""
    lines = stdout.split('\n')
    # The first such line searched from the front, the last from the back: the same lines as
    # listing all of them, without testing every line of a long document twice.
    start = next((i for i, line in enumerate(lines) if _only(line, '{')), None)
    end = next((i for i in range(len(lines) - 1, -1, -1) if _only(lines[i], '}')), None)
    if start is None or end is None or end < start:
        raise ClientError('no document: no line holding only "{" followed by one holding only "}"')
    return '\n'.join(lines[start:end + 1])


def _number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _require(condition, what):
    if not condition:
        raise ClientError(what)


def _matrix(entry, name):
    matrix = entry['bandwidth_matrix']
    _require(isinstance(matrix, list) and matrix, '%s: bandwidth_matrix is not a non-empty array'
             % name)
    rows = []
    for row in matrix:
        _require(isinstance(row, list) and row, '%s: a bandwidth_matrix row is empty' % name)
        for cell in row:
            _require(isinstance(cell, str) and (cell == 'N/A' or parse_float(cell) is not None),
                     '%s: cell %r is neither "N/A" nor a number' % (name, cell))
        rows.append(list(row))
    return rows


def _testcase(entry):
    _require(isinstance(entry, dict), 'a testcase is not an object')
    name = entry.get('name')
    _require(isinstance(name, str), 'a testcase has no string name')
    status = entry.get('status')
    _require(isinstance(status, str) and status.lower() in STATUSES,
             '%s: status %r is not one of %s' % (name, status, ', '.join(STATUSES)))
    read = {'name': name, 'status': status.lower()}
    if 'bandwidth_description' in entry:
        _require(isinstance(entry['bandwidth_description'], str),
                 '%s: bandwidth_description is not a string' % name)
        read['bandwidth_description'] = entry['bandwidth_description']
    for key in ('sum', 'min', 'max', 'average'):
        if key in entry:
            _require(_number(entry[key]), '%s: %s is not a number' % (name, key))
            read[key] = entry[key]
    if 'bandwidth_matrix' in entry:
        read['bandwidth_matrix'] = _matrix(entry, name)
    return read


def read(stdout):
    """{'header': {...}, 'error': str|None, 'warning': str|None, 'testcases': [...]}"""
    try:
        doc = json.loads(extract_document(stdout))
    except ValueError as e:
        raise ClientError('unparsable document: %s' % e) from e
    _require(isinstance(doc, dict) and isinstance(doc.get('nvbandwidth'), dict),
             'no "nvbandwidth" object')
    top = doc['nvbandwidth']
    runtime = top.get('CUDA Runtime Version')
    _require(isinstance(runtime, int) and not isinstance(runtime, bool),
             '"CUDA Runtime Version" is not an integer')
    _require(isinstance(top.get('Driver Version'), str), '"Driver Version" is not a string')
    _require(isinstance(top.get('git_version'), str), '"git_version" is not a string')
    _require(isinstance(top.get('testcases'), list), '"testcases" is not an array')
    for key in ('error', 'warning'):
        if key in top:
            _require(isinstance(top[key], str), '"%s" is not a string' % key)
    return {'header': {'CUDA Runtime Version': runtime, 'Driver Version': top['Driver Version'],
                       'git_version': top['git_version']},
            'error': top.get('error'), 'warning': top.get('warning'),
            'testcases': [_testcase(entry) for entry in top['testcases']]}


def verdict(reading, exit_status):
    """The reasons the diagnostic fails; empty when it passes."""
    reasons = []
    if exit_status != 0:
        reasons.append('exit status %d' % exit_status)
    for testcase in reading['testcases']:
        if testcase['status'] == 'error':
            reasons.append('%s: status error' % testcase['name'])
    return reasons
