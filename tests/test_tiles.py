"""A cell board larger than the fab's panel is cut into tiles (hardware/placement/tiles.py):
each tile fits the panel, no cut crosses a cell, the tiles' netlists hold every part of the
whole board once with the same connections, and each join's two headers carry, pin for pin,
the same nets: every net with pads on both sides of the cut, and power on several pins."""

import os

import pytest
from hardware.inputs import fab_rules, game_layouts, pinmap
from hardware.placement import tiles
from hardware.schematic import netlist

OUT = os.path.join(pinmap.ROOT, "hardware", "out")


def _tiled():
    return [g for g in game_layouts.game_names() if len(tiles.regions(g)) > 1]


def test_only_boards_too_big_for_the_fab_are_tiled():
    for g in game_layouts.game_names():
        lay = game_layouts.get_layout(g)
        assert (len(tiles.regions(g)) > 1) == (not fab_rules.fits(lay.width_mm, lay.height_mm)), g
    assert _tiled() == ["knockoff"]            # 468 x 468 mm; the others fit 400 x 500


@pytest.mark.parametrize("game", _tiled())
def test_tiles_fit_and_cuts_miss_every_cell(game):
    lay = game_layouts.get_layout(game)
    for x0, x1 in tiles.regions(game):
        assert fab_rules.fits(x1 - x0, lay.height_mm)
    for cut in tiles.cuts(game):
        for c in lay.cells:
            assert abs(c.x - cut) >= tiles.CUT_CLEAR, (cut, c.space)


def _read(game):
    full = netlist.read_file(os.path.join(OUT, f"cellboard-{game}.net"))
    n = len(tiles.regions(game))
    return full, [netlist.read_file(os.path.join(OUT, f"cellboard-{game}-tile{t + 1}.net"))
                  for t in range(n)]


@pytest.mark.parametrize("game", _tiled())
def test_tile_netlists_make_the_whole_board(game):
    full, parts = _read(game)
    assert tiles.problems(game, full, parts) == []
    for k, pins in tiles.joins(game, full):
        left = parts[k].components[tiles.join_ref(k, 0)]
        assert left.pins == {str(i): p for i, p in enumerate(pins, 1) if p}
        assert pins.count("+5V") >= tiles.POWER_PINS and pins.count("GND") >= tiles.POWER_PINS


def test_a_lost_join_pin_a_doubled_part_and_a_rewired_part_are_caught():
    full, parts = _read("knockoff")
    left = parts[0].components[tiles.join_ref(0, 0)]
    pin = next(p for p, n in left.pins.items() if n.startswith("COL"))
    net = left.pins.pop(pin)
    parts[1].components[tiles.join_ref(0, 1)].pins.pop(pin)
    assert tiles.problems("knockoff", full, parts) == [
        f"cut 1: {net} has pads on both sides but does not cross"]
    full, parts = _read("knockoff")
    ref = next(r for r in parts[0].components if r.startswith("SW"))
    parts[1].components[ref] = parts[0].components[ref]
    assert f"{ref} on tiles 1 and 2" in tiles.problems("knockoff", full, parts)
    full, parts = _read("knockoff")
    parts[0].components[ref].pins["1"] = "ROW0"
    assert tiles.problems("knockoff", full, parts) == [f"{ref} is wired differently on tile 1"]
