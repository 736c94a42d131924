"""One name, one thing: every public class of the host program is defined once, so that
`Piece`, `View` or `Cell` in a module means the same thing wherever it is read, and an import
that picks up the wrong one cannot happen."""

import ast
from collections import defaultdict
from pathlib import Path

HOST = Path(__file__).parents[1] / "host" / "knockboard"


def public_classes(sources):
    """class name -> the places defining it, for every public class (nested ones too) of
    `sources`, an iterable of (place, source text)."""
    found = defaultdict(list)
    for place, text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found[node.name].append(f"{place}:{node.lineno}")
    return found


def defined_twice(sources):
    return {name: places for name, places in public_classes(sources).items()
            if len(places) > 1}


def host_sources():
    return [(str(p.relative_to(HOST)), p.read_text()) for p in sorted(HOST.rglob("*.py"))]


def test_no_public_class_name_is_defined_twice_in_host():
    sources = host_sources()
    assert len(sources) > 100                   # the whole package is read, not a corner
    assert defined_twice(sources) == {}


def test_a_name_defined_twice_is_found():
    sources = host_sources() + [("games/extra.py", "class Layout:\n    pass\n"),
                                ("sim/extra.py", "def f():\n    class _Private:\n"
                                                 "        pass\n")]
    twice = defined_twice(sources)
    assert list(twice) == ["Layout"]
    assert twice["Layout"] == ["layouts/base.py:" + _line_of("layouts/base.py", "Layout"),
                               "games/extra.py:1"]


def _line_of(module, name):
    text = (HOST / module).read_text()
    return str(next(n.lineno for n in ast.walk(ast.parse(text))
                    if isinstance(n, ast.ClassDef) and n.name == name))
