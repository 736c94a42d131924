"""Layouts: one cell per engine space, the firmware's cell counts, cells on the overlay and
not overlapping, and an LED chain whose every hop is to a near neighbour."""

import json
import math
from pathlib import Path

import pytest

from knockboard.games.knockabout.board import CELL_NAMES
from knockboard.games.knockoff.board import get_board as knockoff_board
from knockboard.games.ko.board import STANDARD as KO_STANDARD
from knockboard.layouts import get_layout, layout_names

BOARDS = json.loads((Path(__file__).parents[1] / "firmware" / "boards.json").read_text())

ENGINE_SPACES = {
    "knockabout": set(CELL_NAMES),
    "dodgeball": {f + r for f in "abcdefgh" for r in "12345678"},
    "ko": set(KO_STANDARD["spaces"]),
    "knockoff": set(knockoff_board("standard").names),
}


def test_every_game_has_a_layout():
    assert layout_names() == sorted(ENGINE_SPACES)


@pytest.mark.parametrize("game", sorted(ENGINE_SPACES))
def test_one_cell_per_engine_space_and_the_firmware_cell_count(game):
    layout = get_layout(game)
    assert {c.space for c in layout.cells} == ENGINE_SPACES[game]
    assert len(layout) == BOARDS[layout.board_id]["cells"]
    assert [c.index for c in layout.cells] == list(range(len(layout)))
    for cell in layout.cells:
        assert layout.cell(cell.space) is cell and layout.space_of(cell.index) == cell.space


def _extent(cell):
    return cell.size if cell.shape == "hex" else cell.size / 2


@pytest.mark.parametrize("game", sorted(ENGINE_SPACES))
def test_cells_lie_on_the_overlay_and_do_not_overlap(game):
    layout = get_layout(game)
    for c in layout.cells:
        assert _extent(c) <= c.x <= layout.width_mm - _extent(c)
        assert _extent(c) <= c.y <= layout.height_mm - _extent(c)
    for i, a in enumerate(layout.cells):
        for b in layout.cells[i + 1:]:
            gap = math.dist((a.x, a.y), (b.x, b.y))
            # hexes tile (centres one flat-to-flat width apart); other shapes keep clear
            needed = a.size * math.sqrt(3) - 0.01 if a.shape == "hex" else \
                (a.size + b.size) / 2 if a.shape == "circle" else a.size
            assert gap >= needed, (a.space, b.space)


@pytest.mark.parametrize("game, longest_hop_mm", [
    ("knockabout", 31), ("dodgeball", 41), ("ko", 37)])
def test_led_chain_hops_are_short_within_the_play_area(game, longest_hop_mm):
    cells = get_layout(game).cells
    for a, b in zip(cells, cells[1:]):
        assert math.dist((a.x, a.y), (b.x, b.y)) <= longest_hop_mm, (a.space, b.space)


def test_knockoff_chain_runs_along_the_spokes_then_the_homes():
    cells = get_layout("knockoff").cells
    order = [c.space for c in cells]
    assert order[:8] == ["1a", "2a", "3a", "4a", "5a", "6a", "6b", "5b"]
    assert order[48:] == ["H1", "H2", "H3", "H4"]
    for a, b in zip(order[:47], order[1:48]):
        same_spoke = a[1:] == b[1:] and abs(int(a[0]) - int(b[0])) == 1
        next_spoke = a[0] == b[0] and abs(ord(a[1]) - ord(b[1])) == 1
        assert same_spoke or next_spoke, (a, b)


def test_orientation_white_team1_red_at_the_bottom_and_tower_rings():
    k = get_layout("knockabout")
    assert k.cell("G1").y > k.cell("G7").y > k.cell("G13").y      # White sits at the bottom
    assert k.cell("A4").x < k.cell("G7").x < k.cell("M4").x
    d = get_layout("dodgeball")
    assert d.cell("a1").y > d.cell("a8").y and d.cell("a1").x < d.cell("h1").x
    ko = get_layout("ko")
    assert ko.cell("a1").kind == "start-red" and ko.cell("i9").kind == "start-yellow"
    assert ko.cell("e5").kind == "space" and len(ko.lines) == 208
    off = get_layout("knockoff")
    centre = (off.width_mm / 2, off.height_mm / 2)
    radius = {lv: math.dist(centre, (off.cell(f"{lv}a").x, off.cell(f"{lv}a").y))
              for lv in range(1, 7)}
    assert radius[1] > radius[2] > radius[3] > radius[4] > radius[5] > radius[6]
    assert {c.space for c in off.cells if c.kind == "home"} == {"H1", "H2", "H3", "H4"}
    assert all(line.directed for line in off.lines)


def test_unknown_game_or_space_is_named():
    with pytest.raises(KeyError, match="chess"):
        get_layout("chess")
    with pytest.raises(KeyError, match="Z9"):
        get_layout("knockabout").cell("Z9")
