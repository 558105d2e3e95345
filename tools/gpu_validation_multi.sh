#!/bin/bash
# The validation on 4 or 8 GPUs (nvidia-h200-x4, nvidia-h200-x8), in one device call of at most
# 9 minutes:
#
#   tools/gpu_validation_multi.sh BUILD_DIR UPSTREAM_V0.8_BINARY OUT_DIR
#
#   1. topology        `nvidia-smi topo -m` kept in topo.txt (n/a where there is no nvidia-smi)
#   2. side by side    ours and upstream's v0.8 binary interleaved, 3 rounds (1 and 3 text, 2 -j),
#                      every SUM within run-to-run noise, as tools/gpu_validation_x2.sh does; a
#                      default run on 8 GPUs takes about 9 minutes alone (pairs grow with the
#                      square of the GPU count), so the plan picks the largest workload that fits:
#                      every testcase at -b 512, 128 or 32 MiB, else a core set at -b 32
#   3. wall and memory the wall time and peak memory (getrusage) of each run; ours' medians may
#                      exceed upstream's by 5% at most
#   4. pairs/rounds    where the program has a rounds option (--schedule in --help): the
#                      device-to-device CE and SM copies pair by pair and in rounds, alternating,
#                      3 rounds each, every cell within noise, and the wall times of both;
#                      otherwise "not in this build"
#   5. -P sampling     -P GPUS on the device-to-device read CE and write SM copies: fewer cells than
#                      all, every GPU covered, each within noise of the side-by-side runs
#   6. mpirun -n GPUS  every unicast multinode testcase, as in the 2-GPU script
#   7. --summarize     of ours' -j reports: exit 0, no node flagged
#
# A plan with each step's estimated time is printed first; a step that no longer fits is not run
# and FAILs. Results, summary.md, commands.txt and walls.txt in OUT_DIR as the 2-GPU script's.
# Exit 0 when every check passed, 1 otherwise, 2 on a usage error. NVBANDWIDTH_DISABLE_MULTICAST=1
# is set and multicast testcases are left out and refused. Test hooks: tools/gpu_validation_lib.sh.
set -u

# shellcheck source=tools/gpu_validation_lib.sh
. "$(cd "$(dirname "$0")" && pwd)/gpu_validation_lib.sh"
validation_start "$@"

GPUS=$(gpu_count)
CORE=(host_to_device_memcpy_ce device_to_host_memcpy_ce device_to_device_memcpy_read_ce
  device_to_device_memcpy_write_sm host_device_latency_sm device_to_device_latency_sm)
PAIR_TESTCASES=(device_to_device_memcpy_read_ce device_to_device_memcpy_write_ce
  device_to_device_memcpy_read_sm device_to_device_memcpy_write_sm)
SAMPLED=(device_to_device_memcpy_read_ce device_to_device_memcpy_write_sm)

# Only the names both programs list, in ours' order.
keep_only() {
  local -n list=$1
  shift
  local kept=() name
  for name in "${list[@]}"; do
    case " $* " in *" $name "*) kept+=("$name") ;; esac
  done
  list=("${kept[@]}")
}

# The side-by-side workload: the largest that takes at most 45% of the budget.
SIDE_SHARE=$((BUDGET_S * 45 / 100))
WORKLOAD=""
for size in 512 128 32; do
  SIDE_S=$((3 * ($(estimate_ours "$GPUS" "$size") + $(estimate_upstream "$GPUS" "$size"))))
  if [ "$SIDE_S" -le "$SIDE_SHARE" ]; then
    WORKLOAD="every testcase, -b $size"
    break
  fi
