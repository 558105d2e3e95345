# What the GPU acceptance scripts (tools/gpu_acceptance_*.sh) share; sourced, never run. The
# caller sets BUILD_DIR and OUT first; `acceptance_start` then checks the program, makes OUT,
# sets BIN, START and TESTCASES (every testcase the program lists, but multicast ones) and
# exports NVBANDWIDTH_DISABLE_MULTICAST=1. NVBW_ACCEPTANCE_BINARY replaces BUILD_DIR/nvbandwidth
# (the scripts' ctests run them with the GPU-less fake).

acceptance_start() {
  BIN=${NVBW_ACCEPTANCE_BINARY:-$BUILD_DIR/nvbandwidth}
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
  mapfile -t TESTCASES < <("$BIN" -l | sed -n 's/^[0-9][0-9]*, \([A-Za-z0-9_]*\):$/\1/p' |
    grep -v multicast)
  if [ ${#TESTCASES[@]} -eq 0 ]; then
    echo "$0: $BIN -l listed no testcases" >&2
    exit 1
  fi
}

# run FILE [ENV...] -- ARGS...: the program with ARGS (and ENV words in its environment), stdout
# to OUT/FILE, stderr to OUT/FILE.err, under a limit of RUN_LIMIT_S seconds (default 300); sets
# STATUS and WALL (seconds).
run() {
  local name=$1
  shift
  local env=()
  while [ "$1" != "--" ]; do
    env+=("$1")
    shift
  done
  shift
  local t0 tenths
  t0=$(date +%s%N)
  timeout -s INT -k 20 "${RUN_LIMIT_S:-300}" env "${env[@]}" "$BIN" "$@" >"$OUT/$name" \
    2>"$OUT/$name.err"
  STATUS=$?
  tenths=$((($(date +%s%N) - t0 + 50000000) / 100000000))
  WALL=$((tenths / 10)).$((tenths % 10))
}

# Loads on the same GPU: `load TESTCASE SAMPLES` runs `BIN -t TESTCASE -i SAMPLES` in a loop until
# `stop_loads`, which ends each loop (a stop file) and the copy under way (SIGTERM to the loops'
# children, found through /proc: no procps needed). `loads_lead` waits for the loads to be past
# their start-up and copying before the measured run: 5 s, or NVBW_ACCEPTANCE_LOAD_LEAD_S (the
# scripts' tests, where the fake has no GPU to load and the loads only need to be running).
LOADS=()
loads_lead() { sleep "${NVBW_ACCEPTANCE_LOAD_LEAD_S:-5}"; }
load() {
  bash -c 'while [ ! -e "$3" ]; do "$0" -t "$1" -i "$2" >/dev/null 2>&1; done' \
    "$BIN" "$1" "$2" "$OUT/.stop_load" &
  LOADS+=($!)
}
children_of() {
  local status
  for status in /proc/[0-9]*/status; do
    if grep -q "^PPid:[[:space:]]*$1\$" "$status" 2>/dev/null; then
      status=${status#/proc/}
      echo "${status%/status}"
    fi
  done
}
stop_loads() {
  touch "$OUT/.stop_load"
  local pid child
  for pid in "${LOADS[@]}"; do
    for child in $(children_of "$pid"); do kill -TERM "$child" 2>/dev/null; done
  done
  for pid in "${LOADS[@]}"; do wait "$pid"; done
  LOADS=()
  rm -f "$OUT/.stop_load"
}

# step_result STATUS EXPECTED OK: PASS when the exit status is the expected one and the step's own
# check (OK: 1) held, else FAIL.
step_result() {
  if [ "$1" = "$2" ] && [ "$3" = 1 ]; then echo PASS; else echo FAIL; fi
}

# result_row STEP OK NOTE: a row "| STEP | PASS or FAIL | NOTE |" of the summary table, added to
# ROWS and said on stderr; FAIL (and FAILED=1) unless OK is 1.
result_row() {
  local verdict=PASS
  if [ "$2" != 1 ]; then
    verdict=FAIL
    FAILED=1
  fi
  ROWS+=("| $1 | $verdict | $3 |")
  echo "$1: $verdict $3" >&2
}
