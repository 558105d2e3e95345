#!/bin/bash
# The GPU acceptance of the healthy-band verdicts on one H200, in one call (about 5 minutes):
#
#   tools/gpu_acceptance_23.sh BUILD_DIR OUT_DIR
#
#   1. baseline          a default run, -j (every testcase but multicast ones)
#   2. rerun 1..5        five back-to-back default runs, each with --baseline: exit 0, no failing
#                        cell (SLOWER or UNSTABLE)
#   3. local contention  the same while a second process loops `nvbandwidth -t device_local_copy
#                        -i 200` on the same GPU: exit 3, host_device_latency_sm failing, and every
#                        cell whose (confirmed) change is beyond its band in the slower direction
#                        failing too
#   4. host contention   the same while two processes loop host copies to and from the same GPU
#                        (host_to_device_memcpy_ce and device_to_host_memcpy_ce, -i 1000): exit 3,
#                        the host copy-engine cells failing
#
# Every report (-j) and stderr goes to OUT_DIR; OUT_DIR/summary.md is one markdown table of the
# steps (exit status, SLOWER / UNSTABLE / NOISY / suspect cells, confirmation seconds, wall
# seconds, PASS or FAIL) and, for the contention steps, the failing cells with their change,
# band and spread. Exit 0 when every step is as expected, 1 otherwise, 2 for a usage error.
# NVBANDWIDTH_DISABLE_MULTICAST=1 is set and multicast testcases are never selected.
#
# Test hooks (tests/tools/test_gpu_acceptance_23.py runs this script with the GPU-less fake):
#   NVBW_ACCEPTANCE_BINARY=PATH      the program to run instead of BUILD_DIR/nvbandwidth
#   NVBW_ACCEPTANCE_LOCAL_ENV=...    VAR=VALUE words added to the environment of step 3's run
#   NVBW_ACCEPTANCE_HOST_ENV=...     likewise for step 4 (the fake has no GPU for a second
#                                    process to load)
#   NVBW_ACCEPTANCE_LOAD_LEAD_S=S    the loads' head start before steps 3 and 4's runs (default 5)
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD_DIR=$1
OUT=$2
# shellcheck source=tools/gpu_acceptance_lib.sh
. "$(cd "$(dirname "$0")" && pwd)/gpu_acceptance_lib.sh"
acceptance_start
SUMMARY=$OUT/summary.md
FAILED=0
ROWS=()
DETAILS=()

# "slower unstable noisy suspect seconds" of a report's comparison, "- - - - -" without one.
counts() {
  /usr/bin/python3 - "$1" <<'EOF'
import json, sys
try:
    c = json.load(open(sys.argv[1]))["nvbandwidth"]["comparison"]
except Exception:
    print("- - - - -"); sys.exit(0)
s = c["summary"]
seconds = c.get("confirmation", {}).get("seconds")
print(s["slower"], s.get("unstable", 0), s["noisy"], s["suspect"],
      "-" if seconds is None else "%.1f" % seconds)
EOF
}

# Checks a contention report: the cells named in $2 (comma-separated matrix keys) fail, and so
# does every cell whose change (after confirmation: its confirmed change) is beyond its band in
# the slower direction. Prints "ok|bad NOTE" and the failing cells, one line each, after it.
contention_check() {
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import json, sys
try:
    cells = json.load(open(sys.argv[1]))["nvbandwidth"]["comparison"]["cells"]
except Exception as e:
    print("bad no comparison (%s)" % e); sys.exit(0)
required = sys.argv[2].split(",")
failing = [c for c in cells if c["verdict"] in ("SLOWER", "UNSTABLE")]
problems = []
for name in required:
    named = [c for c in cells if c["name"] == name]
    if not named:
        problems.append(name + " not compared")
    for c in named:
        if c["verdict"] not in ("SLOWER", "UNSTABLE"):
            problems.append("%s[%d][%d] %s" % (name, c["row"], c["col"], c["verdict"]))
beyond = 0
for c in cells:
    change = c.get("confirmed_change_percent", c.get("change_percent"))
    if change is None:
        continue
    slower = change > 0 if c["unit"] == "ns" else change < 0
    if slower and abs(change) > c["band_percent"]:
        beyond += 1
        if c["verdict"] not in ("SLOWER", "UNSTABLE"):
            problems.append("%s[%d][%d] beyond its band but %s" % (c["name"], c["row"], c["col"],
                                                                 c["verdict"]))
note = "%d failing, %d beyond the band" % (len(failing), beyond)
print(("ok " if not problems else "bad ") + note + ("; " + "; ".join(problems) if problems else ""))
for c in failing:
    spread = c.get("confirmed_spread_percent", c.get("spread_percent"))
    change = c.get("confirmed_change_percent", c.get("change_percent"))
    print("%s[%d][%d] %s: %.2f -> %.2f %s, change %s, band %.2f%%, spread %s (limit %.2f%%)" % (
        c["name"], c["row"], c["col"], c["verdict"], c["baseline"], c["current"], c["unit"],
        "n/a" if change is None else "%+.2f%%" % change, c["band_percent"],
        "n/a" if spread is None else "%.2f%%" % spread, c["unstable_limit_percent"]))
EOF
}

