"""One registration per game: every per-game table reads knockboard/registry.py.  Every
registered game has every part; a throwaway game (tests/tiny_game.py) registered here is
found in every table; a registration lacking a part, or naming one that does not exist,
fails with a message naming it; firmware/boards.json is what the registry makes."""

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest
from hardware.printed import overlay

from knockboard import registry
from knockboard.bots import heuristics, make_bot
from knockboard.bots.strong import game_search
from knockboard.cli import build_parser, main
from knockboard.games import GameError, game_names, get_game
from knockboard.gameview.picture import Picture
from knockboard.gameview.summary import summary_lines
from knockboard.layouts import get_layout, layout_names
from knockboard.session.adapters import get_ui
from knockboard.sim.look import hex_colour as look_hex

ROOT = Path(__file__).parents[1]
GAMES = ["dodgeball", "knockabout", "knockoff", "ko"]

TINY = registry.GameEntry(
    "tiny", engine="tiny_game:TinyGame", layout="tiny_game:layout", adapter="tiny_game:TinyUI",
    scorer="tiny_game:score", scale=2.0, matrix=(1, 3), fills={"plain": "#ffffff"})


@pytest.fixture
def tiny():
    registry.register(TINY)
    try:
        yield TINY
    finally:
        registry.unregister("tiny")


@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_has_every_part(name):
    entry = registry.entry(name)
    for part in ("engine", "layout", "adapter", "scorer", "search", "mixed"):
        entry.load(part)                       # raises RegistryError if one is missing
    game = get_game(name)
    assert game.name == name and entry.title == game.title
    layout = get_layout(name)
    assert {c.kind for c in layout.cells} <= set(entry.fills)
    rows, cols = entry.matrix
    assert len(layout.cells) <= rows * cols
    assert get_ui(game).name == name


def test_the_four_games_are_registered():
    assert registry.names() == game_names() == layout_names() == GAMES


def test_a_throwaway_game_is_found_in_every_table(tiny):
    assert "tiny" in game_names() and "tiny" in layout_names()
    game = get_game("tiny")
    state = game.new_initial_state()
    assert state.to_position() == "1 ..."
    layout = get_layout("tiny")
    assert [c.space for c in layout.cells] == ["a", "b", "c"]
    ui = get_ui(game)
    assert [o.path for o in ui.options(state)] == [(0,), (1,), (2,)]
    state.apply(0)
    assert heuristics.score(state, 0) == 1 and heuristics.evaluate(state)[0] > 0
    assert game_search("tiny") is None and not heuristics.is_mixed_decision(state)
    assert make_bot("greedy", seed=1).choose(state) in (1, 2)
    assert "Tiny: Knockboard overlay (tiny, 3 cells)" in overlay.overlay_svg(layout)
    assert registry.firmware_boards()["tiny"] == {"name": "Tiny", "cells": 3, "rows": 1,
                                                  "cols": 3}
    assert "tiny" in _game_choices(build_parser().subcommands["analyze"])
    assert "tiny" in _game_choices(build_parser().subcommands["play"])
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", "tiny", "b"]) == 0
    assert out.getvalue().splitlines() == ["2 .1.", "a", "c"]
    # the game view draws it without a look of its own: a disc in the owner's colour
    picture = Picture(ui)
    discs = [s for s in picture.pieces(state.view()) if s.kind == "oval"]
    assert len(discs) == 1 and discs[0].fill == look_hex(ui.color(0))
    assert "1. a" in "\n".join(summary_lines(state, ["a"]))


def _game_choices(parser):
    return next(a.choices for a in parser._actions if a.dest == "game")


def test_a_throwaway_game_is_not_imported_before_use():
    # Registering names modules; only asking for a part imports one, and only that one.
    code = ("import sys; from knockboard.games import get_game; get_game('ko'); "
            "print(sorted(m for m in sys.modules if m.startswith('knockboard.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "host")}).stdout
    assert "knockboard.games.ko" in out
    for other in ("knockabout", "dodgeball", "knockoff"):
        assert f"knockboard.games.{other}'" not in out
    for layer in ("layouts", "session", "bots"):
        assert f"knockboard.{layer}" not in out


@pytest.mark.parametrize("part", ["engine", "layout", "adapter", "scorer", "matrix", "fills"])
def test_a_registration_missing_a_part_is_refused(part):
    blank = None if part not in ("matrix", "fills") else ({} if part == "fills" else ())
    with pytest.raises(registry.RegistryError, match=f"'tiny' is registered without its {part}"):
        registry.register(replace(TINY, **{part: blank}))
    assert "tiny" not in registry.names()


def test_a_part_that_cannot_be_loaded_is_named(tiny):
    registry.unregister("tiny")
    registry.register(replace(TINY, name="tiny", adapter="tiny_game:NoSuchUI"))
    with pytest.raises(registry.RegistryError,
                       match="game 'tiny': its adapter 'tiny_game:NoSuchUI' cannot be loaded"):
        get_ui(get_game("tiny"))
    with pytest.raises(registry.RegistryError, match="is not 'module:attribute'"):
        registry.register(replace(TINY, name="tiny2", scorer="tiny_game.score"))


def test_a_name_is_registered_once(tiny):
    with pytest.raises(registry.RegistryError, match="already registered"):
        registry.register(TINY)


def test_an_unregistered_game_is_an_error_everywhere():
    with pytest.raises(GameError, match="unknown game 'chess'"):
        get_game("chess")
    with pytest.raises(KeyError, match="no layout for 'chess'"):
        get_layout("chess")
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        heuristics.scorer_for("chess")


def test_firmware_boards_json_is_written_from_the_registry():
    committed = (ROOT / "firmware" / "boards.json").read_text()
    assert committed == registry.firmware_boards_json(), \
        "run `python3 -m hardware.build`: firmware/boards.json is out of date"
    assert list(json.loads(committed)) == ["knockabout", "dodgeball", "ko", "knockoff"]
