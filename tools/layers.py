#!/usr/bin/python3
"""The layers of the sources and the includes between them.

Usage: tools/layers.py [--check] [--modules] [--doctored] [--graph BUILD/layers/graph.json]

The layers are the libraries cmake/Layers.cmake declares, each with its folders (its sources in
src/<folder>, its headers in include/nvbandwidth/<folder>) and the layers it depends on; the build writes that graph to <build>/layers/graph.json
(default: build/ of the repository), and this script reads it from there: the graph is declared
once, in CMake. A file may include headers of its own layer and of the layers its layer depends
on, directly or through others, never of any other. Within and across layers, modules (a header
and its source, named alike) must not include each other in a circle. The build enforces the
first rule too (each layer's library sees only the headers of the layers it reaches); this script
shows the graph and finds circles, which the build cannot.

Prints the layer graph (each layer, what it depends on, and which layers its files include, with
the count of includes); --modules adds the module graph. --check: exit 1 when an include reaches
a layer its layer does not depend on, a file is in no layer, or modules form a circle, printing
each; and when a file outside the report model includes the JSON library or the model's own
JSON headers (the model is the one reader and writer of JSON). --doctored adds one wrong-way
include to what the files hold (the report model's model/report.cpp including the engine's
engine/results.h) and exits 0 only when --check's rules name it: a ctest shows that the check
can fail, and for the right reason.
"""

import collections
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Where a file lives, and the path it has in the layers (an include spelled "engine/x.h" names
# include/nvbandwidth/engine/x.h; the device code in kernels/ is the engine's, beside its host
# interface engine/kernels/kernels.h).
ROOTS = ((ROOT / "src", ""), (ROOT / "include" / "nvbandwidth", ""), (ROOT / "kernels", "engine/kernels/"))
DEFAULT_GRAPH = ROOT / "build" / "layers" / "graph.json"


def load_graph(path: pathlib.Path):
    """The layers in declared order: [(name, folders, depends)], and each one's reach (itself and
    every layer it depends on, directly or through others)."""
    layers = [(l["name"], l["folders"], l["depends"]) for l in json.loads(path.read_text())["layers"]]
    direct = {name: depends for name, _, depends in layers}
    reach = {}
    for name, _, _ in layers:  # declared after their dependencies (the build checks it)
        reach[name] = {name}.union(*(reach[d] for d in direct[name]))
    return layers, reach


# The wrong-way include --doctored adds.
DOCTORED = ("model/report.cpp", "engine/results.h")

JSON_LIBRARY = re.compile(r'^\s*#\s*include\s+<nlohmann/', re.MULTILINE)
MODEL_JSON_HEADERS = {"model/json_style.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCES = (".h", ".cuh", ".cpp", ".cu")


def layer_of(relative: str, layers) -> str:
    """The layer a file's layer path (or an include as spelled) belongs to: the one of the longest
    folder it is under."""
    best, best_folder = "", ""
    for name, folders, _ in layers:
        for folder in folders:
            if relative.startswith(folder + "/") and len(folder) > len(best_folder):
                best, best_folder = name, folder
    return best


def module_of(relative: str) -> str:
    """A header and its source are one module: "engine/executor"."""
    return relative.rsplit(".", 1)[0]


def files():
    for root, prefix in ROOTS:
        for path in sorted(root.rglob("*")):
            if path.suffix in SOURCES and path.is_file():
                yield prefix + path.relative_to(root).as_posix(), path.read_text(errors="replace")


def resolve(includer: str, spelled: str, known: set) -> str:
    """The layer path of an include, or "" when it is not one of ours (generated, system)."""
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
    graph_path = pathlib.Path(argv[argv.index("--graph") + 1]) if "--graph" in argv else DEFAULT_GRAPH
    if not graph_path.is_file():
        print(f"{graph_path}: no layer graph (configure the build first: cmake -S . -B build)")
        return 1
    layers, reach = load_graph(graph_path)
    order = [name for name, _, _ in layers]
    known, edges = graph()
    if "--doctored" in argv:
        edges.append(DOCTORED)
    problems = []
    for name in sorted(known):
        if not layer_of(name, layers):
            problems.append(f"{name}: in no layer (add its folder to a layer in CMakeLists.txt)")

    # The JSON library is the model's: other layers hold Json through model/json.h and never
    # include the library itself, nor json_style.h (upstream's layout, the writer's own).
    for name, text in sorted(files()):
        if layer_of(name, layers) != "model" and JSON_LIBRARY.search(text):
            problems.append(f"{name} includes nlohmann/json: other layers use model/json.h")
        for spelled in INCLUDE.findall(text):
            if spelled in MODEL_JSON_HEADERS and layer_of(name, layers) != "model":
                problems.append(f"{name} includes {spelled}: a header of the model's own JSON code")

    layer_edges = collections.Counter()
    for source, target in edges:
        a, b = layer_of(source, layers), layer_of(target, layers)
        if a and b and a != b:
            layer_edges[(a, b)] += 1
            if b not in reach[a]:
                problems.append(f"{source} includes {target}: {a} does not depend on {b}")

    modules = collections.defaultdict(set)
    for source, target in edges:
        a, b = module_of(source), module_of(target)
        modules[a]
        if a != b:
            modules[a].add(b)
    for component in cycles(modules):
        problems.append("modules include each other in a circle: " + " -> ".join(component))

    print(f"Layers as declared ({graph_path.name}), what each depends on, and what its files include")
    print("(number of includes):")
    for name, folders, depends in layers:
        included = [f"{b} ({n})" for (a, b), n in sorted(layer_edges.items(), key=lambda e: order.index(e[0][1]))
                    if a == name]
        count = sum(1 for f in known if layer_of(f, layers) == name)
        print(f"  {name:13} {count:3} files  depends on {', '.join(depends) if depends else '(nothing)'}")
        print(f"  {'':13}            includes {', '.join(included) if included else '(nothing)'}")
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
        print("\nEvery include stays within what its layer depends on; no modules include each other in")
        print("a circle.")
    if "--doctored" in argv:
        wanted = f"{DOCTORED[0]} includes {DOCTORED[1]}: model does not depend on engine"
        found = wanted in problems
        print(f"\nDoctored include {'refused' if found else 'NOT refused'}: {wanted}")
        return 0 if found else 1
    return 1 if (check and problems) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
