#!/usr/bin/env bash
# Acceptance runs on a GPU machine: ctest (gpu label included), three full default runs (text and
# timed), one -j run, and the SM host testcases at small sizes. Results go to $1 (default ./out).
# Summarise with tools/summarize_runs.py. Never runs a multicast testcase. The device tool brings
# back only a few files: tar "$1" into one archive at the end of the command.
set -uo pipefail
export NVBANDWIDTH_DISABLE_MULTICAST=1
out="${1:-out}"
bin="${NVBW_BIN:-build/nvbandwidth}"
mkdir -p "$out"
nvidia-smi -L > "$out/gpus.txt" 2>&1
nvidia-smi topo -m > "$out/topo.txt" 2>&1
if [ "${SKIP_CTEST:-0}" != 1 ]; then
  ctest --test-dir build --output-on-failure > "$out/ctest.txt" 2>&1
  echo "ctest rc=$?"
  tail -3 "$out/ctest.txt"
fi
for run in 1 2 3; do
  start=$(date +%s%N)
  "$bin" > "$out/default.$run.txt" 2> "$out/default.$run.err"
  rc=$?
  echo "default run $run rc=$rc wall=$(( ($(date +%s%N) - start) / 1000000 )) ms"
done
"$bin" -j > "$out/default.json" 2> "$out/json.err"; echo "json rc=$?"
for b in 1 4 16; do
  "$bin" -b "$b" -t 16 17 18 19 24 25 26 27 > "$out/sm.b$b.txt" 2>&1; echo "sm -b $b rc=$?"
done
