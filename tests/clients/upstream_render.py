"""Upstream nvbandwidth's output of given figures (report_model.Report): v0.8's text and JSON
exactly as docs/compatibility.md (U5, U6) describes them, and v0.10's text as
docs/compatibility.md#v010 shows it. Nothing of ours appears here, so that where a client reads
our output differently from this, the difference comes from a line we add.

Where upstream stops (a failed testcase, a signal), the rendering goes on as if it had not, so
that the figures after it compare: a failed testcase is its `Running` line alone in text and an
entry with status "ERROR" in JSON; an interrupted run has no trailer.
"""
import math

SMALL_BUFFER_NOTE_V08 = (
    'NOTE: You have chosen a buffer size that is smaller than the default buffer size. It is '
    'suggested to use the default buffer size (64MB) to achieve maximal peak bandwidth.')
TRAILER = ('NOTE: The reported results may not reflect the full capabilities of the platform.\n'
           'Performance can vary with software drivers, hardware clocks, and system topology.\n\n')
CELL_WIDTH = 10


def fixed2(value):
    return '%.2f' % value


def _grid(matrix):
    labels = matrix.row_labels or [str(r) for r in range(len(matrix.cells))]
    width = max([2] + [len(label) for label in labels])
    columns = len(matrix.cells[0]) if matrix.cells else 0
    text = ' ' * width + ''.join(str(c).rjust(CELL_WIDTH) for c in range(columns)) + '\n'
    for label, row in zip(labels, matrix.cells):
        text += label.rjust(width) + ''.join(
            ('N/A' if v is None else fixed2(v)).rjust(CELL_WIDTH) for v in row) + '\n'
    return text


def _sum_line(matrix, perf):
    if not perf:
        return 'SUM %s %s\n' % (matrix.key, fixed2(matrix.sum))
    sign, unit = ('-', 'ns') if matrix.unit == 'ns' else ('+', 'GB/s')
    return '&&&& PERF %s %s %s%s\n' % (matrix.key, fixed2(matrix.sum), sign, unit)


def _system_block_v08(report):
    text = ('CUDA Runtime Version: %d\nCUDA Driver Version: %d\nDriver Version: %s\n\n'
            % (report.cuda_runtime, report.cuda_driver, report.driver_version))
    if report.processes:
        width = len(str(len(report.processes) - 1))
        for p in report.processes:
            text += 'Process %s (%s): device %d: %s (%s)\n' % (
                str(p.rank).rjust(width), p.host, p.device, p.name, p.pci)
        return text + '\n'
    text += report.hostname + '\n'
    for i, (name, bdf) in enumerate(report.devices):
        text += 'Device %d: %s (%s)\n' % (i, name, bdf)
    return text + '\n'


