#!/bin/bash
# The GPU acceptance of issue 29 on one machine (one H200 is what it was written for), in one call
# of about 4 minutes:
#
#   tools/gpu_acceptance_29.sh BUILD_DIR OUT_DIR
#
#   1. -b 90000      `-b 90000 -t device_local_copy device_local_read_sm` (text, -j, -v): the first
#                    fails with the message in the user's terms on stderr (what was asked, what
#                    the GPU has and has free, the driver's error name, the option), the call
#                    behind it only in JSON's error_detail and -v's Detail line, exit 1; the second
#                    still runs; stdout holds upstream's lines only
#   2. waived        `-t 0 4 1 32 5 device_local_copy device_local_read_sm -i 3`, in v0.8 and
#                    --compat v0.10: on one GPU 4 and 5 are waived between measured testcases;
#                    stdout holds upstream's bare `Waived: ` lines, every reason is on stderr, and
#                    every known client (tests/clients) reads the run as upstream's output of the
#                    same figures
#   3. clients       every known client's own command line on real runs, both interfaces (the
#                    client suite's `real` section, as tools/check_clients_on_gpu.sh): 0 failed
#
# OUT_DIR/summary.md: one row per step (checks passed and failed, wall seconds of its suite
# section, PASS or FAIL), the -b 90000 message as printed, then every failing check;
# OUT_DIR/lines.txt (steps 1, 2) and clients.txt the suite's full output; every run's stdout,
# stderr and exit status under OUT_DIR/outputs. Exit 0 when every step passed, 1 otherwise, 2 for
# a usage error. NVBANDWIDTH_DISABLE_MULTICAST=1 is set; no multicast testcase is selected (the
# client suite's real section selects single-node testcases only).
#
# Test hooks (tests/tools/test_gpu_acceptance_29.py runs it with the GPU-less fake):
#   NVBW_ACCEPTANCE_BINARY=PATH     the program to run instead of BUILD_DIR/nvbandwidth
#   CHECK_CLIENTS_REAL_ENV="V=X .." the environment of steps 1 and 2's runs (the fake's machine)
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD_DIR=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/gpu_acceptance_lib.sh
. "$ROOT/tools/gpu_acceptance_lib.sh"
acceptance_start
export PYTHONDONTWRITEBYTECODE=1
SUITE=$ROOT/tests/clients/check_clients.py
SUMMARY=$OUT/summary.md
FAILED=0
ROWS=()

# section NAME SECTION: runs one section of the client suite on BIN, its output in OUT/NAME.txt,
# its outputs under OUT/outputs/NAME; sets SECONDS_TAKEN and STATUS.
section() {
  local begin
  begin=$(date +%s)
  /usr/bin/python3 "$SUITE" "$2" --real-binary "$BIN" --save "$OUT/outputs/$1" -v \
    >"$OUT/$1.txt" 2>&1
  STATUS=$?
  SECONDS_TAKEN=$(($(date +%s) - begin))
}

# row STEP LOG FILTER SECONDS STATUS: the checks of LOG whose names match FILTER, as a row; a
# step with a failed check, no passed one, or a suite that failed to run is FAIL.
row() {
  local passed failed verdict=PASS
  passed=$(grep -c "^PASS .*$3" "$2")
  failed=$(grep -c "^FAIL .*$3" "$2")
  # (A suite that exits non-zero without any FAIL line did not run to its end.)
  if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || { [ "$5" -ne 0 ] && ! grep -q "^FAIL " "$2"; }
  then
    verdict=FAIL
    FAILED=1
  fi
  ROWS+=("| $1 | $passed | $failed | $4 | $verdict |")
}

section lines real-lines
row "-b 90000" "$OUT/lines.txt" "-b 90000" "$SECONDS_TAKEN" "$STATUS"
row "waived in the middle" "$OUT/lines.txt" "waived between" "$SECONDS_TAKEN" "$STATUS"
section clients real
row "clients" "$OUT/clients.txt" "real |" "$SECONDS_TAKEN" "$STATUS"

{
  echo "# Issue 29 GPU acceptance: $(basename "$BIN") on $(hostname)"
  echo
  echo "| step | checks passed | checks failed | seconds | result |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "Wall time: $(($(date +%s) - START)) s. The -b 90000 message as printed:"
  echo
  echo '```'
  grep -h '^ERROR: Testcase device_local_copy' "$OUT/outputs/lines/lines/b90000.err" 2>/dev/null ||
    echo "(none)"
  echo '```'
  echo
  echo "Every check that failed (the full outputs: lines.txt, clients.txt):"
  echo
  grep -h -A4 '^FAIL ' "$OUT/lines.txt" "$OUT/clients.txt" | sed 's/^/    /' || true
  if [ "$FAILED" -eq 0 ]; then echo "    (none)"; fi
} >"$SUMMARY"
cat "$SUMMARY"
exit "$FAILED"
