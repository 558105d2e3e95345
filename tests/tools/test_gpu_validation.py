#!/usr/bin/python3
"""Runs tools/gpu_validation_x2.sh or tools/gpu_validation_multi.sh with the GPU-less fakes
(nvbandwidth_fake as ours and as upstream's binary, nvbandwidth_mpi_fake under mpirun
--oversubscribe) and checks their logic: the plan printed first, every check's row, that a check
that cannot pass on the fake FAILs and fails the script, and that no multicast testcase is run
although the MPI program lists two (the broadcasts), nor can be.

Usage: test_gpu_validation.py SOURCE_DIR x2|multi FAKE MPI_FAKE GPU_TESTS

Where the fake cannot stand for a GPU, small stand-ins written here take its place: an MPI
program whose rank 0 prints one document when mpirun stops it (the kill check's passing side),
gtest's summary lines of a passing GPU test binary, an upstream 10% slower (x2), and (multi) our program with a --schedule
option that runs the fake pair by pair whatever it is given (the pairs/rounds check's logic).
"""

import concurrent.futures
import json
import os
import stat
import subprocess
import sys
import tempfile

MPI_STANDIN = """#!/bin/bash
# The long run only (-i): rank 1 sleeps until it is killed; rank 0, stopped by mpirun, writes
# one document to its --output file. Anything else (-l, the multinode run) lists and prints
# nothing.
case " $* " in *" -i "*) ;; *) exit 0 ;; esac
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then sleep 120; exit 0; fi
while [ $# -gt 0 ] && [ "$1" != --output ]; do shift; done
output=$2
trap 'echo "{\\"nvbandwidth\\": {\\"testcases\\": []}}" >"$output"; echo "nvbandwidth: rank 0: rank 1 stopped answering" >&2;
  exit 1' TERM
sleep 120 &
wait
"""
GTEST_STANDIN = """#!/bin/sh
echo "[==========] 37 tests from 7 test suites ran. (21711 ms total)"
echo "[  PASSED  ] 37 tests."
"""
SCHEDULE_STANDIN = """#!/bin/bash
# The fake with a --schedule option: --help shows it, runs drop it.
if [ "$1" = --help ]; then "%(fake)s" --help; echo "  --schedule arg  pairs or rounds"; exit; fi
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --schedule ]; then shift 2; continue; fi
  args+=("$1"); shift
done
exec "%(fake)s" "${args[@]}"
"""


def rows(summary):
    """The summary's table: {step: [its cells]}."""
    table = [line for line in summary.splitlines() if line.startswith("| ") and "---" not in line]
    return {cells[0]: cells for cells in
            ([c.strip() for c in line.strip("|").split("|")] for line in table[1:])}


def check(condition, message, failures):
    if not condition:
        failures.append(message)


