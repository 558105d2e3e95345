#!/usr/bin/python3
"""Runs tools/gpu_acceptance_25.sh with the GPU-less fake (nvbandwidth_fake) and checks its
logic: a package made here (the real program and the schema, as the release package lays them
out) passes every step, and one whose Version is not the program's release fails.

Usage: test_gpu_acceptance_25.py SOURCE_DIR PROGRAM FAKE_BINARY

The run and the views use the fake (NVBW_ACCEPTANCE_BINARY); the --version step the unpacked
program, as on the GPU machine.
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
from acceptance_script import at_once, rows  # noqa: E402 (rows: the summary table by step)


def make_package(source, program, version, folder):
    root = os.path.join(folder, "root")
    os.makedirs(os.path.join(root, "DEBIAN"))
    os.makedirs(os.path.join(root, "usr", "bin"))
    os.makedirs(os.path.join(root, "usr", "share", "nvbandwidth"))
    shutil.copy(program, os.path.join(root, "usr", "bin", "nvbandwidth"))
    shutil.copy(os.path.join(source, "docs", "nvbandwidth.schema.json"),
                os.path.join(root, "usr", "share", "nvbandwidth"))
    with open(os.path.join(root, "DEBIAN", "control"), "w") as control:
        control.write("Package: nvbandwidth-fleet\nVersion: %s\nArchitecture: amd64\n"
                      "Maintainer: test <test@example.invalid>\nDescription: test package\n"
                      " made by the test of gpu_acceptance_25.sh\n" % version)
    deb = os.path.join(folder, "nvbandwidth-fleet_%s.deb" % version)
    # gzip at its fastest, not dpkg-deb's default xz (2.6 s of CPU for the 5 MB program): the
    # script reads the package with dpkg-deb -f and dpkg -x, which take either.
    subprocess.run(["dpkg-deb", "-Zgzip", "-z1", "--build", "--root-owner-group", root, deb],
                   check=True, capture_output=True)
    return deb


def run_script(source, fake, deb, out):
    env = dict(os.environ)
    env.update({"NVBW_ACCEPTANCE_BINARY": fake, "NVBW_FAKE_GPUS": "2"})
    env.pop("NVBANDWIDTH_COMPAT", None)
    return subprocess.run([os.path.join(source, "tools", "gpu_acceptance_25.sh"), deb, out],
                          env=env, capture_output=True, text=True, timeout=300)


def main(source, program, fake):
    if shutil.which("dpkg-deb") is None:
        print("SKIP: dpkg-deb is not installed")
        return 77
    failures = []
    version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
    release = [l.split(": ", 1)[1] for l in version.splitlines() if l.startswith("Release: ")][0]
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out")
        # A package whose Version is not the program's release: the version and run steps fail.
        wrong = os.path.join(folder, "wrong")
        os.makedirs(wrong)
        good_deb = make_package(source, program, release, folder)
        wrong_deb = make_package(source, program, "9.9.9", wrong)
        done, undone = at_once(lambda: run_script(source, fake, good_deb, out),
                               lambda: run_script(source, fake, wrong_deb,
                                                  os.path.join(wrong, "out")))
        summary = open(os.path.join(out, "summary.md")).read()
        table = rows(summary)
        if done.returncode != 0:
            failures.append("exit %d\n%s\n%s" % (done.returncode, summary, done.stderr))
        for step in ("unpack", "version", "default run -j", "html and metrics"):
            if table.get(step, ["", ""])[1] != "PASS":
                failures.append("%s: %s" % (step, table.get(step)))
        if "release %s" % release not in table.get("default run -j", ["", "", ""])[2]:
            failures.append("the run's row does not name release %s" % release)
        for name in ("report.json", "report.html", "report.prom", "version.txt"):
            if not os.path.getsize(os.path.join(out, name)):
                failures.append("empty " + name)

        # The wrong Version's run.
        wrong_rows = rows(open(os.path.join(wrong, "out", "summary.md")).read())
        if undone.returncode != 1:
            failures.append("wrong Version: exit %d" % undone.returncode)
        for step in ("version", "default run -j"):
            if wrong_rows.get(step, ["", ""])[1] != "FAIL":
                failures.append("wrong Version, %s: %s" % (step, wrong_rows.get(step)))
    for failure in failures:
        print("FAILED: " + failure)
    if not failures:
        print("gpu_acceptance_25.sh: every step as expected on the fake, and a wrong Version fails")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3]))
