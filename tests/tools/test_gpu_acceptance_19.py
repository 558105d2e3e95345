#!/usr/bin/python3
"""Runs tools/gpu_acceptance_19.sh with the GPU-less fake (nvbandwidth_fake) and checks its
logic: every step row, the exit statuses it expects, and that a step that does not go as expected
is reported FAILED and fails the script.

Usage: test_gpu_acceptance_19.py SOURCE_DIR FAKE_BINARY

The fake has no host link for other processes to load, so the contention step's run gets
NVBW_FAKE_SCALE=50 (every cell at half: what the host cells see under load); its values rise with
the buffer size (NVBW_FAKE_RAMP_MIB), so -b 16 is slower; one GPU, so the device-to-device floor
of h100.txt is left out as on one H200.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance_script  # noqa: E402
from acceptance_script import check, rows  # noqa: E402


def run_script(source, fake, out, contention_env):
    return acceptance_script.run_script(
        source, "gpu_acceptance_19.sh", fake, out,
        {"NVBW_ACCEPTANCE_CONTENTION_ENV": contention_env, "NVBW_FAKE_RAMP_MIB": "8"})


def main(source, fake):
    failures = []
    with tempfile.TemporaryDirectory() as out:
        # Without the contention hook (the quiet run) the fake's contention run is not slower.
        quiet = os.path.join(out, "quiet")
        done, undone = acceptance_script.at_once(
            lambda: run_script(source, fake, out, "NVBW_FAKE_SCALE=50"),
            lambda: run_script(source, fake, quiet, ""))
        summary = open(os.path.join(out, "summary.md")).read()
        table = rows(summary)
        check(done.returncode == 0, "exit %d\n%s\n%s" % (done.returncode, summary, done.stderr),
              failures)
        expected = {"baseline": "0", "rerun 1": "0", "rerun 5": "0", "contention": "3",
                    "-b 16": "3", "--from --expect h100": "0", "run --expect h100": "0",
                    "--from --expect 500/500": "3"}
        for step, status in expected.items():
            row = table.get(step)
            check(row is not None, "no row " + step, failures)
            if row:
                check(row[1] == status and row[2] == status and row[9] == "PASS",
                      "%s: %s" % (step, row), failures)
        contention = table.get("contention", [""] * 11)
        check(contention[3] not in ("0", "-"), "contention: no SLOWER cell", failures)
        check("host copy cells: SLOWER" in contention[10], "contention: " + str(contention),
              failures)
        check(contention[7] != "-", "contention: no confirmation seconds", failures)
        check("without its device-to-device line" in table.get("run --expect h100", [""] * 11)[10],
              "one GPU: the h100 file without its device-to-device line", failures)
        check("multicast" not in open(os.path.join(out, "baseline.json")).read(),
              "a multicast testcase ran", failures)
        check(not os.path.exists(os.path.join(out, ".stop_load")), "stop file left", failures)

        # The quiet run: the script must say FAILED and exit 1 rather than pass a step that did
        # not happen.
        quiet_rows = rows(open(os.path.join(quiet, "summary.md")).read())
        check(undone.returncode == 1, "no contention: exit %d" % undone.returncode, failures)
        check(quiet_rows.get("contention", [""] * 10)[9] == "FAIL",
              "no contention: " + str(quiet_rows.get("contention")), failures)
        check(quiet_rows.get("rerun 1", [""] * 10)[9] == "PASS", "no contention: rerun", failures)
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
