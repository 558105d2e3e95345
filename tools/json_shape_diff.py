#!/usr/bin/python3
"""Usage: tools/json_shape_diff.py DIR: the -j documents release_{1,2,3}.json and new_{1,2,3}.json of
DIR (default runs of the release and of the new build on one GPU machine) compared in shape: exit
1 when a key path of the release is missing from the new build or the testcases, statuses or
matrix rows differ."""
# -j documents of the new build and of the release, in shape: every key path of the release's
# documents must be in the new build's (values ignored; list items merged), new paths listed.
import json, os, sys
out = sys.argv[1]
def paths(v, p, acc):
    if isinstance(v, dict):
        for k, x in v.items():
            acc.add(p + "/" + k); paths(x, p + "/" + k, acc)
    elif isinstance(v, list):
        for x in v: paths(x, p + "[]", acc)
    return acc
def of(prefix):
    acc = set()
    for i in (1, 2, 3):
        paths(json.load(open(os.path.join(out, "%s_%d.json" % (prefix, i)))), "", acc)
    return acc
old, new = of("release"), of("new")
missing = sorted(old - new); added = sorted(new - old)
print("release paths %d, new paths %d" % (len(old), len(new)))
print("missing in new (%d):" % len(missing)); [print("  " + m) for m in missing]
print("added in new (%d):" % len(added)); [print("  " + a) for a in added]
# the testcases and their matrices, in order, with their shapes
def entries(prefix, i):
    d = json.load(open(os.path.join(out, "%s_%d.json" % (prefix, i))))["nvbandwidth"]["testcases"]
    return [(e.get("name"), e.get("status"), len(e.get("bandwidth_matrix", e.get("latency_matrix", [])) or [])) for e in d]
same = all(entries("release", i) == entries("new", i) for i in (1, 2, 3))
print("testcases, statuses and matrix rows identical in every run: %s" % same)
sys.exit(0 if not missing and same else 1)
