# shellcheck shell=bash
# What the multi-GPU validation scripts (tools/gpu_validation_x2.sh, gpu_validation_multi.sh)
# share; sourced, never run. `validation_start BUILD_DIR UPSTREAM OUT_DIR` checks the programs,
# makes OUT, exports NVBANDWIDTH_DISABLE_MULTICAST=1 and sets BIN, START and TESTCASES (ours,
# multicast ones left out), UPSTREAM and UP_TESTCASES (its own list, likewise), MPI_BIN,
# GPU_TESTS, BUDGET_S and TABLES. Every run goes through `guarded`, which refuses a
# command line naming a multicast testcase, and is logged in OUT/commands.txt.
#
# Test hooks (tests/tools/test_gpu_validation.py runs the scripts with the GPU-less fakes):
#   NVBW_VALIDATION_BINARY=PATH       our program instead of BUILD_DIR/nvbandwidth
#   NVBW_VALIDATION_MPI_BINARY=PATH    the MPI program instead of BUILD_DIR/multinode/nvbandwidth
#   NVBW_VALIDATION_GPU_TESTS=PATH     the GPU tests instead of BUILD_DIR/tests/nvbw_gpu_tests
#   NVBW_VALIDATION_MPI_ENV="V=X ..."  variables passed to every rank (mpirun -x)
#   NVBW_VALIDATION_BUDGET_S=S         the device time the steps may take (default 540: 9 min)
#   NVBW_VALIDATION_KILL_ENV="V=X ..." variables passed to the ranks of the rank-killed run only
#   NVBW_VALIDATION_KILL_AFTER_S=S     how long after rank 1 starts it is killed (default 8)

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TABLES=$LIB_DIR/gpu_validation_tables.py
# Two medians are the same figure when they differ by at most the larger run-to-run noise of the
# two, and never by less than this floor (percent): three runs of an unchanged H200 differ by up
# to about 2% on the host copies (docs/verdicts.md).
FLOOR_PCT=${NVBW_VALIDATION_FLOOR_PCT:-3}
# The rank-killed step kills rank 1 this long after it started: past the start-up (the
# memory-sharing probes), into the copies.
KILL_AFTER_S=${NVBW_VALIDATION_KILL_AFTER_S:-8}

