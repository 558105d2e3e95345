#!/bin/sh
# The HTML report in a real browser: renders REPORT.json with NVBANDWIDTH (--html --from), lets
# headless Chromium (the distribution's package) parse it, checks the DOM it built against the report
# (CHECKER: check_rendered_dom.py) and takes a 1280x2400 screenshot, which must be a PNG of that
# size. Exits 77 (CTest: skipped) where no chromium is installed, so the test never passes without
# a browser having looked at the page.
#
# Usage: test_html_report_browser.sh NVBANDWIDTH REPORT.json CHECKER [BASELINE.json]
# With BASELINE the page is that of `--compare BASELINE REPORT --html`: the report with its
# comparison with the baseline.
set -eu
renderer=$1
report=$2
checker=$3
baseline=${4:-}

browser=
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then
    browser=$(command -v "$candidate")
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIP: no chromium or chromium-browser on PATH (Debian: apt-get install chromium)"
  exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed to read the DOM"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$baseline" ]; then
  # Exit 3 (a cell SLOWER) is a comparison's answer, not a failure to render.
  "$renderer" --compare "$baseline" "$report" --html "$work/report.html" >/dev/null ||
    [ $? -eq 3 ] || { echo "FAIL: --compare --html failed"; exit 1; }
else
  "$renderer" --html "$work/report.html" --from "$report"
fi

# Root in CI: Chromium's sandbox needs --no-sandbox there. A private profile keeps runs apart.
browse() {
  echo "$browser --headless --no-sandbox --disable-gpu --disable-dev-shm-usage" \
    "--user-data-dir=$work/profile $*" >&2
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$work/profile" "$@" 2>>"$work/browser.log"
}

if ! browse --dump-dom "file://$work/report.html" >"$work/dom.html"; then
  echo "FAIL: chromium --dump-dom failed"; cat "$work/browser.log"; exit 1
fi
python3 "$checker" "$work/dom.html" "$report"

shot="--screenshot=$work/shot.png"
if ! browse "$shot" --window-size=1280,2400 "file://$work/report.html" >/dev/null; then
  echo "FAIL: chromium --screenshot failed"; cat "$work/browser.log"; exit 1
fi
python3 - "$work/shot.png" <<'PY'
import struct, sys
with open(sys.argv[1], "rb") as f:
    data = f.read()
if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("FAIL: the screenshot is not a PNG (%d bytes)" % len(data))
width, height = struct.unpack(">II", data[16:24])
if (width, height) != (1280, 2400):
    sys.exit("FAIL: the screenshot is %dx%d, expected 1280x2400" % (width, height))
print("screenshot: PNG %dx%d, %d bytes" % (width, height, len(data)))
PY
