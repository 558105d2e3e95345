#!/usr/bin/python3
"""The report tools know nothing of GPUs: none of their libraries links the CUDA runtime, and a
file of theirs that includes an engine header does not compile.

Usage: tools/check_report_tools.py --graph BUILD/layers/graph.json --compiler CXX [--doctored]

1. Links, from the build's dependency graph (graph.json: what each layer's library links as CMake
   holds it): everything each report tool's library links, through the layers it links, must hold
   no CUDA:: target. The engine's library must hold CUDA::cudart_static (else the check proves
   nothing).
2. The views: a file of a report tool that includes an engine header does not compile against
   the tool's include path (<build>/layers/<tool>), while one that includes the report model's
   header does.

Prints what it checked; exit 1 when anything is not so. --doctored checks a graph in which the
comparison's library also links the engine's: exit 0 only when the check finds the CUDA runtime
there (a ctest shows the check can fail, and for the right reason).
"""

import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile

REPORT_TOOLS = ["comparison", "expectations", "metrics", "html", "summary"]
ENGINE_HEADER = "engine/results.h"
MODEL_HEADER = "model/report.h"


def closure(links_of, start):
    """Every name `start` links, directly or through the layers' libraries it links."""
    seen, todo = set(), list(links_of.get(start, []))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(links_of.get(name, []))
    return seen


def compiles(compiler, view, header):
    with tempfile.TemporaryDirectory() as scratch:
        probe = pathlib.Path(scratch) / "probe.cpp"
        probe.write_text(f'#include "{header}"\n')
        done = subprocess.run([compiler, "-std=c++17", "-fsyntax-only", "-I", str(view), str(probe)],
                              capture_output=True, text=True)
        return done.returncode == 0, done.stderr


def main(argv):
    graph_path = pathlib.Path(argv[argv.index("--graph") + 1])
    compiler = argv[argv.index("--compiler") + 1]
    layers = json.loads(graph_path.read_text())["layers"]
    links_of = {"nvbw_" + l["name"]: l["links"] for l in layers}
    if "--doctored" in argv:
        links_of["nvbw_comparison"] = links_of["nvbw_comparison"] + ["nvbw_engine"]
    failures = []
    if "CUDA::cudart_static" not in closure(links_of, "nvbw_engine"):
        failures.append("nvbw_engine links no CUDA::cudart_static: the graph holds no link lines")
    for tool in REPORT_TOOLS:
        cuda = sorted(n for n in closure(links_of, "nvbw_" + tool) if n.startswith("CUDA::"))
        print(f"nvbw_{tool}: links {', '.join(sorted(closure(links_of, 'nvbw_' + tool)))}")
        if cuda:
            failures.append(f"nvbw_{tool} links {', '.join(cuda)}")
    # The views are the same in the doctored run, and its verdict is the links' alone: it
    # compiles nothing (each probe of the model's header is a second of compiler).
    views = graph_path.parent
    doctored = "--doctored" in argv
    # The ten probes are compilers of their own: they run side by side, in the tools' order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        probes = [] if doctored else [
            (tool, pool.submit(compiles, compiler, views / tool, MODEL_HEADER),
             pool.submit(compiles, compiler, views / tool, ENGINE_HEADER))
            for tool in REPORT_TOOLS]
        for tool, model, engine in probes:
            ok, _ = model.result()
            if not ok:
                failures.append(f"{tool}: #include \"{MODEL_HEADER}\" does not compile (it must)")
            ok, err = engine.result()
            # Refused only when the header itself is not found: an engine header that is found
            # but fails on an include of its own names itself in the error too.
            if ok or f"{ENGINE_HEADER}: No such file or directory" not in err:
                failures.append(f"{tool}: #include \"{ENGINE_HEADER}\" compiled (a wrong-way include)")
            else:
                print(f"{tool}: #include \"{ENGINE_HEADER}\" refused: {err.strip().splitlines()[0]}")
    if doctored:
        caught = any(f.startswith("nvbw_comparison links") and "CUDA::cudart" in f for f in failures)
        print("\nthe doctored graph was " + ("refused" if caught else "NOT refused"))
        return 0 if caught else 1
    if failures:
        print("\n".join(["", "Problems:"] + ["  " + f for f in failures]))
        return 1
    print("\nNo report tool links the CUDA runtime or sees an engine header.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
