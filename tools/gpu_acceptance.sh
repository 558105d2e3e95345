#!/usr/bin/env bash
# Acceptance runs on a GPU machine, by named scenario; each writes OUT/<scenario>/ and
# tools/gpu_acceptance_report.py OUT prints what they found (Markdown).
#
#   tools/gpu_acceptance.sh OUT SCENARIO...
#
#   tests    the GPU tests (tests/gpu: the host, SM and executor paths, and the logical-GPU ones)
#   default  ROUNDS default runs of this build (-j) alternating with the release's (-j) and
#            upstream v0.8's (text), then one text run of this build: SUMs side by side, the time
#            outside the timed copies and latency, the -j documents' shape against the release's,
#            --from of a -j run against a text run
#   logical  the 22 peer testcases (-p device_to_device all_to_one one_to_all) on 8 logical GPUs
#            (NVBW_LOGICAL_GPUS=8), -j with its timing (every testcase there is too long for one
#            device call: the host fans of the logical GPUs share one PCIe link)
#   reuse    host-to-device copies after device-to-host ones, then ROUNDS default runs and one at
#            each of -b 1, 4 and 16, each with kept and with fresh buffers
#            (NVBW_TEST_FRESH_BUFFERS=1), alternating with upstream
#   v010     --compat v0.10 with a waived testcase
#
# Binaries: NVBW_BIN (this build's, default build/nvbandwidth), NVBW_RELEASE and NVBW_UPSTREAM
# (references; a scenario leaves out what is not set), NVBW_GPU_TESTS (default
# build/tests/nvbw_gpu_tests). ROUNDS (default 3). Never runs a multicast testcase; every run has a
# time limit (SIGINT, so a -j document still closes; SIGKILL 10 s later). The device tool
# brings back few files: tar OUT at the end of the command.
set -uo pipefail
export NVBANDWIDTH_DISABLE_MULTICAST=1
out="$1"
shift
bin="${NVBW_BIN:-build/nvbandwidth}"
rounds="${ROUNDS:-3}"
limit="${RUN_LIMIT_S:-300}"

# one NAME CMD...: stdout to NAME.out, stderr to NAME.err, "NAME rc=N ms=M" to runs.txt.
one() {
  local name="$1" start rc
  shift
  start=$(date +%s%N)
  timeout -s INT -k 10 "$limit" "$@" > "$dir/$name.out" 2> "$dir/$name.err"
  rc=$?
  echo "$name rc=$rc ms=$(( ($(date +%s%N) - start) / 1000000 ))" >> "$dir/runs.txt"
}

scenario_tests() {
  one gpu-tests "${NVBW_GPU_TESTS:-build/tests/nvbw_gpu_tests}"
}

scenario_default() {
  for round in $(seq 1 "$rounds"); do
    one "ours.$round" "$bin" -j
    [ -n "${NVBW_RELEASE:-}" ] && one "release.$round" "$NVBW_RELEASE" -j
    [ -n "${NVBW_UPSTREAM:-}" ] && one "upstream.$round" "$NVBW_UPSTREAM"
  done
  one ours-text "$bin"
  one ours-from "$bin" --from "$dir/ours.1.out"
}

scenario_logical() {
  one logical8 env NVBW_LOGICAL_GPUS=8 "$bin" -j -p device_to_device all_to_one one_to_all
}

scenario_reuse() {
  for round in 1 2; do
    for sel in "1 0" "3 0" "8 10"; do
      local tag="${sel// /-}.$round"
      # shellcheck disable=SC2086
      { [ -n "${NVBW_UPSTREAM:-}" ] && one "upstream.$tag" "$NVBW_UPSTREAM" -i 6 -t $sel; } || true
      # shellcheck disable=SC2086
      one "kept.$tag" "$bin" -i 6 -t $sel
      # shellcheck disable=SC2086
      one "fresh.$tag" env NVBW_TEST_FRESH_BUFFERS=1 "$bin" -i 6 -t $sel
    done
  done
  local round size
  for round in $(seq 1 "$rounds"); do
    reuse_three "default.$round"
  done
  for size in 1 4 16; do
    reuse_three "b$size.1" -b "$size"
  done
}

# reuse_three TAG ARGS...: upstream, this build with kept buffers, with fresh ones.
reuse_three() {
  local tag="$1"
  shift
  { [ -n "${NVBW_UPSTREAM:-}" ] && one "upstream.$tag" "$NVBW_UPSTREAM" "$@"; } || true
  one "kept.$tag" "$bin" "$@"
  one "fresh.$tag" env NVBW_TEST_FRESH_BUFFERS=1 "$bin" "$@"
}

scenario_v010() {
  one waived "$bin" --compat v0.10 -t 0 device_to_device_memcpy_read_ce 1
}

mkdir -p "$out"
{ nvidia-smi -L; nvidia-smi conf-compute -f; lscpu; } > "$out/machine.txt" 2>&1
for scenario in "$@"; do
  dir="$out/$scenario"
  mkdir -p "$dir"
  case "$scenario" in
  tests | default | logical | reuse | v010) "scenario_$scenario" ;;
  *)
    echo "gpu_acceptance.sh: unknown scenario $scenario" >&2
    exit 2
    ;;
  esac
done
