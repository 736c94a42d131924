"""The game view's commands refuse what cannot work before anything starts: one line on
stderr, exit status 2, nothing on stdout."""

import pytest

from knockboard.cli import main


@pytest.mark.parametrize("argv,says", [
    (["play", "knockabout", "--view", "--no-save"], "cannot go with --no-save"),
    (["replay", "1", "--view", "--sim"], "leave out --port/--sim"),
    (["view", "7"], "no game 7"),
    (["view", "0"], "not a game id"),
])
def test_bad_view_commands_are_one_line(capsys, argv, says):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and says in err


@pytest.mark.parametrize("argv", [["view"], ["play", "knockabout", "--view", "--port",
                                             "/dev/null"]])
def test_the_view_without_a_display_says_so(capsys, monkeypatch, argv):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "needs a window" in err and len(err.strip().splitlines()) == 1


def test_export_svg_refuses_a_missing_parent_folder_and_makes_nothing(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "pictures"
    assert main(["export", "1", "--svg", str(target), "--db", str(tmp_path / "g.db")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "does not exist" in err
    assert not (tmp_path / "no").exists()
