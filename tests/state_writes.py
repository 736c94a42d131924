"""Where code writes the session's or the game line's state (tests/test_state_ownership.py).

A write is an assignment (plain, augmented, annotated, or to an item: `s.x[k] = v`), a
`setattr`, or a call of a mutating method on a field (`session.record.push(...)`,
`s.redo_units.clear()`), whose object is a session or the game line.  The objects are
known by how the code names them, as the session's modules do throughout:

- a session: `session`, `self.s` (a mode's session), `<anything>.session` (`rig.session`),
  `Session(...)`, a parameter annotated `Session`, and any name bound to one of these in
  the same function (`s = self.s`, `s, match = session, session.match`);
- the line: `<anything>.line`, `GameLine(...)` and names bound to them, and the parts it
  owns as seen through a session or a line: `.state`, `.record`, `.match`."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

SESSION_NAMES = {"session"}
LINE_PARTS = {"state", "record", "match"}
# methods that change the object they are called on (lists, dicts, records, engine states)
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
            "setdefault", "push", "push_edit", "push_round", "agree", "resign", "set_seat",
            "follow", "apply", "undo", "apply_text"}


class Write(NamedTuple):
    path: str
    line: int
    owner: str        # "session" or "line"
    kind: str         # "assignment", "setattr" or "call" (of a mutating method)
    text: str         # the written expression as source


def _annotated_session(arg: ast.arg) -> bool:
    note = arg.annotation
    text = note.value if isinstance(note, ast.Constant) else ast.unparse(note) if note else ""
    return isinstance(text, str) and text.split(".")[-1] == "Session"


class _Scope:
    """The names bound to a session or a line in one function (or a module's top level)."""

    def __init__(self, node: ast.AST, outer: _Scope | None = None) -> None:
        self.sessions = set(SESSION_NAMES) | (outer.sessions if outer else set())
        self.lines = set(outer.lines) if outer else set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            self.sessions |= {a.arg for a in args if _annotated_session(a)}
        pairs = list(_bindings(node))
        for _ in range(len(pairs) + 1):          # until no new name is bound
            before = (len(self.sessions), len(self.lines))
            for name, value in pairs:
                if self.is_session(value):
                    self.sessions.add(name)
                elif self.is_line(value):
                    self.lines.add(name)
            if (len(self.sessions), len(self.lines)) == before:
                break

    def is_session(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.sessions
        if isinstance(node, ast.Attribute):
            return node.attr == "session" or (
                node.attr == "s" and isinstance(node.value, ast.Name) and node.value.id == "self")
        if isinstance(node, ast.Call):
            return _called(node) == "Session"
        return False

    def is_line(self, node: ast.AST) -> bool:
        """The line itself, or a part of it seen through a session or a line."""
        if isinstance(node, ast.Name):
            return node.id in self.lines
        if isinstance(node, ast.Call):
            return _called(node) == "GameLine"
        if isinstance(node, ast.Attribute):
            if node.attr == "line":
                return self.is_session(node.value)
            return node.attr in LINE_PARTS and (self.is_session(node.value)
                                                or self.is_line(node.value))
        return False

    def owner(self, target: ast.AST) -> str | None:
        """Whose field `target` (an assignment's target) writes: "line", "session", None."""
        while isinstance(target, ast.Subscript):      # s.x[k] = v changes the field s.x
            target = target.value
        if not isinstance(target, ast.Attribute):
            return None
        if self.is_line(target.value) or target.attr in LINE_PARTS and self.is_line(target):
            return "line"
        if self.is_session(target.value):
            return "session"
        return None

    def inside_session(self) -> _Scope:
        """The scope of the Session class's body: there `self` is the session."""
        scope = _Scope(ast.Module(body=[], type_ignores=[]), self)
        scope.sessions.add("self")
        return scope


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else ""


def _bindings(scope: ast.AST):
    """(name, value) of every `name = value` in `scope`, outside nested functions; a tuple
    assignment pairs its names and values, a chained one binds each name."""
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                yield from _pairs(target, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            yield from _pairs(node.target, node.value)


def _pairs(target: ast.AST, value: ast.AST):
    if isinstance(target, ast.Name):
        yield target.id, value
    elif isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
            and len(target.elts) == len(value.elts):
        for t, v in zip(target.elts, value.elts):
            yield from _pairs(t, v)


def _own_nodes(scope: ast.AST):
    """The nodes of `scope`, not descending into the functions and classes it defines."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


def _targets(node: ast.AST):
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield from _flat(target)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        yield node.target


def _flat(target: ast.AST):
    if isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            yield from _flat(t)
    else:
        yield target


def _writes_in(scope: ast.AST, names: _Scope, path: str):
    for node in _own_nodes(scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _writes_in(node, _Scope(node, names), path)
            continue
        if isinstance(node, ast.ClassDef):
            inner = names.inside_session() if node.name == "Session" else names
            yield from _writes_in(node, inner, path)
            continue
        for target in _targets(node):
            owner = names.owner(target)
            if owner:
                yield Write(path, node.lineno, owner, "assignment", ast.unparse(target))
        if isinstance(node, ast.Call):
            yield from _call_writes(node, names, path)


def _call_writes(call: ast.Call, names: _Scope, path: str):
    func = call.func
    if isinstance(func, ast.Name) and func.id == "setattr" and call.args:
        owner = "line" if names.is_line(call.args[0]) else \
            "session" if names.is_session(call.args[0]) else None
        if owner:
            yield Write(path, call.lineno, owner, "setattr", ast.unparse(call))
    elif isinstance(func, ast.Attribute) and func.attr in MUTATORS \
            and isinstance(func.value, ast.Attribute) and func.value.attr != "line":
        owner = names.owner(func.value)
        if owner:
            yield Write(path, call.lineno, owner, "call", ast.unparse(func))


def writes(path: Path, shown: str) -> list[Write]:
    """Every write to a session's or the line's fields in the module at `path`."""
    tree = ast.parse(path.read_text(), str(path))
    return sorted(_writes_in(tree, _Scope(tree), shown), key=lambda w: w.line)


def misplaced(root: Path, dirs=("host", "tests", "benchmarks")) -> list[Write]:
    """The writes under `root` made outside their owner's module: a session's outside
    host/knockboard/session/session.py, the line's outside session/game_line.py."""
    owners = {"session": "host/knockboard/session/session.py",
              "line": "host/knockboard/session/game_line.py"}
    found = []
    for top in dirs:
        for path in sorted((root / top).rglob("*.py")):
            shown = path.relative_to(root).as_posix()
            found += [w for w in writes(path, shown) if w.path != owners[w.owner]]
    return found


if __name__ == "__main__":        # python3 tests/state_writes.py [ROOT]: list and count them
    import sys
    from collections import Counter
    found = misplaced(Path(sys.argv[1] if len(sys.argv) > 1 else "."))
    for w in found:
        print(f"{w.path}:{w.line}: {w.owner} {w.kind}: {w.text}")
    tally = Counter((w.owner, w.kind, w.path.startswith("host/")) for w in found)
    for (owner, kind, host), n in sorted(tally.items()):
        print(f"{n:3} {owner} field, {kind}, in {'host' if host else 'tests/benchmarks'}")
    print(f"{len(found)} writes outside their owner's module")
