"""Kubernetes DRA driver for GPUs, multi-node NVLink test (docs/compatibility.md#k5).

    mpirun --bind-to core --map-by ppr:2:node -np 4 nvbandwidth -t multinode_device_to_device_memcpy_read_ce

read() returns the lines of stdout that its grep keeps.
"""
import re

TESTCASE = 'multinode_device_to_device_memcpy_read_ce'
_GREP = re.compile(r'^.*SUM multinode_device_to_device_memcpy_read_ce [0-9]+\.[0-9]+.*$')


def command(samples=None, buffer_size=None):
    command = ['-t', TESTCASE]
    if samples is not None:
        command += ['--testSamples', str(samples)]
    if buffer_size is not None:
        command += ['--bufferSize', str(buffer_size)]
    return command


def read(stdout):
    return [line for line in stdout.split('\n') if _GREP.match(line)]
