#!/usr/bin/python3
"""Runs tools/gpu_acceptance_29.sh with the GPU-less fake (nvbandwidth_fake) and checks its
logic: on a fake H200 (one GPU of 143771 MiB) every step passes and the summary carries the -b
90000 message; where a step cannot go as on the H200 it is reported FAIL and fails the script
(a GPU that holds two 90000 MiB buffers; two GPUs, which waive nothing).

Usage: test_gpu_acceptance_29.py SOURCE_DIR FAKE_BINARY
"""

import os
import subprocess
import sys
import tempfile

from acceptance_script import at_once, rows  # rows: the summary table by step


def run_script(source, fake, out, machine):
    env = dict(os.environ, NVBW_ACCEPTANCE_BINARY=fake, CHECK_CLIENTS_REAL_ENV=machine)
    return subprocess.run(
        [os.path.join(source, "tools", "gpu_acceptance_29.sh"), "unused-build-dir", out],
        env=env, capture_output=True, text=True, timeout=300)


def main(source, fake):
    failures = []
    h200 = "NVBW_FAKE_GPUS=1 NVBW_FAKE_GPU_MEMORY_MIB=143771"
    cases = [
        (h200, 0, {"-b 90000": "PASS", "waived in the middle": "PASS", "clients": "PASS"}),
        ("NVBW_FAKE_GPUS=1", 1, {"-b 90000": "FAIL", "waived in the middle": "PASS"}),
        ("NVBW_FAKE_GPUS=2 NVBW_FAKE_GPU_MEMORY_MIB=143771", 1,
         {"-b 90000": "PASS", "waived in the middle": "FAIL"}),
    ]
    with tempfile.TemporaryDirectory() as folder:
        outs = [os.path.join(folder, str(i)) for i in range(len(cases))]
        # The machines' runs are independent (folders of their own): at once.
        runs = at_once(*[(lambda out=out, machine=case[0]: run_script(source, fake, out, machine))
                         for out, case in zip(outs, cases)])
        for out, done, (machine, status, expected) in zip(outs, runs, cases):
            with open(os.path.join(out, "summary.md")) as f:
                summary = f.read()
            table = rows(summary)
            if done.returncode != status:
                failures.append("%s: exit %d, not %d\n%s%s" % (machine, done.returncode, status,
                                                              summary, done.stderr))
            for step, verdict in expected.items():
                row = table.get(step)
                if not row or row[4] != verdict:
                    failures.append("%s: step %s: %r, not %s" % (machine, step, row, verdict))
            if status == 0 and "GPU 0 cannot hold this testcase's 2 buffers of 90000 MiB" \
                    not in summary:
                failures.append("%s: the summary lacks the -b 90000 message" % machine)
            for name in ("lines.txt", "clients.txt", "outputs/lines/lines/b90000.err"):
                if not os.path.exists(os.path.join(out, name)):
                    failures.append("%s: no %s in the results" % (machine, name))
    for f in failures:
        print("FAIL " + f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
