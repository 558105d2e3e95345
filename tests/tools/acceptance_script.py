"""What the tests of the GPU acceptance scripts (test_gpu_acceptance_*.py) share: running a
script with the fake and reading its summary table."""

import concurrent.futures
import os
import subprocess


def run_script(source, script, fake, out, hooks):
    """tools/SCRIPT with the fake as its program and `hooks` (a dict) in its environment. Loads
    (tools/gpu_acceptance_lib.sh) get a 0.2 s head start, not 5 s: the fake has no GPU for them
    to load, so they need only be running when the measured run starts."""
    env = dict(os.environ)
    env.update({"NVBW_ACCEPTANCE_BINARY": fake, "NVBW_FAKE_GPUS": "1",
                "NVBW_ACCEPTANCE_LOAD_LEAD_S": "0.2"})
    env.update(hooks)
    return subprocess.run([os.path.join(source, "tools", script), "unused-build-dir", out],
                          env=env, capture_output=True, text=True, timeout=300)


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
