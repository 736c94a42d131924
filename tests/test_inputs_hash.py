"""The boards' inputs hash (hardware/inputs_hash.py) sees what the code does, not where it
lives: a module moved to another folder, a function moved to another file or a comment
changes no hash; a changed statement changes it; a bare name that could mean two things is
refused."""

import pytest

from hardware import inputs_hash

A = '''"""Module a."""
from . import b
from .b import Wide

SIZE = 3   # a comment


def area(x):
    """Docstring."""
    return b.scale(x) * SIZE + Wide
'''
B = '''import math

Wide = 2


def scale(x):
    return math.sqrt(x)
'''


def _tree(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


def _digest(tmp_path, files, modules):
    return inputs_hash.statements(modules, _tree(tmp_path, files))


def test_moving_a_module_into_a_folder_changes_nothing(tmp_path):
    before = _digest(tmp_path / "1", {"a.py": A, "b.py": B}, ["a", "b"])
    moved = A.replace("from . import b\nfrom .b import Wide",
                      "from .sub import b\nfrom .sub.b import Wide")
    after = _digest(tmp_path / "2", {"a.py": moved, "sub/__init__.py": "", "sub/b.py": B},
                    ["a", "sub.b"])
    assert before == after


def test_moving_a_function_to_another_file_and_renaming_the_module_changes_nothing(tmp_path):
    before = _digest(tmp_path / "1", {"a.py": A, "b.py": B}, ["a", "b"])
    area = A[A.index("def area"):]
    a2 = A[:A.index("def area")].replace("from . import b", "from . import b as scaling")
    c = "from .a import SIZE\nfrom . import b as scaling\nfrom .b import Wide\n\n\n" + area.replace(
        "b.scale", "scaling.scale")
    after = _digest(tmp_path / "2", {"a.py": a2, "b.py": B, "c.py": c}, ["a", "b", "c"])
    assert before == after


def test_comments_and_docstrings_change_nothing(tmp_path):
    before = _digest(tmp_path / "1", {"a.py": A, "b.py": B}, ["a", "b"])
    quiet = A.replace("# a comment", "").replace('"""Docstring."""', '"""Another."""')
    assert _digest(tmp_path / "2", {"a.py": quiet, "b.py": B}, ["a", "b"]) == before


@pytest.mark.parametrize("change", [("SIZE = 3", "SIZE = 4"), ("* SIZE", "+ SIZE"),
                                    ("return b.scale(x)", "return b.scale(x + 1)")])
def test_a_changed_statement_changes_the_hash(tmp_path, change):
    before = _digest(tmp_path / "1", {"a.py": A, "b.py": B}, ["a", "b"])
    assert _digest(tmp_path / "2", {"a.py": A.replace(*change), "b.py": B}, ["a", "b"]) != before


def test_a_name_two_modules_define_is_refused_where_reached_through_a_module(tmp_path):
    c = "SIZE = 5\n"
    with pytest.raises(inputs_hash.HashError, match="b.scale"):
        _digest(tmp_path, {"a.py": A, "b.py": B, "c.py": c + "def scale(x):\n    return x\n"},
                ["a", "b", "c"])


def test_every_board_hashes_its_code():
    for board in ("controller", "cellboard-ko"):
        assert len(inputs_hash.statements(inputs_hash.code_for(board))) > 100


def test_a_boards_net_order_is_one_of_its_inputs(tmp_path, monkeypatch):
    """The order a board's routing starts from (hardware/routing/net_order.py) decides its
    tracks, so a board routed from another order carries another hash; another board's
    order does not touch it."""
    from hardware.routing import net_order
    path = tmp_path / "net_order.json"
    monkeypatch.setattr(net_order, "PATH", str(path))
    before = inputs_hash.inputs_hash("cellboard-ko", "(export)")
    net_order.write("cellboard-knockabout", {"first": ["COL8"], "last": ["COL8"]})
    assert inputs_hash.inputs_hash("cellboard-ko", "(export)") == before
    net_order.write("cellboard-ko", {"first": ["COL8", "ROW1"], "last": ["COL8"]})
    assert net_order.of("cellboard-ko") == {"first": ["COL8", "ROW1"], "last": ["COL8"]}
    assert inputs_hash.inputs_hash("cellboard-ko", "(export)") != before
