#!/bin/bash
# The GPU acceptance of the cost work on one H200, in one call (about 2 minutes):
#
#   tools/gpu_acceptance_26.sh NEW_PROGRAM RELEASE_PROGRAM OUT_DIR
#
#   1. runs 1..3     a default run (-j, every testcase both programs list but multicast ones) of
#                    the release, then of the new program, three times, alternating
#   2. SUMs          each testcase's SUM of the six reports side by side, the new runs' median
#                    against the release's; then `--compare` of each new report with the three
#                    release reports as baseline (the healthy-band verdicts): exit 0, no SLOWER or
#                    UNSTABLE cell
#   3. overhead      each new report's `timing`: the wall time outside the timed copies and the
#                    latency, and each phase; under 1 s in every new run
#   4. rounds        `--schedule rounds` on one GPU falls back to pair by pair with its note (on
#                    stderr in text, in "notes" with -j), its testcases as without the option
#
# Reports and stderr go to OUT_DIR; OUT_DIR/summary.md has a table of the steps (PASS or FAIL),
# the SUM table and the timing table. Exit 0 when every step passes, 1 otherwise, 2 for a usage
# error. NVBANDWIDTH_DISABLE_MULTICAST=1 is set and multicast testcases are never selected.
#
# Test hooks (tests/tools/test_gpu_acceptance_26.py runs this script with the GPU-less fake):
#   NVBW_ACCEPTANCE_RELEASE_ENV=...  VAR=VALUE words added to the release runs' environment
#   NVBW_ACCEPTANCE_NEW_ENV=...      likewise for the new program's default runs
set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 NEW_PROGRAM RELEASE_PROGRAM OUT_DIR" >&2
  exit 2
fi
NEW=$1
RELEASE=$2
OUT=$3
if [ ! -x "$RELEASE" ]; then
  echo "$0: no program at $RELEASE" >&2
  exit 2
fi
NVBW_ACCEPTANCE_BINARY=$NEW  # the program acceptance_start checks and lists
# shellcheck source=tools/gpu_acceptance_lib.sh
. "$(cd "$(dirname "$0")" && pwd)/gpu_acceptance_lib.sh"
acceptance_start
# Only what both programs know.
mapfile -t KNOWN < <("$RELEASE" -l | sed -n 's/^[0-9][0-9]*, \([A-Za-z0-9_]*\):$/\1/p')
SELECTED=()
for t in "${TESTCASES[@]}"; do
  for k in "${KNOWN[@]}"; do
    if [ "$t" = "$k" ]; then SELECTED+=("$t"); fi
  done
done
SUMMARY=$OUT/summary.md
FAILED=0
ROWS=()
RUN_LIMIT_S=150
read -r -a RELEASE_ENV <<<"${NVBW_ACCEPTANCE_RELEASE_ENV:-}"
read -r -a NEW_ENV <<<"${NVBW_ACCEPTANCE_NEW_ENV:-}"

# 1. Three alternating default runs of each.
runs_ok=1
runs_note=""
for i in 1 2 3; do
  BIN=$RELEASE run "release_$i.json" "${RELEASE_ENV[@]}" -- -j -t "${SELECTED[@]}"
  [ "$STATUS" = 0 ] || runs_ok=0
  runs_note+="release $i: exit $STATUS, ${WALL} s; "
  BIN=$NEW run "new_$i.json" "${NEW_ENV[@]}" -- -j -t "${SELECTED[@]}"
  [ "$STATUS" = 0 ] || runs_ok=0
  runs_note+="new $i: exit $STATUS, ${WALL} s; "
done
result_row "default runs" "$runs_ok" "${#SELECTED[@]} testcases; ${runs_note%; }"

# 2. The SUMs side by side, and the verdicts of --compare.
/usr/bin/python3 - "$OUT" >"$OUT/sums.md" <<'EOF'
import json, os, statistics, sys
out = sys.argv[1]
def sums(name):
    try:
        doc = json.load(open(os.path.join(out, name)))["nvbandwidth"]
    except Exception:
        return {}
    return {e["name"]: e["sum"] for e in doc.get("testcases", []) if "sum" in e}
new = [sums("new_%d.json" % i) for i in (1, 2, 3)]
old = [sums("release_%d.json" % i) for i in (1, 2, 3)]
print("| matrix | new 1 | new 2 | new 3 | release 1 | release 2 | release 3 | median change |")
print("|---|---|---|---|---|---|---|---|")
for name in old[0]:
    a = [r.get(name) for r in new]
    b = [r.get(name) for r in old]
    cells = ["%.2f" % v if v is not None else "-" for v in a + b]
    change = "-"
    if None not in a and None not in b and statistics.median(b):
        change = "%+.2f%%" % (100 * (statistics.median(a) / statistics.median(b) - 1))
    print("| %s | %s | %s |" % (name, " | ".join(cells), change))
