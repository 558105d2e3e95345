#!/bin/bash
# The GPU acceptance of the release packages, in one call on one GPU machine (one H200 is what it
# was written for): the package's program, unpacked as dpkg would install it, runs a default run
# whose report names the release.
#
#   tools/gpu_acceptance_25.sh PACKAGE.deb OUT_DIR
#
#   1. unpack    dpkg -x PACKAGE.deb into a temporary folder (nothing is installed)
#   2. version   its usr/bin/nvbandwidth --version says "Release: <the package's Version>"
#   3. run       a default run of it with -j (every testcase; NVBANDWIDTH_DISABLE_MULTICAST=1):
#                exit 0, a JSON document whose "release" is the package's Version, "version"
#                v0.8, a git_version, every testcase Passed or Waived, and valid against the
#                schema the package installs (where python3-jsonschema is there to check it)
#   4. views     --from the report: the HTML page has the Release row, the metrics
#                nvbandwidth_build_info{release="<Version>"}
#
# OUT_DIR gets report.json, report.err, report.html, report.prom, version.txt and summary.md (one
# markdown table of the steps, PASS or FAIL). Exit 0 when every step is as expected, 1 otherwise,
# 2 for a usage error. About 1 minute on an H200 (a default run takes about 40 s there).
#
# Test hook (tests/tools/test_gpu_acceptance_25.py runs this with the GPU-less fake):
#   NVBW_ACCEPTANCE_BINARY=PATH   the program for steps 3 and 4 instead of the unpacked one
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 PACKAGE.deb OUT_DIR" >&2
  exit 2
fi
DEB=$1
OUT=$2
# shellcheck source=tools/gpu_acceptance_lib.sh
. "$(cd "$(dirname "$0")" && pwd)/gpu_acceptance_lib.sh"  # result_row
if [ ! -f "$DEB" ] || ! VERSION=$(dpkg-deb -f "$DEB" Version 2>/dev/null); then
  echo "$0: $DEB is not a Debian package" >&2
  exit 2
fi
mkdir -p "$OUT" || exit 2
export NVBANDWIDTH_DISABLE_MULTICAST=1
UNPACKED=$(mktemp -d /tmp/nvbw_acceptance_25.XXXXXX) || exit 2
trap 'rm -rf "$UNPACKED"' EXIT
START=$(date +%s)
FAILED=0
ROWS=()

# 1. Unpack.
ok=0
dpkg -x "$DEB" "$UNPACKED" && [ -x "$UNPACKED/usr/bin/nvbandwidth" ] && ok=1
result_row unpack "$ok" "$(basename "$DEB"), Version $VERSION"
PROGRAM=$UNPACKED/usr/bin/nvbandwidth
BIN=${NVBW_ACCEPTANCE_BINARY:-$PROGRAM}

# 2. The unpacked program's --version.
"$PROGRAM" --version >"$OUT/version.txt" 2>&1
status=$?
ok=0
[ "$status" = 0 ] && grep -qx "Release: $VERSION" "$OUT/version.txt" && ok=1
result_row version "$ok" "exit $status, $(grep '^Release:' "$OUT/version.txt" || echo 'no Release line')"

# 3. A default run.
t0=$(date +%s)
timeout -s INT -k 20 420 "$BIN" -j >"$OUT/report.json" 2>"$OUT/report.err"
status=$?
wall=$(($(date +%s) - t0))
SCHEMA=$UNPACKED/usr/share/nvbandwidth/nvbandwidth.schema.json
check=$(/usr/bin/python3 - "$OUT/report.json" "$VERSION" "$SCHEMA" <<'EOF'
import json, sys
try:
    run = json.load(open(sys.argv[1]))["nvbandwidth"]
except Exception as e:
    print("0 not a JSON report: %s" % e); sys.exit(0)
problems = []
if run.get("release") != sys.argv[2]:
    problems.append("release %r, not %r" % (run.get("release"), sys.argv[2]))
if run.get("version") != "v0.8":
    problems.append("version %r" % run.get("version"))
if not isinstance(run.get("git_version"), str) or not run.get("git_version"):
    problems.append("no git_version")
entries = run.get("testcases", [])
bad = [t.get("name") for t in entries if t.get("status") not in ("Passed", "Waived")]
if not entries:
    problems.append("no testcases")
if bad:
    problems.append("not Passed or Waived: %s" % ", ".join(map(str, bad)))
if "error" in run:
    problems.append("error: %s" % run["error"])
schema = "schema not checked (no python3-jsonschema)"
try:
    import jsonschema
    jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[3])))
    schema = "valid against the package's schema"
except ImportError:
    pass
except Exception as e:
    problems.append("not valid against the package's schema: %s" % str(e).splitlines()[0])
passed = sum(1 for t in entries if t.get("status") == "Passed")
waived = sum(1 for t in entries if t.get("status") == "Waived")
note = "release %s, %d entries (%d Passed, %d Waived), %s" % (
    run.get("release"), len(entries), passed, waived, schema)
print(("0 " + "; ".join(problems) + "; " + note) if problems else ("1 " + note))
EOF
)
ok=${check%% *}
[ "$status" = 0 ] || ok=0
result_row "default run -j" "$ok" "exit $status, ${wall} s, ${check#* }"

# 4. The report's HTML page and metrics.
"$BIN" --from "$OUT/report.json" --html "$OUT/report.html" --metrics "$OUT/report.prom" \
  >"$OUT/views.err" 2>&1
status=$?
ok=0
[ "$status" = 0 ] && grep -q "<th>Release</th><td>$VERSION</td>" "$OUT/report.html" &&
  grep -q "^nvbandwidth_build_info{.*release=\"$VERSION\"" "$OUT/report.prom" && ok=1
result_row "html and metrics" "$ok" "exit $status, $(grep -c '^nvbandwidth_build_info{' "$OUT/report.prom" 2>/dev/null || echo 0) build_info series"

TOTAL=$(($(date +%s) - START))
{
  echo "# Release package acceptance on $(hostname) ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  echo
  echo "Package: \`$(basename "$DEB")\` (Version $VERSION), program \`$BIN\`, NVBANDWIDTH_DISABLE_MULTICAST=1; total ${TOTAL} s."
  echo
  echo "| step | result | note |"
  echo "|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  if [ "$FAILED" = 0 ]; then echo "All steps as expected."; else echo "Some steps FAILED."; fi
} >"$OUT/summary.md"
cat "$OUT/summary.md"
exit "$FAILED"
