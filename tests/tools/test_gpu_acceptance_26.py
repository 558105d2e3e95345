#!/usr/bin/python3
"""Runs tools/gpu_acceptance_26.sh with the GPU-less fake (nvbandwidth_fake as both the new and
the release program) and checks its logic: identical programs pass every step; a release whose
latency is lower fails the SUM step; new runs that spend 1.3 s outside their copies (66 samples
of 20 ms: a sleep is never shorter) fail the timing step; two GPUs (no fallback to one GPU's
note) fail the rounds step.

Usage: test_gpu_acceptance_26.py SOURCE_DIR FAKE_BINARY
"""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
from acceptance_script import at_once, check, rows  # noqa: E402


def run(source, fake, out, hooks):
    env = dict(os.environ)
    env.update({"NVBW_FAKE_GPUS": "1"})
    env.pop("NVBANDWIDTH_COMPAT", None)
    env.update(hooks)
    done = subprocess.run([os.path.join(source, "tools", "gpu_acceptance_26.sh"), fake, fake, out],
                          env=env, capture_output=True, text=True, timeout=300)
    return done, rows(open(os.path.join(out, "summary.md")).read())


def main(source, fake):
    failures = []
    steps = ("default runs", "SUMs within noise", "under 1 s outside copies and latency",
             "rounds fall back on one GPU")
    with tempfile.TemporaryDirectory() as folder:
        # Three independent runs (folders of their own), at once: the second one mostly sleeps.
        (done, table), (worse, worse_table), (two, two_table) = at_once(
            lambda: run(source, fake, os.path.join(folder, "same"), {}),
            lambda: run(source, fake, os.path.join(folder, "worse"), {
                "NVBW_ACCEPTANCE_RELEASE_ENV": "NVBW_FAKE_SCALE=80",
                "NVBW_ACCEPTANCE_NEW_ENV": "NVBW_FAKE_SAMPLE_MS=20"}),
            lambda: run(source, fake, os.path.join(folder, "two"), {"NVBW_FAKE_GPUS": "2"}))
        check(done.returncode == 0, "same programs: exit %d\n%s" % (done.returncode, done.stderr),
              failures)
        for step in steps:
            check(table.get(step, ["", ""])[1] == "PASS", "same: %s" % table.get(step), failures)
        for name in ("new_1.json", "release_3.json", "compare_2.json", "rounds.txt.err"):
            check(os.path.getsize(os.path.join(folder, "same", name)) > 0, "empty " + name,
                  failures)

        check(worse.returncode == 1, "worse: exit %d" % worse.returncode, failures)
        expected = {"default runs": "PASS", "SUMs within noise": "FAIL",
                    "under 1 s outside copies and latency": "FAIL",
                    "rounds fall back on one GPU": "PASS"}
        for step, verdict in expected.items():
            check(worse_table.get(step, ["", ""])[1] == verdict, "worse: %s" %
                  worse_table.get(step), failures)

        check(two.returncode == 1, "two GPUs: exit %d" % two.returncode, failures)
        check(two_table.get("rounds fall back on one GPU", ["", ""])[1] == "FAIL",
              "two GPUs: %s" % two_table.get("rounds fall back on one GPU"), failures)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