validation_start() {
  if [ $# -ne 3 ]; then
    echo "usage: $0 BUILD_DIR UPSTREAM_V0.8_BINARY OUT_DIR" >&2
    exit 2
  fi
  BUILD_DIR=$1
  UPSTREAM=$2
  OUT=$3
  BIN=${NVBW_VALIDATION_BINARY:-$BUILD_DIR/nvbandwidth}
  if [ ! -x "$BIN" ]; then
    echo "$0: no program at $BIN" >&2
    exit 2
  fi
  if [ ! -x /usr/bin/python3 ]; then
    echo "$0: /usr/bin/python3 is needed to read the reports" >&2
    exit 2
  fi
  mkdir -p "$OUT" || exit 2
  export NVBANDWIDTH_DISABLE_MULTICAST=1
  START=$(date +%s)
  mapfile -t TESTCASES < <(testcases_of "$BIN")
  if [ ${#TESTCASES[@]} -eq 0 ]; then
    echo "$0: $BIN -l listed no testcases" >&2
    exit 1
  fi
  if [ ! -x "$UPSTREAM" ]; then
    echo "$0: no upstream program at $UPSTREAM" >&2
    exit 2
  fi
  mapfile -t UP_TESTCASES < <(testcases_of "$UPSTREAM")
  MPI_BIN=${NVBW_VALIDATION_MPI_BINARY:-$BUILD_DIR/multinode/nvbandwidth}
  GPU_TESTS=${NVBW_VALIDATION_GPU_TESTS:-$BUILD_DIR/tests/nvbw_gpu_tests}
  BUDGET_S=${NVBW_VALIDATION_BUDGET_S:-540}
  : >"$OUT/commands.txt"
  : >"$OUT/walls.txt"
  CHECKS=()
  PLAN=()
  PLANNED_S=0
}

# The testcases a program lists (-l), multicast ones left out.
testcases_of() {
  "$@" -l 2>/dev/null | sed -n 's/^[0-9][0-9]*, \([A-Za-z0-9_]*\):$/\1/p' | is_not_multicast
}
is_not_multicast() { grep -v -e multicast -e broadcast; }

# refuse_multicast COMMAND...: stops the script (exit 2) on a command line that names a
# multicast testcase (the multinode broadcasts are multicast ones); else logs it.
refuse_multicast() {
  local arg
  for arg in "$@"; do
    case $arg in
      *multicast* | *broadcast*)
        echo "$0: refusing to run a multicast testcase: $*" >&2
        exit 2
        ;;
    esac
  done
  echo "$*" >>"$OUT/commands.txt"
}
# guarded COMMAND...: refuse_multicast, then the command.
guarded() {
  refuse_multicast "$@"
  "$@"
}

elapsed() { echo $(($(date +%s) - START)); }

# plan NAME SECONDS WHAT: a step of the plan printed before anything runs.
plan() {
  PLAN+=("$(printf '%-22s %4d s  %s' "$1" "$2" "$3")")
  PLANNED_S=$((PLANNED_S + $2))
}
print_plan() {
  {
    echo "Plan ($(gpu_count) GPUs, budget ${BUDGET_S} s, estimated ${PLANNED_S} s):"
    printf '  %s\n' "${PLAN[@]}"
  } | tee "$OUT/plan.txt" >&2
}

# fits SECONDS: whether a step of that estimate still fits the budget.
fits() { [ $(($(elapsed) + $1)) -le "$BUDGET_S" ]; }

# The time a run may take: what is left of the budget, at most 300 s.
limit() {
  local left=$((BUDGET_S - $(elapsed)))
  [ "$left" -gt 300 ] && left=300
  [ "$left" -lt 10 ] && left=10
  echo "$left"
}

# check NAME RESULT_LINE [TABLE_FILE]: a PASS/FAIL row from a `RESULT ok|bad NOTE` line.
check() {
  local verdict=FAIL
  [ "${2%% *}" = "RESULT" ] && [ "$(echo "$2" | cut -d' ' -f2)" = ok ] && verdict=PASS
  CHECKS+=("| $1 | $verdict | $(echo "$2" | cut -d' ' -f3-) | ${3:-} |")
  echo "$1: $verdict $(echo "$2" | cut -d' ' -f3-)" >&2
}
# note NAME STATE TEXT: a row that is not a pass or a failure (n/a, not in this build).
note() { CHECKS+=("| $1 | $2 | $3 | |"); }
skipped() { CHECKS+=("| $1 | FAIL | not run: the budget was spent | |"); }

# table NAME CMD ARGS...: the tables tool's output in OUT/NAME.md, its RESULT line checked.
table() {
  local name=$1
  shift
  /usr/bin/python3 "$TABLES" "$@" >"$OUT/$name.md" 2>&1
  check "$name" "$(tail -n 1 "$OUT/$name.md")" "$name.md"
}

# run FILE -- ARGS...: BIN with ARGS, stdout to OUT/FILE, stderr to OUT/FILE.err, under a limit
# of RUN_LIMIT_S seconds (default 300); sets STATUS and WALL (seconds, one decimal).
run() {
  local name=$1
  shift 2
  local t0 tenths
  t0=$(date +%s%N)
  timeout -s INT -k 20 "${RUN_LIMIT_S:-300}" "$BIN" "$@" >"$OUT/$name" 2>"$OUT/$name.err"
  STATUS=$?
  tenths=$((($(date +%s%N) - t0 + 50000000) / 100000000))
  WALL=$((tenths / 10)).$((tenths % 10))
}

# timed NAME PROGRAM ARGS...: one run of PROGRAM (stdout OUT/NAME, stderr OUT/NAME.err) under
# the budget's limit, its wall time, exit status and peak memory (getrusage of the child,
# through tools/peak_memory.py) appended to OUT/walls.txt.
timed() {
  local name=$1
  shift
  local BIN=/usr/bin/python3
  RUN_LIMIT_S=$(limit)
  refuse_multicast "$@"
  run "$name" -- "$LIB_DIR/peak_memory.py" "$OUT/$name.rss" "$@"
  echo "$name $WALL $STATUS $(cat "$OUT/$name.rss" 2>/dev/null || echo -)" >>"$OUT/walls.txt"
}

# gpu_count: the GPUs our program sees (its -j header), cached.
gpu_count() {
  if [ -z "${GPUS:-}" ]; then
    GPUS=$("$BIN" -j -t "${TESTCASES[0]}" -i 1 2>/dev/null | /usr/bin/python3 -c \
      'import json,sys; print(len(json.load(sys.stdin)["nvbandwidth"]["GPU Device list"]))' \
      2>/dev/null || echo 0)
  fi
  echo "$GPUS"
}

# side_by_side ROUNDS ROUND_S RESERVE_S ARGS...: ours (-t TESTCASES) and upstream's
# (-t UP_TESTCASES) runs with ARGS, interleaved, up to ROUNDS each; odd rounds text (ours with
# --output .json too: the same run's document), even rounds -j. A round runs only while it still
# fits with RESERVE_S left for the later steps (its time: ROUND_S, then the last round's), and a
# row says how many ran. Tables: every SUM side by side, ours' text beside its document.
side_by_side() {
  local rounds=$1 round_s=$2 reserve=$3 r t0
  shift 3
  local ours=() ups=() done=0
  for r in $(seq 1 "$rounds"); do
    fits $((round_s + reserve)) || break
    t0=$(date +%s)
    if [ $((r % 2)) = 1 ]; then
      timed "ours.$r.txt" "$BIN" -t "${TESTCASES[@]}" "$@" --output "$OUT/ours.$r.json"
      timed "upstream.$r.txt" "$UPSTREAM" -t "${UP_TESTCASES[@]}" "$@"
      ours+=("$OUT/ours.$r.txt")
      ups+=("$OUT/upstream.$r.txt")
    else
      timed "ours.$r.json" "$BIN" -j -t "${TESTCASES[@]}" "$@"
      timed "upstream.$r.json" "$UPSTREAM" -j -t "${UP_TESTCASES[@]}" "$@"
      ours+=("$OUT/ours.$r.json")
      ups+=("$OUT/upstream.$r.json")
    fi
    round_s=$(($(date +%s) - t0 + 1))
    done=$r
  done
  if [ "$done" = "$rounds" ]; then
    check "side-by-side rounds" "RESULT ok $done of $rounds, the last ${round_s} s"
  else
    check "side-by-side rounds" "RESULT bad $done of $rounds: the budget was spent"
  fi
  OURS_RUNS=("${ours[@]}")
  [ "$done" -gt 0 ] || return
  table side_by_side sums "$FLOOR_PCT" "${ours[@]}" -- "${ups[@]}"
  table text_vs_json sums 0.1 "$OUT/ours.1.txt" -- "$OUT/ours.1.json"
}

# The seconds of a default run of ours on N GPUs at B MiB buffers (default 512), for the plan:
# 14.5 s on one H200 and 43.5 s on two (default runs), so 14.5 s a GPU and 7.3 s an ordered pair,
# the copies (85% of it) in proportion to the buffer size. Upstream's: 1.5 times as long
# (22.1 s on one H200).
estimate_ours() {
  local n=$1 b=${2:-512}
  echo $(((145 * n + 73 * n * (n - 1)) * (15 * 512 + 85 * b) / 512 / 1000 + 1))
}
estimate_upstream() { echo $(($(estimate_ours "$@") * 3 / 2)); }

# mpi ARGS...: mpirun ARGS under the budget's limit (mpirun passes the SIGTERM on to the ranks),
# NVBANDWIDTH_DISABLE_MULTICAST=1, NVBW_VALIDATION_MPI_ENV and MPI_EXTRA_ENV in every rank's
# environment (exported in a subshell: the script's own runs do not get them).
mpi() {
  local launcher=(timeout -s TERM -k 20 "$(limit)" mpirun --oversubscribe)
  [ "$(id -u)" = 0 ] && launcher+=(--allow-run-as-root)
  local word words=(NVBANDWIDTH_DISABLE_MULTICAST=1) names=() extra=()
  read -r -a extra <<<"${NVBW_VALIDATION_MPI_ENV:-}"
  words+=("${extra[@]}" "${MPI_EXTRA_ENV[@]}")
  for word in "${words[@]}"; do names+=(-x "${word%%=*}"); done
  refuse_multicast "${launcher[@]}" "${names[@]}" "$@"
  (
    for word in "${words[@]}"; do export "${word?}"; done
    exec "${launcher[@]}" "${names[@]}" "$@"
  )
}
MPI_EXTRA_ENV=()
COUNTERPARTS=()

# mpi_ready NAME: whether mpirun and the MPI program are there; a FAIL row NAME if not.
mpi_ready() {
  if command -v mpirun >/dev/null && [ -x "$MPI_BIN" ]; then return 0; fi
  check "$1" "RESULT bad no mpirun or no MPI program at $MPI_BIN"
  return 1
}

# multinode_step RANKS [ARGS...]: every unicast multinode testcase under mpirun -n RANKS (with
# ARGS: those of the side-by-side runs), one document, each beside its single-node counterpart
# in OURS_RUNS or COUNTERPARTS (more runs of ours with the same ARGS).
multinode_step() {
  local ranks=$1
  shift
  mpi_ready "mpirun -n $ranks" || return
  local names=()
  mapfile -t names < <(mpi -n "$ranks" "$MPI_BIN" -l 2>/dev/null |
    sed -n 's/^[0-9][0-9]*, \(multinode_[A-Za-z0-9_]*\):$/\1/p' | is_not_multicast)
  if [ "${#names[@]}" = 0 ]; then
    check "mpirun -n $ranks" "RESULT bad the MPI program listed no multinode testcase"
    return
  fi
  local t0
  t0=$(date +%s)
  mpi -n "$ranks" "$MPI_BIN" -j -t "${names[@]}" "$@" >"$OUT/mpi_n$ranks.json" 2>"$OUT/mpi_n$ranks.err"
  local status=$?
  echo "mpi_n$ranks.json $(($(date +%s) - t0)) $status -" >>"$OUT/walls.txt"
  table "mpirun_n$ranks" mpi "$FLOOR_PCT" "$OUT/mpi_n$ranks.json" "${OURS_RUNS[@]}" \
    "${COUNTERPARTS[@]}"
  [ "$status" = 0 ] || check "mpirun -n $ranks exit" "RESULT bad exit $status"
}

# rank_pid TAG RANK: the process of that rank among the ranks started with NVBW_VALIDATION_TAG
# (one grep reads every process's environment, so that polling for it stays cheap).
rank_pid() {
  local environ pid
  for environ in $(grep -lzxF "NVBW_VALIDATION_TAG=$1" /proc/[0-9]*/environ 2>/dev/null); do
    if grep -qzxE "(OMPI_COMM_WORLD_RANK|PMIX_RANK)=$2" "$environ" 2>/dev/null; then
      pid=${environ#/proc/}
      echo "${pid%/environ}"
      return
    fi
  done
}

# kill_step TESTCASE: mpirun -n 2 of a long run of TESTCASE (-i 3000), rank 1 killed with SIGKILL
# KILL_AFTER_S (8 s) after it started: mpirun ends within the ranks' timeout (NVBW_MPI_TIMEOUT_S
# =30) plus a margin, exits non-zero, says why (a line of ours on stderr, or the document's
# "error": mpirun's own lines do not count), and rank 0's --output file holds one JSON document
# (mpirun stops passing on rank 0's stdout once it ends the job, so stdout may be cut short).
# Rank 1's start and the job's end are polled for every 0.1 s.
kill_step() {
  mpi_ready "rank killed" || return
  local tag="kill-$$" timeout_s=30 extra=()
  read -r -a extra <<<"${NVBW_VALIDATION_KILL_ENV:-}"
  MPI_EXTRA_ENV=("NVBW_VALIDATION_TAG=$tag" "NVBW_MPI_TIMEOUT_S=$timeout_s" "${extra[@]}")
  local t0
  t0=$(date +%s)
  mpi -n 2 "$MPI_BIN" -t "$1" -i 3000 --output "$OUT/mpi_killed.json" >"$OUT/mpi_killed.txt" \
    2>"$OUT/mpi_killed.err" &
  local job=$! pid=""
  local deadline=$(($(date +%s) + 60))
  while [ -z "$pid" ] && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.1
    pid=$(rank_pid "$tag" 1)
  done
  MPI_EXTRA_ENV=()
  sleep "$KILL_AFTER_S"
  [ -n "$pid" ] && kill -KILL "$pid"
  deadline=$(($(date +%s) + timeout_s + 30))
  while kill -0 "$job" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
  local hung=0
  if kill -0 "$job" 2>/dev/null; then
    hung=1
    kill -KILL "$job"
  fi
  wait "$job"
  local status=$? took=$(($(date +%s) - t0))
  echo "mpi_killed.json $took $status -" >>"$OUT/walls.txt"
  local doc
  doc=$(/usr/bin/python3 "$TABLES" mpi 100 "$OUT/mpi_killed.json" | tail -n 1)
  local problems=()
  [ -z "$pid" ] && problems+=("rank 1 never started")
  [ "$hung" = 1 ] && problems+=("still running $((timeout_s + 30)) s after the kill")
  [ "$status" = 0 ] && problems+=("exit 0")
  case $doc in *"not a JSON document"* | *"more than one"*) problems+=("${doc#RESULT bad }") ;; esac
  # The error must be ours, not only mpirun's: a line of the program on stderr or the
  # document's "error".
  local msg
  msg=$(grep -m1 -E '^(nvbandwidth|ERROR)' "$OUT/mpi_killed.err" | cut -c1-160)
  [ -n "$msg" ] || msg=$(/usr/bin/python3 -c 'import json, sys
try:
    print(json.load(open(sys.argv[1]))["nvbandwidth"].get("error", "")[:160])
except Exception:
    pass' "$OUT/mpi_killed.json")
  [ -n "$msg" ] || problems+=("no error of ours on stderr or in the document")
  if [ ${#problems[@]} = 0 ]; then
    check "rank killed" "RESULT ok exit $status after ${took} s, one document; error: $msg"
  else
    check "rank killed" "RESULT bad $(IFS=';'; echo "${problems[*]}"); error: ${msg:--}"
  fi
}

# gpu_tests_step: the GPU tests binary; every test must run (none skipped) and pass.
gpu_tests_step() {
  if [ ! -x "$GPU_TESTS" ]; then
    check "GPU tests" "RESULT bad no GPU tests at $GPU_TESTS"
    return
  fi
  local t0
  t0=$(date +%s)
  timeout -s INT -k 20 "$(limit)" "$GPU_TESTS" >"$OUT/gpu_tests.txt" 2>&1
  local status=$?
  echo "gpu_tests $(($(date +%s) - t0)) $status -" >>"$OUT/walls.txt"
  local ran passed skipped failed
  ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$OUT/gpu_tests.txt")
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$OUT/gpu_tests.txt")
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\{0,1\},.*/\1/p' "$OUT/gpu_tests.txt")
  failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\{0,1\},.*/\1/p' "$OUT/gpu_tests.txt")
  local line="exit $status, ${ran:-0} ran, ${passed:-0} passed, ${skipped:-0} skipped, ${failed:-0} failed"
  local names
  names=$(sed -n 's/^\[  \(SKIPPED\|FAILED\) \] \([A-Za-z0-9_/.]*\)$/\2/p' "$OUT/gpu_tests.txt" |
    sort -u | head -n 8 | tr '\n' ' ')
  [ -n "$names" ] && line="$line: $names"
  if [ "$status" = 0 ] && [ "${ran:-0}" -gt 0 ] && [ "${skipped:-0}" = 0 ]; then
    check "GPU tests" "RESULT ok $line" gpu_tests.txt
  else
    check "GPU tests" "RESULT bad $line" gpu_tests.txt
  fi
}

# write_summary TITLE [EXTRA_TABLE_FILES...]: OUT/summary.md, the checks then every table; the
# exit status (0 when no check failed).
write_summary() {
  local title=$1 file failed=0
  shift
  printf '%s\n' "${CHECKS[@]}" | grep -q '^| [^|]* | FAIL |' && failed=1
  {
    echo "# $title on $(hostname) ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
    echo
    echo "Ours: \`$BIN\` ($("$BIN" --version 2>/dev/null | sed -n 's/^Built from Git version: //p')); upstream: \`$UPSTREAM\`; $(gpu_count) GPUs; NVBANDWIDTH_DISABLE_MULTICAST=1, no multicast testcase run; total $(elapsed) s of a ${BUDGET_S} s budget."
    echo
    echo "| check | result | note | table |"
    echo "|---|---|---|---|"
    printf '%s\n' "${CHECKS[@]}"
    echo
    echo '```'
    cat "$OUT/plan.txt"
    echo '```'
    for file in "$@"; do
      [ -f "$OUT/$file" ] || continue
      echo
      echo "## $file"
      echo
      grep -v '^RESULT' "$OUT/$file"
    done
    echo
    if [ "$failed" = 0 ]; then echo "Every check PASSED."; else echo "Some checks FAILED."; fi
  } >"$OUT/summary.md"
  cat "$OUT/summary.md"
  return "$failed"
}
