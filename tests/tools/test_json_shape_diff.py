#!/usr/bin/python3
"""tools/json_shape_diff.py on made-up documents: the same shape passes, added keys pass and are
listed, a key the release has and the new build lacks fails, and so does a changed status."""
import copy, json, os, subprocess, sys, tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "json_shape_diff.py")
BASE = {"nvbandwidth": {"version": "v0.8", "timing": {"wall_seconds": 1.0},
                        "testcases": [{"name": "a", "status": "Passed", "bandwidth_matrix": [["1"]]},
                                      {"name": "b", "status": "Waived"}]}}


def run(new):
    with tempfile.TemporaryDirectory() as d:
        for i in (1, 2, 3):
            json.dump(BASE, open(os.path.join(d, "release_%d.json" % i), "w"))
            json.dump(new, open(os.path.join(d, "new_%d.json" % i), "w"))
        return subprocess.run([sys.executable, TOOL, d], capture_output=True, text=True)


failures = []
same = run(BASE)
if same.returncode != 0: failures.append("same shape failed: " + same.stdout)
added = copy.deepcopy(BASE); added["nvbandwidth"]["operations"] = {"copies": 3}
r = run(added)
if r.returncode != 0 or "/nvbandwidth/operations" not in r.stdout: failures.append("added key: " + r.stdout)
missing = copy.deepcopy(BASE); del missing["nvbandwidth"]["timing"]["wall_seconds"]
r = run(missing)
if r.returncode != 1 or "/nvbandwidth/timing/wall_seconds" not in r.stdout: failures.append("missing key passed")
status = copy.deepcopy(BASE); status["nvbandwidth"]["testcases"][1]["status"] = "Error"
if run(status).returncode != 1: failures.append("a changed status passed")
print("\n".join(failures) or "json_shape_diff: 4 cases as expected")
sys.exit(1 if failures else 0)