done
if [ -z "$WORKLOAD" ]; then
  size=32
  keep_only TESTCASES "${CORE[@]}"
  keep_only UP_TESTCASES "${CORE[@]}"
  SIDE_S=$((3 * ($(estimate_ours "$GPUS" "$size") + $(estimate_upstream "$GPUS" "$size")) *
    ${#CORE[@]} / 45 + 1))
  WORKLOAD="the core testcases (${CORE[*]}), -b $size"
fi
SIDE_ARGS=(-b "$size")
# A pair testcase is about a 20th of a default run's pair time.
PAIRS_S=$(((GPUS * (GPUS - 1) * 73 * ${#PAIR_TESTCASES[@]} * (15 * 512 + 85 * size) / 20 / 512 /
  1000 + 1) * 5))
ROUNDS_HELP=$("$BIN" --help 2>&1 | grep -A2 -- '--schedule' | grep -c rounds)

plan topology 1 "nvidia-smi topo -m"
plan "side by side" "$SIDE_S" "3 x (ours, upstream), $WORKLOAD"
if [ "$ROUNDS_HELP" -gt 0 ]; then
  plan "pairs/rounds" "$PAIRS_S" "3 x (--schedule pairs, --schedule rounds): ${PAIR_TESTCASES[*]}, ${SIDE_ARGS[*]}"
else
  plan "pairs/rounds" 0 "not in this build (no --schedule in --help)"
fi
plan "-P sampling" 15 "-P $GPUS: ${SAMPLED[*]}"
plan "mpirun -n $GPUS" $((GPUS * 10)) "every unicast multinode testcase, ${SIDE_ARGS[*]}"
plan "--summarize" 2 "ours' -j reports"
print_plan

if [ "$GPUS" -ge 4 ]; then
  check GPUs "RESULT ok $GPUS GPUs"
else
  check GPUs "RESULT bad this script is for 4 or 8 GPUs; the program sees $GPUS"
fi

if command -v nvidia-smi >/dev/null; then
  nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
  status=$?
  if [ "$status" = 0 ]; then
    check topology "RESULT ok kept in topo.txt" topo.txt
  else
    check topology "RESULT bad nvidia-smi topo -m: exit $status" topo.txt
  fi
else
  note topology n/a "no nvidia-smi on this machine"
fi

LATER_S=$((PAIRS_S * (ROUNDS_HELP > 0) + 15 + GPUS * 10 + 2))
side_by_side 3 $((SIDE_S / 3)) "$LATER_S" "${SIDE_ARGS[@]}"
[ ${#OURS_RUNS[@]} -gt 0 ] && table walls walls "$OUT/walls.txt" ours upstream

# Pairs against rounds: alternating, -j, the cells and the wall times.
if [ "$ROUNDS_HELP" = 0 ]; then
  note "pairs/rounds" "not in this build" "\`$BIN --help\` has no --schedule option with rounds"
elif fits "$PAIRS_S"; then
  a=() b=()
  for r in 1 2 3; do
    timed "pairs.$r.json" "$BIN" -j --schedule pairs -t "${PAIR_TESTCASES[@]}" "${SIDE_ARGS[@]}"
    timed "rounds.$r.json" "$BIN" -j --schedule rounds -t "${PAIR_TESTCASES[@]}" "${SIDE_ARGS[@]}"
    a+=("$OUT/pairs.$r.json")
    b+=("$OUT/rounds.$r.json")
  done
  table pairs_vs_rounds cells "$FLOOR_PCT" "${a[@]}" -- "${b[@]}"
  COUNTERPARTS=("${a[@]}") # the multinode pair testcases' counterparts, at the same -b
  table schedule_walls walls "$OUT/walls.txt" rounds pairs wall
else
  skipped "pairs/rounds"
fi

if fits 15; then
  timed sampled.json "$BIN" -j -P "$GPUS" -t "${SAMPLED[@]}" "${SIDE_ARGS[@]}"
  full=()
  for f in "${OURS_RUNS[@]}"; do
    [ "${f%.txt}" != "$f" ] && f=${f%.txt}.json
    full+=("$f")
  done
  table sampling sampled "$FLOOR_PCT" "$OUT/sampled.json" "${full[@]}"
else
  skipped "-P sampling"
fi

if fits $((GPUS * 10)); then multinode_step "$GPUS" "${SIDE_ARGS[@]}"; else skipped "mpirun -n $GPUS"; fi

reports=()
for f in "$OUT"/ours.*.json; do [ -s "$f" ] && reports+=("$f"); done
if [ ${#reports[@]} -gt 0 ]; then
  "$BIN" --summarize "${reports[@]}" >"$OUT/summarize.txt" 2>&1
  status=$?
  if [ "$status" = 0 ]; then
    check "--summarize" "RESULT ok exit 0, ${#reports[@]} reports, no node flagged" summarize.txt
  else
    check "--summarize" "RESULT bad exit $status on ${#reports[@]} reports" summarize.txt
  fi
else
  check "--summarize" "RESULT bad no -j report of ours to summarize"
fi

write_summary "Validation on $GPUS GPUs" side_by_side.md walls.md pairs_vs_rounds.md \
  schedule_walls.md sampling.md "mpirun_n$GPUS.md" summarize.txt text_vs_json.md
