#!/usr/bin/env bash
# Side-by-side default runs on a GPU machine: ours (-j, which records where the time went) and
# upstream's v0.8 binary (-j), alternating, ROUNDS times each, so that machine-to-machine
# differences cancel. Wall times go to OUT/walls.txt; tools/summarize_runs.py prints the medians beside a reference.
# Never runs a multicast testcase. usage: gpu_compare.sh OUT ROUNDS OURS UPSTREAM [ARGS...]
set -uo pipefail
export NVBANDWIDTH_DISABLE_MULTICAST=1
out="$1" rounds="$2" ours="$3" upstream="$4"
shift 4
mkdir -p "$out"
wall() {  # name binary args...: one run, its wall time appended to walls.txt
  local name="$1" bin="$2"
  shift 2
  local start=$(date +%s%N)
  "$bin" "$@" > "$out/$name.json" 2> "$out/$name.err"
  local rc=$?
  echo "$name rc=$rc wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))" | tee -a "$out/walls.txt"
}
for round in $(seq 1 "$rounds"); do
  wall "ours.$round" "$ours" -j "$@"
  wall "upstream.$round" "$upstream" -j "$@"
done
