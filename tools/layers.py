#!/usr/bin/python3
"""The layers of src/ and the includes between them.

Usage: tools/layers.py [--check] [--modules]

Every folder under src/ is a layer (src/multinode/mpi is one of its own); LAYERS lists them
lowest first, and a file may include headers of its own layer and of the layers below, never of a
layer above. Within and across layers, modules (a header and its source, named alike) must not
include each other in a circle. The build enforces the first rule too (each layer's library sees
only the headers of its own and lower layers, cmake/Layers.cmake); this script shows the graph
and finds circles, which the build cannot.

Prints the layer graph (which layer includes which, with the count of includes); --modules adds
the module graph. --check: exit 1 when an include points up or modules form a circle, printing
each.
"""

import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# Lowest first; docs/architecture.md says what each holds.
LAYERS = ["core", "platform", "plans", "facts", "engine", "fleet", "report", "app", "multinode",
          "multinode/mpi"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCES = (".h", ".cuh", ".cpp", ".cu")


def layer_of(relative: str) -> str:
    """The layer a path under src/ (or an include spelled from src/) belongs to."""
    best = ""
    for layer in LAYERS:
        if (relative.startswith(layer + "/") or relative == layer) and len(layer) > len(best):
            best = layer
    return best


def module_of(relative: str) -> str:
    """A header and its source are one module: "engine/executor"."""
    return relative.rsplit(".", 1)[0]


def files():
    for path in sorted(SRC.rglob("*")):
        if path.suffix in SOURCES and path.is_file():
            yield path.relative_to(SRC).as_posix(), path.read_text(errors="replace")


def resolve(includer: str, spelled: str, known: set) -> str:
    """The src-relative path of an include, or "" when it is not one of ours (generated, system)."""
    if spelled in known:
        return spelled
    sibling = (pathlib.PurePosixPath(includer).parent / spelled).as_posix()
    return sibling if sibling in known else ""


def graph():
    sources = dict(files())
    known = set(sources)
    edges = []  # (from file, to file)
    for name, text in sources.items():
        for spelled in INCLUDE.findall(text):
            target = resolve(name, spelled, known)
            if target:
                edges.append((name, target))
    return known, edges


def cycles(adjacency):
    """Every strongly connected component of more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(adjacency):
        if root in index:
            continue
        work = [(root, iter(sorted(adjacency[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(adjacency[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main(argv):
    check = "--check" in argv
    known, edges = graph()
    problems = []
    unplaced = sorted(name for name in known if not layer_of(name))
    for name in unplaced:
        problems.append(f"{name}: in no layer (add its folder to LAYERS)")

    layer_edges = collections.Counter()
    for source, target in edges:
        a, b = layer_of(source), layer_of(target)
        if a and b and a != b:
            layer_edges[(a, b)] += 1
            if LAYERS.index(b) > LAYERS.index(a):
                problems.append(f"{source} includes {target}: {a} must not include {b} (a layer above)")

    modules = collections.defaultdict(set)
    for source, target in edges:
        a, b = module_of(source), module_of(target)
        modules[a]
        if a != b:
            modules[a].add(b)
    for component in cycles(modules):
        problems.append("modules include each other in a circle: " + " -> ".join(component))

    print("Layers, lowest first, and what each includes (number of includes):")
    for layer in LAYERS:
        below = [f"{b} ({n})" for (a, b), n in sorted(layer_edges.items(), key=lambda e: LAYERS.index(e[0][1]))
                 if a == layer]
        count = sum(1 for name in known if layer_of(name) == layer)
        print(f"  {layer:14} {count:3} files  -> {', '.join(below) if below else '(nothing)'}")
    if "--modules" in argv:
        print("\nModules and the modules they include:")
        for module in sorted(modules):
            if modules[module]:
                print(f"  {module} -> {', '.join(sorted(modules[module]))}")
    if problems:
        print("\nProblems:")
        for p in problems:
            print("  " + p)
    else:
        print("\nNo include points up a layer; no modules include each other in a circle.")
    return 1 if (check and problems) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
