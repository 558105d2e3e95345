#!/bin/bash
# The bash completion (packaging/bash-completion/nvbandwidth) completes from the program itself:
#   check_completion.sh COMPLETION PROGRAM
# options from its --help, testcase names from its -l (in the interface --compat chooses), the
# values of --compat and --format, and file names after the options that read files.
set -u
source "$1"
program=$2
failed=0
# complete WORDS...: COMPREPLY for the last word, as bash would ask for it.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _nvbandwidth
  [ "${#COMPREPLY[@]}" -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() {
  local want=$1
  shift
  local got
  got=$(complete_words "$@" | tr '\n' ' ')
  if [ "$got" != "$want" ]; then
    echo "FAILED: [$*] completes to [$got], not [$want]"
    failed=1
  fi
}
expect "--bufferSize " "$program" --buf
expect "--compare --compat " "$program" --com
expect "host_to_device_bidirectional_memcpy_ce host_to_device_bidirectional_memcpy_sm host_to_device_memcpy_ce host_to_device_memcpy_sm " "$program" -t host_to_d
# Several testcases after one -t; -p completes names too.
expect "device_local_copy device_local_copy_sm device_local_copy_tma " "$program" -t 0 device_local_c
expect "device_local_copy device_local_copy_sm device_local_copy_tma " "$program" -p device_local_c
expect "v0.10 v0.8 " "$program" --compat ""
expect "json " "$program" --format j
expect "" "$program" -b ""
# v0.10 lists the testcases in its own order and without the ones it does not have.
v010=$(COMP_WORDS=("$program" --compat v0.10 -t ""); COMP_CWORD=3; _nvbandwidth; printf '%s\n' "${COMPREPLY[@]}")
v08=$(COMP_WORDS=("$program" -t ""); COMP_CWORD=2; _nvbandwidth; printf '%s\n' "${COMPREPLY[@]}")
[ "$v010" != "$v08" ] || { echo "FAILED: --compat v0.10 does not change the testcases"; failed=1; }
[ "$(printf '%s\n' "$v08" | wc -l)" -eq "$("$program" -l | grep -c '^[0-9]*, ')" ] ||
  { echo "FAILED: -t completes $(printf '%s\n' "$v08" | wc -l) names"; failed=1; }
here=$(mktemp -d)
touch "$here/report.json"
expect "$here/report.json " "$program" --baseline "$here/rep"
rm -rf "$here"
[ "$failed" = 0 ] && echo "completion: options, testcases, values and files as expected"
exit "$failed"