def _cuda_version_v010(number):
    return '%d.%d (%d)' % (number // 1000, number % 1000 // 10, number)


def _system_block_v010(report):
    return ('CUDA Runtime Version: %s\nCUDA Driver Version (API): %s\nDriver Version: %s\n\n'
            % (_cuda_version_v010(report.cuda_runtime), _cuda_version_v010(report.cuda_driver),
               report.driver_version))


def _cv_line(testcase, matrix):
    """v0.10: after the SUM of every bandwidth matrix; once per bidirectional testcase, after the
    total; none for latency. The value (no client reads it) is the largest cell CV."""
    if matrix.unit == 'ns':
        return ''
    if len(testcase.matrices) > 1 and matrix is not testcase.matrices[-1]:
        return ''
    return 'COEFFICIENT_OF_VARIATION %s %s\n' % (testcase.name, fixed2(matrix.cv or 0.0))


def reference_status(report):
    """The exit status this project gives a run of these figures (upstream's would have stopped):
    130 interrupted, 1 with a failed or unfinished testcase, else 0."""
    if report.interrupted:
        return 130
    if any(t.status in ('ERROR', 'Running') for t in report.testcases):
        return 1
    return 0


def reads_as_number(token):
    """Whether a whitespace-separated token reads as a number to the text clients (Python's
    float(), which the cluster-health-monitor uses)."""
    try:
        float(token)
        return True
    except ValueError:
        return False


def without_number_tokens(text):
    """`text` with every token that reads as a number quoted, as a v0.10 waiver reason is printed:
    no client may take a word of the reason for a value."""
    return ' '.join("'%s'" % t if reads_as_number(t) else t for t in text.split(' '))


def render_text(report, compat='v0.8', perf=False):
    """Upstream's console output of `report` (compat 'v0.8' or 'v0.10')."""
    text = ''
    if report.has_header:
        text = 'nvbandwidth Version: %s\nBuilt from Git version: %s\n\n' % (
            report.version, report.git_version)
        if report.mpi_version:
            text += 'MPI version: %s\n' % report.mpi_version
        if report.buffer_size_mib < 512:
            text += SMALL_BUFFER_NOTE_V08 + '\n'
        if not report.gpus_opened:
            return text
        text += _system_block_v010(report) if compat == 'v0.10' else _system_block_v08(report)
    for testcase in report.testcases:
        if testcase.status == 'Waived':
            # v0.10 names the testcase and gives its reason (docs/compatibility.md#v010).
            text += ('Waived %s: %s\n' % (testcase.name, without_number_tokens(testcase.message))
                     if compat == 'v0.10' else 'Waived: \n')
        elif testcase.status == 'NotFound':
            text += 'ERROR: %s\n' % testcase.message
        else:
            text += 'Running %s.\n' % testcase.name
            if testcase.status != 'Passed':
                continue
            for matrix in testcase.matrices:
                text += matrix.title + '\n' + _grid(matrix) + '\n' + _sum_line(matrix, perf)
                if compat == 'v0.10':
                    text += _cv_line(testcase, matrix)
                text += '\n'
    if report.interrupted or not report.has_trailer:
        return text
    return text + TRAILER


# ---- JSON (jsoncpp 1.9.5's styled writer, as docs/compatibility.md#u6 describes) -------

def _json_string(value):
    out = '"'
    for ch in value:
        code = ord(ch)
        if ch == '"':
            out += '\\"'
        elif ch == '\\':
            out += '\\\\'
        elif ch in '\b\f\n\r\t':
            out += {'\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t'}[ch]
        elif code < 0x20 or code > 0x7e:
            out += ''.join('\\u%04x' % u for u in _utf16(ch))
        else:
            out += ch
    return out + '"'


def _utf16(ch):
    code = ord(ch)
    if code < 0x10000:
        return [code]
    code -= 0x10000
    return [0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff)]


def _json_double(value):
    if math.isnan(value):
        return 'null'
    if math.isinf(value):
        return '1e+9999' if value > 0 else '-1e+9999'
    text = '%.17g' % value
    if '.' not in text and 'e' not in text:
        text += '.0'
    return text


class _Double(float):
    """A number that jsoncpp holds as a double (written with %.17g)."""


def _styled(value, indent, out, indented):
    """jsoncpp's BuiltStyledStreamWriter with indentation "\\t" and commentStyle All."""
    def newline():
        out.append('\n' + '\t' * indent)

    if isinstance(value, dict):
        if not value:
            out.append('{}')
            return
        if not indented:
            newline()
        out.append('{')
        keys = sorted(value, key=lambda k: k.encode())
        for n, key in enumerate(keys):
            out.append('\n' + '\t' * (indent + 1) + _json_string(key) + ' : ')
            _styled(value[key], indent + 1, out, False)
            if n + 1 < len(keys):
                out.append(',')
        newline()
        out.append('}')
    elif isinstance(value, list):
        if not value:
            out.append('[]')
            return
        if not indented:
            newline()
        out.append('[')
        for n, child in enumerate(value):
            out.append('\n' + '\t' * (indent + 1))
            _styled(child, indent + 1, out, True)
            if n + 1 < len(value):
                out.append(',')
        newline()
        out.append(']')
    elif value is None:
        out.append('null')
    elif isinstance(value, bool):
        out.append('true' if value else 'false')
    elif isinstance(value, _Double):
        out.append(_json_double(value))
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(_json_double(value))
    else:
        out.append(_json_string(value))


def styled_json(value):
    """toStyledString() followed by std::endl."""
    out = []
    _styled(value, 0, out, True)
    return ''.join(out) + '\n\n'


def _g6(value):
    """iostream's default formatting of a double (6 significant digits, %g)."""
    return '%g' % value


def _verbose_stats(matrix):
    """min/max over every cell with N/A as 0, max starting at DBL_MIN; average over the cells
    above 0 (None, written null, when there is none)."""
    values = [0.0 if v is None else v for row in matrix.cells for v in row]
    low = min(values) if values else 0.0
    high = max([2.2250738585072014e-308] + values)
    positive = [v for v in values if v > 0]
    average = (sum(positive) / len(positive)) if positive else None
    return low, high, average


