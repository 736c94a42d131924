"""The inputs hash a board carries in its title block: its netlist, its cells, and the code
that places, routes and writes it. A board is routed again only when this hash changes.

The code enters as what it does, not where it lives: each module's top-level statements,
parsed, without docstrings and import statements, with a reference to another of the
project's modules (`router.G`) written as the bare name (`G`), serialised without the
empty fields Python versions differ on, and sorted. So moving a function to another file
or a module to another folder (a refactor) leaves every hash as it was, and a comment
rebuilds nothing; any change to a statement rebuilds the boards that use it. For that to be
sound a bare name must mean one thing: a name that two of the hashed modules define and
that code reaches through a module (`cells.plan` and `controller.plan`) is refused."""

import ast
import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The modules that make a board (dotted, under hardware/): every board's, then the
# controller's and the cell boards' own.
CODE = ["inputs.fab_rules", "inputs.ipc2221", "inputs.mechanics", "parts.footprint_geometry",
        "parts.lcsc", "parts.refdes", "schematic.led_current", "placement.plan", "routing.escape",
        "routing.router", "routing.route", "kicad.board_file", "kicad.run", "kicad.silk",
        "fab.cpl", "fab.bom", "pcbs"]
CODE_CONTROLLER = ["placement.controller_layout"]
CODE_CELLS = ["placement.cell_geometry", "placement.cell_board_layout", "placement.tiles"]


class HashError(ValueError):
    pass


def code_for(board):
    return CODE + (CODE_CONTROLLER if board == "controller" else CODE_CELLS)


def _path(module, root=HERE):
    return os.path.join(root, *module.split(".")) + ".py"


def _is_module(folder, name):
    return os.path.exists(os.path.join(folder, name + ".py")) or \
        os.path.isdir(os.path.join(folder, name))


def _module_aliases(tree, path):
    """The local names a module binds to other modules of the project: `from . import x`,
    `from .pkg import x as y`, and a script's `import sibling`."""
    folder = os.path.dirname(path)
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = folder
            for _ in range(node.level - 1):
                base = os.path.dirname(base)
            if node.module:
                base = os.path.join(base, *node.module.split("."))
            aliases |= {a.asname or a.name for a in node.names if _is_module(base, a.name)}
        elif isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names
                        if "." not in a.name and _is_module(folder, a.name)}
    return aliases


def _defined(tree):
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


class _Strip(ast.NodeTransformer):
    """Docstrings and imports out, `module.name` to `name` for the project's modules."""

    def __init__(self, aliases, ambiguous, where):
        self.aliases, self.ambiguous, self.where = aliases, ambiguous, where

    def _body(self, body):
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        return [s for s in body if not isinstance(s, (ast.Import, ast.ImportFrom))]

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._body(value) if field == "body" else
                        [s for s in value if not isinstance(s, (ast.Import, ast.ImportFrom))])
        return super().generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in self.aliases:
            if node.attr in self.ambiguous:
                raise HashError(f"{self.where}: {node.value.id}.{node.attr}: `{node.attr}` is "
                                "defined in two of the hashed modules; give one another name")
            return ast.copy_location(ast.Name(id=node.attr, ctx=node.ctx), node)
        return self.generic_visit(node)


def _canonical(node):
    """A node as text, leaving out fields that are empty or None (Python 3.13's ast.dump
    leaves them out, earlier versions print them; 3.12 added empty type_params)."""
    if isinstance(node, ast.AST):
        fields = []
        for name, value in ast.iter_fields(node):
            if value is None or value == []:
                continue
            fields.append(f"{name}={_canonical(value)}")
        return f"{type(node).__name__}({','.join(fields)})"
    if isinstance(node, list):
        return "[" + ",".join(_canonical(v) for v in node) + "]"
    return repr(node)


def statements(modules, root=HERE):
    """The sorted canonical statements of the given modules."""
    trees = {m: ast.parse(open(_path(m, root)).read()) for m in modules}
    seen, ambiguous = set(), set()
    for tree in trees.values():
        names = _defined(tree)
        ambiguous |= seen & names
        seen |= names
    out = []
    for m, tree in trees.items():
        tree = _Strip(_module_aliases(tree, _path(m, root)), ambiguous, m).visit(tree)
        out += [_canonical(s) for s in tree.body]
    return sorted(out)


def inputs_hash(name, net_text, extra=""):
    """The SHA-256 of a board's name, netlist (without its time stamp), extra inputs (the
    cell list), the order its nets were last routed in (routing/net_order.py) and code."""
    from .outputs import normalise
    from .routing import net_order
    from .schematic.led_current import TRACK_MM
    h = hashlib.sha256()
    # the LEDs' track width comes from the fuse's hold current (inputs/power_budget.py, not
    # hashed whole: its other figures, a buzzer's current, route nothing), a value the
    # statements do not show
    widths = f"LED-current tracks {TRACK_MM} mm"
    for part in (name, normalise(net_text), extra, net_order.text(name), widths,
                 *statements(code_for(name))):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()