def at_once(*calls):
    """Runs the calls (functions of no argument: script runs into folders of their own) at once,
    each in a thread; returns their results in order. The runs mostly wait (on the launcher, on
    sleeps of the fake or of the script), so together they take about as long as the longest."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
        return [future.result() for future in futures]


def write_script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def run_script(source, script, out, ours, upstream, env):
    full = dict(os.environ, NVBW_VALIDATION_BINARY=ours, OMPI_MCA_rmaps_base_oversubscribe="1")
    full.update(env)
    return subprocess.run([os.path.join(source, "tools", script), "unused-build-dir", upstream,
                           out], env=full, capture_output=True, text=True, timeout=400)


def verdicts(out):
    with open(os.path.join(out, "summary.md")) as f:
        summary = f.read()
    return summary, {name: cells[1] for name, cells in rows(summary).items()}


def no_multicast(out, failures):
    """Nothing run named a multicast testcase, and no output holds one."""
    for name in os.listdir(out):
        path = os.path.join(out, name)
        if os.path.isfile(path):
            with open(path, errors="replace") as f:
                text = f.read()
            for word in ("multicast", "broadcast"):
                bad = [line for line in text.splitlines() if word in line and
                       not line.startswith(("|", "  ", "Ours:", "```"))]
                check(not bad, "%s: %s in %s" % (name, word, bad[:2]), failures)


def refusal(source, out, failures):
    """The guard itself refuses a multicast testcase and runs nothing."""
    lib = os.path.join(source, "tools", "gpu_validation_lib.sh")
    done = subprocess.run(
        ["bash", "-c", '. "$0"; OUT="$1"; guarded touch "$1/ran" -t '
         'multinode_device_to_device_broadcast_one_to_all_sm', lib, out],
        capture_output=True, text=True)
    check(done.returncode == 2 and "refusing" in done.stderr, "refusal: %d %s" % (
        done.returncode, done.stderr), failures)
    check(not os.path.exists(os.path.join(out, "ran")), "refusal: the command ran", failures)


def expect(table, expected, label, failures):
    for name, verdict in expected.items():
        check(table.get(name) == verdict, "%s: %s is %r, not %s" % (label, name, table.get(name),
                                                                   verdict), failures)


def main(source, mode, fake, mpi_fake, gpu_tests):
    failures = []
    mpi_listing = subprocess.run(
        ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", "2", mpi_fake, "-l"],
        capture_output=True, text=True, env=dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1"))
    check("broadcast" in mpi_listing.stdout, "the MPI fake lists no broadcast testcase: the "
          "exclusion would not be tested", failures)
    with tempfile.TemporaryDirectory() as tmp:
        gpus = "2" if mode == "x2" else "4"
        script = "gpu_validation_%s.sh" % mode
        # mpirun sends the survivors SIGTERM odls_base_sigkill_timeout after a rank dies and
        # SIGKILL as long again later: 2 s, not the default 1 s, so that rank 0 has 2 s to
        # write its report on a loaded machine (it needs about 0.15 s). Rank 1 is killed 1 s
        # after it starts (the MPI fake is past its start-up in about 0.4 s), and only the
        # killed run's samples take 50 ms (its -i 3000 outlasts the kill).
        env = {"NVBW_FAKE_GPUS": gpus, "NVBW_VALIDATION_MPI_BINARY": mpi_fake,
               "OMPI_MCA_odls_base_sigkill_timeout": "2",
               "NVBW_VALIDATION_KILL_AFTER_S": "1",
               "NVBW_VALIDATION_KILL_ENV": "NVBW_FAKE_SAMPLE_MS=50",
               "NVBW_VALIDATION_GPU_TESTS": gpu_tests,
               "NVBW_VALIDATION_MPI_ENV": "NVBW_FAKE_GPUS=%s" % gpus}
        out = os.path.join(tmp, "fake")

        # The stand-ins: the passing side of what the fake cannot do.
        env2 = dict(env, NVBW_VALIDATION_GPU_TESTS=write_script(
            os.path.join(tmp, "gtest"), GTEST_STANDIN))
        ours, upstream = fake, fake
        if mode == "x2":
            env2["NVBW_VALIDATION_MPI_BINARY"] = write_script(os.path.join(tmp, "mpi"),
                                                              MPI_STANDIN)
            # An upstream 10% slower than ours: the side by side must say so.
            upstream = write_script(os.path.join(tmp, "slower"),
                                    "#!/bin/sh\nNVBW_FAKE_SCALE=90 exec %s \"$@\"\n" % fake)
        else:
            env2["NVBW_FAKE_GPUS"] = "8"
            env2["NVBW_VALIDATION_MPI_ENV"] = "NVBW_FAKE_GPUS=8"
            ours = write_script(os.path.join(tmp, "schedule"), SCHEDULE_STANDIN % {"fake": fake})
        out2 = os.path.join(tmp, "standins")
        # A budget too small for anything: every step is reported not run, and the script fails.
        out3 = os.path.join(tmp, "no_budget")

        # The three runs are independent (their own folders, their own ranks' tags) and mostly
        # wait (mpirun's start and its kill sequence).
        done, done2, done3 = at_once(
            lambda: run_script(source, script, out, fake, fake, env),
            lambda: run_script(source, script, out2, ours, upstream, env2),
            lambda: run_script(source, script, out3, fake, fake,
                               dict(env, NVBW_VALIDATION_BUDGET_S="1")))

        summary, table = verdicts(out)
        check(done.stderr.startswith("Plan (%s GPUs" % gpus), "no plan first: " +
              done.stderr[:200], failures)
        # x2: the GPU tests cannot run here, so the script fails; multi: every check can pass.
        status = 1 if mode == "x2" else 0
        check(done.returncode == status, "exit %d, not %d\n%s" % (
            done.returncode, status, done.stderr[-3000:]), failures)
        common = {"GPUs": "PASS", "side_by_side": "PASS", "text_vs_json": "PASS",
                  "side-by-side rounds": "PASS",
                  "mpirun_n" + gpus: "PASS"}
        if mode == "x2":
            common.update({"tma": "PASS", "GPU tests": "FAIL"})
            check("exit 77, 0 ran" in summary, "the GPU tests' skip is not reported", failures)
            # Rank 1 killed: rank 0 gives up waiting for it and its --output file is one whole
            # document naming the interruption (the MPI fake runs the real MPI layer).
            common["rank killed"] = "PASS"
            with open(os.path.join(out, "mpi_killed.json")) as f:
                killed = json.load(f)["nvbandwidth"]
            check("while waiting for the other processes" in killed.get("error", "") or
                  "no answer from the other processes" in killed.get("error", ""),
                  "the killed-rank document does not name the failure: %r" % killed.get("error"),
                  failures)
            check("waited for: " in killed.get("error_detail", ""),
                  "the killed-rank document has no error_detail", failures)
        else:
            common.update({"walls": "PASS", "sampling": "PASS", "--summarize": "PASS"})
            # The fake is built from this tree: with --schedule it measures pairs against rounds
            # (on the fake's links rounds may fall back to pairs: the cells agree either way).
            helped = subprocess.run([fake, "--help"], capture_output=True, text=True).stdout
            if "--schedule" in helped:
                common.update({"pairs/rounds": None, "pairs_vs_rounds": "PASS"})
            else:
                common["pairs/rounds"] = "not in this build"
            common["topology"] = "PASS" if os.path.exists("/usr/bin/nvidia-smi") else "n/a"
        expect(table, common, "fake", failures)
        with open(os.path.join(out, "commands.txt")) as f:
            commands = f.read()
        check("-t multinode_" in commands, "no multinode run in commands.txt", failures)
        no_multicast(out, failures)
        refusal(source, tmp, failures)

        summary2, table2 = verdicts(out2)
        if mode == "x2":
            expect(table2, {"rank killed": "PASS", "GPU tests": "PASS", "mpirun -n 2": "FAIL",
                            "side_by_side": "FAIL", "text_vs_json": "PASS"}, "stand-ins", failures)
            check("beyond noise (host_to_device_memcpy_ce" in summary2,
                  "a 10% slower upstream is not named", failures)
            check("37 ran, 37 passed, 0 skipped" in summary2, "GPU test counts", failures)
        else:
            expect(table2, {"pairs/rounds": None, "pairs_vs_rounds": "PASS",
                            "schedule_walls": "PASS", "side_by_side": "PASS",
                            "mpirun_n8": "PASS"}, "stand-ins", failures)
            check("the core testcases" in done2.stderr, "8 GPUs: the plan does not fall back "
                  "to the core testcases\n" + done2.stderr[:600], failures)
            check(done2.returncode == 0, "stand-ins: exit %d\n%s" % (done2.returncode,
                                                                   done2.stderr[-3000:]), failures)
        no_multicast(out2, failures)

        summary3, table3 = verdicts(out3)
        check(done3.returncode == 1, "no budget: exit %d" % done3.returncode, failures)
        check(table3.get("side-by-side rounds") == "FAIL" and "0 of 3" in summary3,
              "no budget: the rounds row\n" + summary3[:1500], failures)
        later = "GPU tests" if mode == "x2" else "-P sampling"
        check(table3.get(later) == "FAIL" and "the budget was spent" in summary3,
              "no budget: %s %r" % (later, table3.get(later)), failures)
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
