"""hardware/ reads like its flow: its modules import each other without a cycle (imports
inside functions count too), each folder imports only the folders before it in the flow
(FLOW), and only kicad/ imports pcbnew (it runs under Debian's /usr/bin/python3)."""

import ast
from pathlib import Path

import import_graph

HARDWARE = Path(__file__).parents[1] / "hardware"
# The flow, from the inputs to the files a maker uploads; a folder (or top module) may
# import those before it, never one after it.
FLOW = ["parts", "inputs", "schematic", "placement", "routing", "kicad", "fab", "outputs",
        "inputs_hash", "pcbs", "power", "printed", "build"]


def _name(path):
    parts = path.relative_to(HARDWARE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """(modules of hardware/ a module imports anywhere in it, other top-level modules)."""
    inside, outside = set(), set()
    package = list(path.relative_to(HARDWARE).parent.parts)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            outside |= {a.name.split(".")[0] for a in node.names}
        if not isinstance(node, ast.ImportFrom):
            continue
        if not node.level:
            outside.add((node.module or "").split(".")[0])
            continue
        base = package[:len(package) - (node.level - 1)]
        if node.module:
            inside.add(".".join(base + [node.module]))
        else:
            inside |= {".".join(base + [a.name]) for a in node.names}
    return inside - {""}, outside


def _graph():
    return {_name(p): _imports(p)[0] for p in HARDWARE.rglob("*.py")}


_cycle = import_graph.cycle


def _backward(graph):
    """The imports that run against the flow: (module, imported module)."""
    rank = {stage: i for i, stage in enumerate(FLOW)}
    return [(m, d) for m, deps in graph.items() for d in deps
            if m and rank[d.split(".")[0]] > rank[m.split(".")[0]]]


def test_no_import_cycle_in_hardware():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_cycle_check_finds_a_cycle():
    graph = _graph()
    graph["routing.router"] = graph["routing.router"] | {"routing.route"}
    assert _cycle(graph) is not None


def test_every_folder_is_in_the_flow():
    assert {m.split(".")[0] for m in _graph() if m} == set(FLOW)


def test_imports_run_one_way_along_the_flow():
    assert _backward(_graph()) == []


def test_the_flow_check_finds_an_import_against_it():
    graph = _graph()
    graph["schematic.netlist"] = graph["schematic.netlist"] | {"power.rails"}
    assert _backward(graph) == [("schematic.netlist", "power.rails")]


def test_only_kicad_imports_pcbnew():
    users = {_name(p) for p in HARDWARE.rglob("*.py") if "pcbnew" in _imports(p)[1]}
    assert users and {u.split(".")[0] for u in users} == {"kicad"}, users
