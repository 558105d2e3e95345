#!/usr/bin/python3
"""Runs tools/gpu_acceptance_23.sh with the GPU-less fake (nvbandwidth_fake) and checks its logic:
every step row, the exit statuses it expects, the failing cells it lists, and that a step that
does not go as expected is reported FAILED and fails the script.

Usage: test_gpu_acceptance_23.py SOURCE_DIR FAKE_BINARY

The fake has no GPU for a second process to load, so the contention steps' runs get what the
load does to a real H200 through the fake's knobs: the local contention NVBW_FAKE_SLOWDOWN=30 and
noise (every cell slower, the latency among them), the host contention host copies at 60%
(NVBW_FAKE_HOST_SCALE). One GPU, as on one H200.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance_script  # noqa: E402
from acceptance_script import check, rows  # noqa: E402


def run_script(source, fake, out, local_env, host_env):
    return acceptance_script.run_script(
        source, "gpu_acceptance_23.sh", fake, out,
        {"NVBW_ACCEPTANCE_LOCAL_ENV": local_env, "NVBW_ACCEPTANCE_HOST_ENV": host_env})


def main(source, fake):
    failures = []
    with tempfile.TemporaryDirectory() as out:
        # Without the hooks (the quiet run) the fake's contention runs are not slower.
        quiet = os.path.join(out, "quiet")
        done, undone = acceptance_script.at_once(
            lambda: run_script(source, fake, out, "NVBW_FAKE_SLOWDOWN=30 NVBW_FAKE_NOISE=3",
                               "NVBW_FAKE_HOST_SCALE=60"),
            lambda: run_script(source, fake, quiet, "", ""))
        summary = open(os.path.join(out, "summary.md")).read()
        table = rows(summary)
        check(done.returncode == 0, "exit %d\n%s\n%s" % (done.returncode, summary, done.stderr),
              failures)
        expected = {"baseline": "0", "rerun 1": "0", "rerun 5": "0", "local contention": "3",
                    "host contention": "3"}
        for step, status in expected.items():
            row = table.get(step)
            check(row is not None, "no row " + step, failures)
            if row:
                check(row[1] == status and row[2] == status and row[9] == "PASS",
                      "%s: %s" % (step, row), failures)
        for step in ("rerun 1", "rerun 2", "rerun 3", "rerun 4", "rerun 5"):
            row = table.get(step, [""] * 11)
            check(row[3] == "0" and row[4] == "0", "%s: failing cells %s" % (step, row), failures)
        local = table.get("local contention", [""] * 11)
        check(local[7] != "-", "local contention: no confirmation seconds", failures)
        check("host_device_latency_sm[0][0] SLOWER" in summary or
              "host_device_latency_sm[0][0] UNSTABLE" in summary,
              "local contention: the latency cell is not listed as failing\n" + summary, failures)
        check("host_to_device_memcpy_ce[0][0]" in summary.split("Failing cells of host")[-1],
              "host contention: the host cell is not listed\n" + summary, failures)
        check("multicast" not in open(os.path.join(out, "baseline.json")).read(),
              "a multicast testcase ran", failures)
        check(not os.path.exists(os.path.join(out, ".stop_load")), "stop file left", failures)

        # The quiet run: the script must say FAILED and exit 1 rather than pass steps that did
        # not happen.
        quiet_rows = rows(open(os.path.join(quiet, "summary.md")).read())
        check(undone.returncode == 1, "no contention: exit %d" % undone.returncode, failures)
        for step in ("local contention", "host contention"):
            check(quiet_rows.get(step, [""] * 10)[9] == "FAIL",
                  "no contention: " + str(quiet_rows.get(step)), failures)
        check(quiet_rows.get("rerun 1", [""] * 10)[9] == "PASS", "no contention: rerun", failures)
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
