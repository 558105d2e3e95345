#!/bin/bash
# Benchmark of the fleet summary (issue 19: 1,000 reports of 8-GPU default runs summarised in
# under 10 s and under 1 GiB on the 2-core CI machine). Not a test: it prints the figures.
#
#   tools/bench_summarize.sh [BUILD_DIR] [NODES] [WORK_DIR]
#
# BUILD_DIR (default build) must hold tests/nvbandwidth_fake and tests/nvbw_summarize (or an
# nvbandwidth whose --help lists --summarize). NODES (default 1000) reports are generated once in
# WORK_DIR (default /tmp/nvbw_fleet_bench) by tools/make_fleet_reports.py from the fake
# platform's 8-GPU NVSwitch report, with five nodes doctored, and kept for later runs. Then the
# text, JSON and HTML views are each timed under /usr/bin/time -v: wall time and peak RSS.
set -euo pipefail

build=${1:-build}
nodes=${2:-1000}
work=${3:-/tmp/nvbw_fleet_bench}
here=$(cd "$(dirname "$0")" && pwd)
budget_s=10
budget_kib=$((1024 * 1024))

if "$build/nvbandwidth" --help 2>/dev/null | grep -q -- --summarize; then
  binary=$build/nvbandwidth
  option=(--summarize)
else
  binary=$build/tests/nvbw_summarize
  option=()
fi
[ -x "$binary" ] || { echo "bench_summarize.sh: $binary is missing; build it" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_summarize.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

mkdir -p "$work"
reports="$work/reports-$nodes"
if [ "$(find "$reports" -name '*.json' 2>/dev/null | wc -l)" -ne "$nodes" ]; then
  rm -rf "$reports"
  NVBW_FAKE_GPUS=8 NVBW_FAKE_LINKS=nvswitch "$build/tests/nvbandwidth_fake" -j > "$work/template.json"
  echo "generating $nodes reports in $reports ..."
  start=$(date +%s)
  /usr/bin/python3 "$here/make_fleet_reports.py" --template "$work/template.json" --out "$reports" \
    --nodes "$nodes" --seed 1 --doctor 7=slow-links:3 --doctor 13=slow-pair:1:6 \
    --doctor 21=slow-host:2 --doctor 29=slow-latency:5 --doctor 34=slow-node:0.85 > /dev/null
  echo "generated in $(( $(date +%s) - start )) s"
fi
echo "$nodes reports, $(du -sh "$reports" | cut -f1) in all"
# Read them once so that every timed run finds them in the page cache alike.
cat "$reports"/*.json > /dev/null

status=0
run() {  # run NAME ARGS...
  local name=$1
  shift
  local log="$work/time-$name.txt"
  set +e
  /usr/bin/time -v "$@" > "$work/out-$name" 2> "$log"
  local rc=$?
  set -e
  local wall rss seconds
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
  seconds=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  local verdict=ok
  if awk -v s="$seconds" -v b="$budget_s" 'BEGIN { exit !(s >= b) }' || [ "$rss" -ge "$budget_kib" ]; then
    verdict="OVER BUDGET"
    status=1
  fi
  printf '%-5s exit %d  wall %6.2f s  peak RSS %4d MiB  output %s  %s\n' "$name" "$rc" "$seconds" \
    $((rss / 1024)) "$(du -h "$work/out-$name" | cut -f1)" "$verdict"
}
run text "$binary" "${option[@]}" "$reports"
run json "$binary" -j "${option[@]}" "$reports"
run html "$binary" --html "$work/summary.html" "${option[@]}" "$reports"
tail -n 1 "$work/out-text"
exit $status