EOF
compare_ok=1
compare_note=""
for i in 1 2 3; do
  "$NEW" --compare "$OUT/release_1.json" "$OUT/release_2.json" "$OUT/release_3.json" \
    "$OUT/new_$i.json" -j >"$OUT/compare_$i.json" 2>"$OUT/compare_$i.err"
  status=$?
  [ "$status" = 0 ] || compare_ok=0
  compare_note+="new $i: exit $status $(/usr/bin/python3 -c '
import json, sys
try:
    s = json.load(open(sys.argv[1]))["nvbandwidth"]["comparison"]["summary"]
    print("(SLOWER %d, UNSTABLE %d)" % (s["slower"], s.get("unstable", 0)))
except Exception as e:
    print("(no comparison: %s)" % e)' "$OUT/compare_$i.json"); "
done
result_row "SUMs within noise" "$compare_ok" "${compare_note%; }"

# 3. Outside the timed copies and the latency.
timing=$(/usr/bin/python3 - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
phases = ("allocation_seconds", "fill_seconds", "verification_seconds", "release_seconds",
          "enqueue_seconds", "wait_seconds")
rows, ok = [], True
for who in ("new", "release"):
    for i in (1, 2, 3):
        try:
            t = json.load(open(os.path.join(out, "%s_%d.json" % (who, i))))["nvbandwidth"]["timing"]
        except Exception:
            rows.append("| %s %d | no timing |" % (who, i) + " |" * (len(phases) + 2))
            ok = ok and who != "new"
            continue
        outside = t["wall_seconds"] - t["timed_copies_seconds"] - t["latency_seconds"]
        if who == "new" and outside >= 1.0:
            ok = False
        rows.append("| %s %d | %.2f | %.2f | %.2f | %.2f | " % (
            who, i, t["wall_seconds"], t["timed_copies_seconds"], t["latency_seconds"], outside) +
            " | ".join("%.2f" % t[p] for p in phases) + " |")
print("ok" if ok else "bad")
print("| run | wall | timed copies | latency | outside | " +
      " | ".join(p.replace("_seconds", "") for p in phases) + " |")
print("|---" * (5 + len(phases)) + "|")
print("\n".join(rows))
EOF
)
printf '%s\n' "$timing" | tail -n +2 >"$OUT/timing.md"
outside=$(sed -n 's/^| new \([123]\) | [0-9.]* | [0-9.]* | [0-9.]* | \([0-9.]*\) |.*/\2/p' \
  "$OUT/timing.md" | paste -sd, -)
[ "$(printf '%s\n' "$timing" | head -1)" = ok ] && timing_ok=1 || timing_ok=0
result_row "under 1 s outside copies and latency" "$timing_ok" "new runs: ${outside:-none} s"

# 4. --schedule rounds on one GPU.
BIN=$NEW run rounds.txt -- --schedule rounds -t device_to_device_memcpy_read_ce
rounds_status=$STATUS
BIN=$NEW run plain.txt -- -t device_to_device_memcpy_read_ce
BIN=$NEW run rounds.json -- --schedule rounds -j -t device_to_device_memcpy_read_ce
rounds_ok=0
note="NOTE: --schedule rounds: the device-to-device testcases measure pair by pair: this run has 1 GPU."
if [ "$rounds_status" = 0 ] && grep -qxF "$note" "$OUT/rounds.txt.err" &&
  cmp -s "$OUT/rounds.txt" "$OUT/plain.txt" &&
  /usr/bin/python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))["nvbandwidth"]
sys.exit(0 if sys.argv[2] in doc.get("notes", []) else 1)' "$OUT/rounds.json" "$note"; then
  rounds_ok=1
fi
result_row "rounds fall back on one GPU" "$rounds_ok" "exit $rounds_status; $(head -c 300 "$OUT/rounds.txt.err" | tr '\n' ' ')"

{
  echo "# Issue 26's GPU acceptance ($(date -u +%FT%TZ), $(($(date +%s) - START)) s)"
  echo
  echo "| step | result | details |"
  echo "|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "## SUMs"
  echo
  cat "$OUT/sums.md"
  echo
  echo "## Timing (seconds)"
  echo
  cat "$OUT/timing.md"
} >"$SUMMARY"
cat "$SUMMARY"
exit "$FAILED"
