#!/bin/bash
# The validation on 2 GPUs (nvidia-h200-x2), in one device call of at most 9 minutes:
#
#   tools/gpu_validation_x2.sh BUILD_DIR UPSTREAM_V0.8_BINARY OUT_DIR
#
#   1. side by side    default runs of ours and of upstream's v0.8 binary, interleaved, 3 rounds
#                      (rounds 1 and 3 text, ours with --output .json; round 2 -j): every SUM's
#                      values, median and run-to-run noise beside upstream's; within noise. A
#                      round runs only while the later steps' time stays; fewer than 3 FAILs
#   2. TMA             device_to_device_latency_tma beside _sm, the TMA peer copies beside the CE
#                      and SM ones (medians of ours' 3 runs): every one measured
#   3. mpirun -n 2     every unicast multinode testcase of BUILD_DIR/multinode/nvbandwidth in one
#                      -j run: one document, each Passed and within noise of its single-node
#                      counterpart
#   4. rank killed     mpirun -n 2 of a long multinode run, rank 1 killed with SIGKILL: the job
#                      ends within the ranks' timeout (30 s) plus 30 s, not 0, stderr says why,
#                      stdout is one JSON document
#   5. GPU tests       BUILD_DIR/tests/nvbw_gpu_tests: how many ran, passed, skipped; none may
#                      skip on 2 GPUs
#
# A plan with each step's estimated time is printed first; a step that no longer fits the budget
# is not run and FAILs. OUT_DIR/summary.md has the PASS/FAIL of every check and the tables;
# every output, OUT_DIR/commands.txt (every command line run) and walls.txt (wall s, exit, peak
# MiB of each run) beside it. Exit 0 when every check passed, 1 otherwise, 2 on a usage error.
# NVBANDWIDTH_DISABLE_MULTICAST=1 is set, the testcase lists leave multicast ones out, and a
# command line naming one is refused. Test hooks: tools/gpu_validation_lib.sh.
set -u

# shellcheck source=tools/gpu_validation_lib.sh
. "$(cd "$(dirname "$0")" && pwd)/gpu_validation_lib.sh"
validation_start "$@"

GPUS=$(gpu_count)
ROUND_S=$(($(estimate_ours "$GPUS") + $(estimate_upstream "$GPUS")))
SIDE_S=$((3 * ROUND_S))
LATER_S=$((40 + 50 + 90))
plan "side by side" "$SIDE_S" "3 x (ours default text/-j, upstream default text/-j), interleaved; a round only while $LATER_S s stay for the rest"
plan "TMA beside CE/SM" 0 "from the side-by-side runs"
plan "mpirun -n 2" 40 "every unicast multinode testcase, -j"
plan "rank killed" 50 "mpirun -n 2, rank 1 SIGKILLed $KILL_AFTER_S s in, NVBW_MPI_TIMEOUT_S=30"
plan "GPU tests" 90 "$GPU_TESTS"
print_plan

if [ "$GPUS" -eq 2 ]; then
  check GPUs "RESULT ok 2 GPUs"
else
  check GPUs "RESULT bad this script is for 2 GPUs; the program sees $GPUS"
fi

side_by_side 3 "$ROUND_S" "$LATER_S"
if [ ${#OURS_RUNS[@]} -gt 0 ]; then
  table tma beside "$FLOOR_PCT" "${OURS_RUNS[@]}" -- \
    device_to_device_latency_tma:device_to_device_latency_sm \
    device_to_device_memcpy_read_tma:device_to_device_memcpy_read_ce \
    device_to_device_memcpy_read_tma:device_to_device_memcpy_read_sm \
    device_to_device_memcpy_write_tma:device_to_device_memcpy_write_ce \
    device_to_device_memcpy_write_tma:device_to_device_memcpy_write_sm \
    device_to_device_bidirectional_memcpy_read_tma_total:device_to_device_bidirectional_memcpy_read_ce_total \
    device_to_device_bidirectional_memcpy_read_tma_total:device_to_device_bidirectional_memcpy_read_sm_total \
    device_to_device_bidirectional_memcpy_write_tma_total:device_to_device_bidirectional_memcpy_write_ce_total \
    device_to_device_bidirectional_memcpy_write_tma_total:device_to_device_bidirectional_memcpy_write_sm_total \
    device_local_copy_tma:device_local_copy
fi
if fits 40; then multinode_step 2; else skipped "mpirun -n 2"; fi
if fits 50; then kill_step multinode_device_to_device_memcpy_read_ce; else skipped "rank killed"; fi
if fits 90; then gpu_tests_step; else skipped "GPU tests"; fi

write_summary "Validation on 2 GPUs" side_by_side.md tma.md mpirun_n2.md text_vs_json.md
