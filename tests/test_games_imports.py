"""The engines' modules import each other without a cycle (imports inside functions
count too: they only hide a cycle; imports under `if TYPE_CHECKING:` do not, as they never
run: a position parser may name the state class it fills), and `games/` imports nothing of
the layers above it (layouts, session, bots), only the game registry, which imports nothing
of the program (type-only imports included)."""

import ast
from pathlib import Path

import import_graph

GAMES = Path(__file__).parents[1] / "host" / "knockboard" / "games"
ABOVE = ("layouts", "session", "bots", "device", "store", "sim")


def _name(path):
    """A module's dotted name inside `games/` ("ko.game", "base"); a package is its `__init__`."""
    parts = path.relative_to(GAMES).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree):
    """The import nodes under `if TYPE_CHECKING:`, which never run."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            found |= {id(n) for stmt in node.body for n in ast.walk(stmt)
                      if isinstance(n, ast.ImportFrom)}
    return found


def _imports(path):
    """(modules of `games/` a module imports when it runs, anywhere in it; top-level modules
    of the program above `games/` it imports, also for type checking only)."""
    inside, above = set(), set()
    package = list(path.relative_to(GAMES).parent.parts)     # a module's, or an __init__'s own
    tree = ast.parse(path.read_text())
    type_only = _type_only(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[:len(package) - (node.level - 1)] if node.level - 1 <= len(package) else None
        if base is None:                      # above games/
            above |= {(node.module or a.name).split(".")[0] for a in node.names}
            continue
        if id(node) in type_only:
            continue
        if node.module:
            inside.add(".".join(base + [node.module]))
        else:
            inside |= {".".join(base + [a.name]) for a in node.names}
    return inside - {""}, above


def _graph():
    return {_name(p): _imports(p)[0] for p in GAMES.rglob("*.py")}


_cycle = import_graph.cycle


def test_no_import_cycle_among_the_engines():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_cycle_check_finds_a_cycle():
    graph = _graph()
    graph["ko.notation"] = graph["ko.notation"] | {"ko.game"}
    assert _cycle(graph) is not None


def test_a_type_only_import_is_no_cycle_but_a_running_one_is():
    text = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import A\n"
            "def f():\n    from .board import B\n")
    tree = ast.parse(text)
    skipped = _type_only(tree)
    kept = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and n.level and id(n) not in skipped]
    assert kept == ["board"]


def test_games_import_nothing_above_them():
    for path in GAMES.rglob("*.py"):
        above = _imports(path)[1]
        assert above <= {"registry"}, (path.name, above)