def _json_entry(testcase, verbose):
    if testcase.status == 'Passed' and testcase.matrices:
        rows = [[('N/A' if v is None else _g6(v)) for v in row]
                for m in testcase.matrices for row in m.cells]
        last = testcase.matrices[-1]
        entry = {'bandwidth_description': last.title, 'bandwidth_matrix': rows,
                 'name': testcase.name, 'status': 'Passed', 'sum': _Double(last.sum)}
        if verbose:
            low, high, average = _verbose_stats(last)
            entry['min'] = _Double(low)
            entry['max'] = _Double(high)
            entry['average'] = None if average is None else _Double(average)
        return entry
    if testcase.status == 'Waived':
        return {'name': testcase.name, 'status': 'Waived'}
    if testcase.status in ('ERROR', 'NotFound'):
        return {'name': testcase.name, 'status': 'ERROR'}
    return {'name': testcase.name, 'status': testcase.status}


def json_document(report, verbose=False):
    """Upstream v0.8's -j document of `report`, as a dict (doubles marked)."""
    top = {'git_version': report.git_version, 'version': report.version}
    if report.gpus_opened:
        top['CUDA Runtime Version'] = report.cuda_runtime
        top['Driver Version'] = report.driver_version
        top['GPU Device list'] = ['%d: %s (%s): (%s)' % (i, name, bdf, report.hostname)
                                  for i, (name, bdf) in enumerate(report.devices)]
    if report.buffer_size_mib < 512:
        top['warning'] = SMALL_BUFFER_NOTE_V08
    if report.error is not None:
        top['error'] = report.error
    if report.testcases:
        top['testcases'] = [_json_entry(t, verbose) for t in report.testcases]
    return {'nvbandwidth': top}


def render_json(report, verbose=False):
    return styled_json(json_document(report, verbose))


# ---- listings -----------------------------------------------------------------------------------

# v0.10's 44 single-node testcases at their indices (docs/compatibility.md#v010).
V010_TESTCASES = [
    'host_to_device_memcpy_ce', 'device_to_host_memcpy_ce',
    'host_to_device_bidirectional_memcpy_ce', 'device_to_host_bidirectional_memcpy_ce',
    'device_to_device_memcpy_read_ce', 'device_to_device_memcpy_write_ce',
    'device_to_device_bidirectional_memcpy_read_ce',
    'device_to_device_bidirectional_memcpy_write_ce', 'all_to_host_memcpy_ce',
    'all_to_host_bidirectional_memcpy_ce', 'host_to_all_memcpy_ce',
    'host_to_all_bidirectional_memcpy_ce', 'all_to_one_write_ce', 'all_to_one_read_ce',
    'one_to_all_write_ce', 'one_to_all_read_ce', 'host_to_device_memcpy_sm',
    'device_to_host_memcpy_sm', 'host_to_device_bidirectional_memcpy_sm',
    'device_to_host_bidirectional_memcpy_sm', 'device_to_device_memcpy_read_sm',
    'device_to_device_memcpy_write_sm', 'device_to_device_bidirectional_memcpy_read_sm',
    'device_to_device_bidirectional_memcpy_write_sm', 'all_to_host_memcpy_sm',
    'all_to_host_bidirectional_memcpy_sm', 'host_to_all_memcpy_sm',
    'host_to_all_bidirectional_memcpy_sm', 'all_to_one_write_sm', 'all_to_one_read_sm',
    'one_to_all_write_sm', 'one_to_all_read_sm', 'host_device_latency_sm',
    'device_to_device_latency_sm', 'device_to_device_memcpy_read_tma',
    'device_to_device_memcpy_write_tma', 'device_to_device_bidirectional_memcpy_read_tma',
    'device_to_device_bidirectional_memcpy_write_tma', 'device_local_copy',
    'device_local_copy_sm', 'device_local_read_sm', 'device_local_write_sm',
    'device_to_device_latency_tma', 'device_local_copy_tma']


def render_listing_v010(version='v0.10.0', git_version='v0.10.0'):
    """v0.10's -l: v0.8's layout, a blank line before index 42. Descriptions are placeholders (not
    known); no client reads them."""
    text = 'nvbandwidth Version: %s\nBuilt from Git version: %s\n\n' % (version, git_version)
    text += 'Index, Name:\n\tDescription\n=======================\n'
    for index, name in enumerate(V010_TESTCASES):
        if index == 42:
            text += '\n'
        text += '%d, %s:\n\t%s\n\n' % (index, name, name.replace('_', ' '))
    return text
