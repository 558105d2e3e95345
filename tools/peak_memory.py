#!/usr/bin/python3
"""peak_memory.py FILE PROGRAM ARGS...: runs PROGRAM, writes its peak resident memory in MiB
(getrusage of the waited-for child, ru_maxrss) to FILE, and exits as it did (128 + N for a
signal N). SIGINT and SIGTERM are passed on to the program, so that a time limit stops it as it
would stop the program run alone."""

import resource
import signal
import subprocess
import sys


def main(argv):
    child = subprocess.Popen(argv[2:])
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda n, _frame: child.send_signal(n))
    status = child.wait()
    with open(argv[1], "w") as f:
        f.write("%.1f\n" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0))
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