# row STEP EXPECTED_EXIT EXIT WALL REPORT CHECK_OK [NOTE]
row() {
  local step=$1 expected=$2 status=$3 wall=$4 report=$5 ok=$6 note=${7:-}
  read -r slower unstable noisy suspect seconds <<<"$(counts "$report")"
  local verdict
  verdict=$(step_result "$status" "$expected" "$ok")
  [ "$verdict" = PASS ] || FAILED=1
  ROWS+=("| $step | $expected | $status | $slower | $unstable | $noisy | $suspect | $seconds | $wall | $verdict | $note |")
  echo "$step: exit $status (expected $expected), SLOWER $slower, UNSTABLE $unstable, NOISY $noisy, confirmation $seconds s, wall $wall s: $verdict $note" >&2
}

# No run may take the budget: a default run is 15 s on an H200, one under load about 80 s.
RUN_LIMIT_S=150

# contention STEP FILE REQUIRED ENV_HOOK LOAD...: a run against the baseline under the loads
# (TESTCASE:SAMPLES each), its required failing cells checked.
contention() {
  local step=$1 file=$2 required=$3 hook=$4
  shift 4
  local spec
  for spec in "$@"; do load "${spec%%:*}" "${spec##*:}"; done
  loads_lead
  local extra=()
  read -r -a extra <<<"$hook"
  run "$file" "${extra[@]}" -- -j -t "${TESTCASES[@]}" --baseline "$BASE"
  stop_loads
  local check
  check=$(contention_check "$OUT/$file" "$required")
  local first=${check%%$'\n'*}
  local ok=0
  [ "${first%% *}" = ok ] && ok=1
  row "$step" 3 "$STATUS" "$WALL" "$OUT/$file" "$ok" "${first#* }"
  DETAILS+=("" "Failing cells of $step ($file):" "")
  while IFS= read -r line; do DETAILS+=("- $line"); done < <(printf '%s\n' "$check" | tail -n +2)
}

# 1. The baseline.
run baseline.json -- -j -t "${TESTCASES[@]}"
BASE=$OUT/baseline.json
row baseline 0 "$STATUS" "$WALL" "$BASE" 1 "${#TESTCASES[@]} testcases"

# 2. Five back-to-back runs against it: no failing cell.
for i in 1 2 3 4 5; do
  run "rerun_$i.json" -- -j -t "${TESTCASES[@]}" --baseline "$BASE"
  read -r slower unstable _ <<<"$(counts "$OUT/rerun_$i.json")"
  ok=0
  [ "$slower" = 0 ] && [ "$unstable" = 0 ] && ok=1
  row "rerun $i" 0 "$STATUS" "$WALL" "$OUT/rerun_$i.json" "$ok"
done

# 3. A second process copying within the same GPU's memory: the latency to the host fails.
contention "local contention" contention_local.json host_device_latency_sm \
  "${NVBW_ACCEPTANCE_LOCAL_ENV:-}" device_local_copy:200

# 4. Two processes copying between the host and the same GPU, one per direction (PCIe is full
# duplex): the host copy-engine cells fail.
contention "host contention" contention_host.json \
  host_to_device_memcpy_ce,device_to_host_memcpy_ce "${NVBW_ACCEPTANCE_HOST_ENV:-}" \
  host_to_device_memcpy_ce:1000 device_to_host_memcpy_ce:1000

TOTAL=$(($(date +%s) - START))
{
  echo "# Healthy-band verdicts: GPU acceptance on $(hostname) ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  echo
  echo "Program: \`$BIN\` ($("$BIN" --version 2>/dev/null | sed -n 's/^Built from Git version: //p')), ${#TESTCASES[@]} testcases, NVBANDWIDTH_DISABLE_MULTICAST=1; total ${TOTAL} s."
  echo
  echo "| step | expected exit | exit | SLOWER | UNSTABLE | NOISY | suspect | confirmation s | wall s | result | note |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  printf '%s\n' "${DETAILS[@]}"
  echo
  if [ "$FAILED" = 0 ]; then echo "All steps as expected."; else echo "Some steps FAILED."; fi
} >"$SUMMARY"
cat "$SUMMARY"
exit "$FAILED"
