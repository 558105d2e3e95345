#!/bin/bash
# A stand-in for a binary that prints a run-end WARNING on stdout after the last testcase, as
# nvbandwidth did before issue 18: runs $CLIENTS_WRAPPED_BINARY with the arguments and inserts
# the throttling line before the trailer. The `real` section must fail on it (ctest
# clients_real_detects), which shows that section can fail.
set -o pipefail
"$CLIENTS_WRAPPED_BINARY" "$@" | sed '/^NOTE: The reported results may not reflect/i\
WARNING: GPU 0: clocks were held down for power or thermal reasons for 2.35 s during the run: its figures may be low.'
