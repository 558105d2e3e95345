"""What the tests of the GPU acceptance scripts (test_gpu_acceptance_*.py) share: running a
script with the fake and reading its summary table."""

import os
import subprocess


def run_script(source, script, fake, out, hooks):
    """tools/SCRIPT with the fake as its program and `hooks` (a dict) in its environment."""
    env = dict(os.environ)
    env.update({"NVBW_ACCEPTANCE_BINARY": fake, "NVBW_FAKE_GPUS": "1"})
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
