#!/usr/bin/python3
"""tools/gpu_acceptance.sh and tools/gpu_acceptance_report.py on the fake: the scenarios that need
no GPU tests run end to end and the report finds nothing wrong; then each thing the report must
catch is planted in a copy of that output, and it exits 1 naming it.

Usage: test_gpu_acceptance.py source_DIR FAKE
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def report(source, out):
    done = subprocess.run(["/usr/bin/python3", os.path.join(source, "tools",
                                                            "gpu_acceptance_report.py"), out],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    return done.returncode, done.stdout


def expect(condition, message, text=""):
    if not condition:
        print("FAIL: " + message + "\n" + text)
        sys.exit(1)


def run_scenarios(source, fake, out):
    env = dict(os.environ, NVBW_BIN=fake, NVBW_RELEASE=fake, ROUNDS="2", RUN_LIMIT_S="120",
               NVBW_FAKE_GPUS="1")
    env.pop("NVBW_UPSTREAM", None)
    subprocess.run([os.path.join(source, "tools", "gpu_acceptance.sh"), out, "default", "v010"],
                   env=env, check=True, cwd=source)
    bad = subprocess.run([os.path.join(source, "tools", "gpu_acceptance.sh"), out, "nonsense"],
                         env=env, check=False, cwd=source, stderr=subprocess.PIPE, text=True)
    expect(bad.returncode == 2 and "unknown scenario nonsense" in bad.stderr,
           "an unknown scenario is refused", bad.stderr)


def rewrite(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    expect(old in text, f"{old!r} is in {path}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def main():
    source, fake = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "good")
        run_scenarios(source, fake, out)
        status, text = report(source, out)
        expect(status == 0, "the fake's runs pass", text)
        expect(re.search(r"\| host_to_device_memcpy_ce \| [0-9.]+ \| [0-9.]+ \| [-+][0-9.]+% \|",
                         text), "the SUM table has ours, the release and the difference", text)
        expect("missing in ours 0" in text, "the same build has every key path", text)
        expect(", the same with numbers masked" in text, "--from prints the text run's lines", text)
        expect(re.search(r"ours: seconds outside the timed copies and latency: [0-9.]+, [0-9.]+",
                         text), "one outside time per -j run", text)
        expect("Waived device_to_device_memcpy_read_ce: needs two GPUs" in text,
               "v0.10's Waived line", text)

        cases = {
            "a run that exited 137": lambda d: rewrite(os.path.join(d, "default", "runs.txt"),
                                                       "ours.1 rc=0", "ours.1 rc=137"),
            "key path /nvbandwidth/settings of the release is missing": lambda d: [rewrite(
                os.path.join(d, "default", f"ours.{n}.out"), '"settings"', '"settingz"')
                for n in (1, 2)],
            "--from prints other lines than a text run": lambda d: rewrite(
                os.path.join(d, "default", "ours-from.out"), "Running host_to_device_memcpy_ce.",
                "Running host_to_device_memcpy_sm."),
            "--compat v0.10 printed no Waived line": lambda d: rewrite(
                os.path.join(d, "v010", "waived.out"), "Waived ", "Skipped "),
        }
        for n, (problem, change) in enumerate(cases.items()):
            copy = os.path.join(tmp, f"bad{n}")
            shutil.copytree(out, copy)
            change(copy)
            status, text = report(source, copy)
            wanted = "exited 137" if problem.startswith("a run") else problem
            expect(status == 1 and wanted in text, f"the report catches {problem}", text)

        tests = os.path.join(tmp, "tests", "tests")
        os.makedirs(tests)
        with open(os.path.join(tests, "gpu-tests.out"), "w", encoding="utf-8") as f:
            f.write("[  FAILED  ] HostPaths.Fill (3 ms)\n[  PASSED  ] 3 tests.\n"
                    "[  FAILED  ] 1 test, listed below:\n[  FAILED  ] HostPaths.Fill\n")
        status, text = report(source, os.path.join(tmp, "tests"))
        expect(status == 1 and "GPU test HostPaths.Fill failed" in text
               and "3 passed, 1 failed" in text, "a failed GPU test", text)
    print("gpu_acceptance: all checks passed")


if __name__ == "__main__":
    main()
