#!/bin/bash
# The man pages the build writes (build/man/*.1) read well and are complete:
#   check_man_page.sh PAGE PROGRAM
# - mandoc -T lint (warnings and worse) and groff's warnings as lintian runs them: none;
# - lexgrog (man-db's parser of the NAME line, which apropos and whatis use) finds the name;
# - rendered at 80 columns, the page lists every option of PROGRAM --help and every testcase of
#   PROGRAM -l.
# Exit 77 (skipped) when neither man nor mandoc is installed.
set -u
page=$1
program=$2
if ! command -v man >/dev/null 2>&1 && ! command -v mandoc >/dev/null 2>&1; then
  echo "SKIP: neither man nor mandoc is installed"
  exit 77
fi
failed=0
fail() {
  echo "FAILED: $*"
  failed=1
}
[ -s "$page" ] || {
  echo "FAILED: no page $page"
  exit 1
}
if command -v mandoc >/dev/null 2>&1; then
  lint=$(mandoc -T lint -W warning "$page" 2>&1)
  [ -z "$lint" ] || fail "mandoc -T lint: $lint"
fi
if command -v man >/dev/null 2>&1; then
  warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "groff warnings: $warnings"
  text=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -b)
else
  text=$(mandoc -T utf8 -O width=80 "$page" | col -b)
fi
if command -v lexgrog >/dev/null 2>&1; then
  lexgrog "$page" | grep -q ': "nvbandwidth[a-z-]* - measure GPU memory bandwidth and latency"$' ||
    fail "lexgrog: $(lexgrog "$page" 2>&1)"
fi
while read -r option; do
  grep -q -- "$option" <<<"$text" || fail "the page does not list $option"
done < <("$program" --help | sed -n 's/^  \(-[A-Za-z]\) \[ \(--[A-Za-z-]*\) \].*/\1, \2/p; s/^  \(--[A-Za-z-]*\).*/\1/p')
count=0
while read -r testcase; do
  count=$((count + 1))
  grep -q "^ *[0-9]*, $testcase\$" <<<"$text" || fail "the page does not list testcase $testcase"
done < <("$program" -l | sed -n 's/^[0-9][0-9]*, \([A-Za-z0-9_]*\):$/\1/p')
[ "$count" -gt 30 ] || fail "$program -l listed $count testcases"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS TESTCASES "EXIT STATUS" ENVIRONMENT FILES; do
  grep -q "^$section\$" <<<"$text" || fail "no section $section"
done
[ "$failed" = 0 ] && echo "$page: lint-clean, $count testcases and every option of --help"
exit "$failed"
