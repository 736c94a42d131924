"""Unplugging: the cable pulled at random moments of a scripted game of each game, also in
the middle of a knock chain shown step by step and of a dice roll. Every time, the host
reconnects and the board shows again exactly the host's scene and display (final dice, no
replayed roll); the game goes on and ends with the record of the game never unplugged.
tests/soak/unplug.py runs many more."""

import functools

import pytest

from rig import GAMES, play_scripted
from unplug import play_unplugged


@functools.lru_cache(maxsize=None)
def unplugged(game):
    clean, _ = play_scripted(game)
    rig, figures = play_unplugged(game, seed=3, chain_p=0.5)
    return clean, rig, figures


@pytest.mark.parametrize("game", sorted(GAMES))
def test_unplugged_at_random_moments_the_game_goes_on_and_the_board_is_restored(game):
    clean, rig, f = unplugged(game)
    assert rig.session.record.actions == clean.session.record.actions
    assert rig.received == rig.made                # presses the board had are kept, once
    assert f["unplugs"] >= 3 and f["restores checked"] == f["unplugs"]
    assert f["reconnects"] == f["unplugs"]


def test_the_unplugs_hit_knock_chains_and_dice_rolls():
    totals = {k: sum(unplugged(g)[2].get(k, 0) for g in GAMES)
              for k in ("mid knock chain", "mid dice roll")}
    assert totals["mid knock chain"] >= 1 and totals["mid dice roll"] >= 4, totals
