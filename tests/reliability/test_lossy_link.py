"""A faulty cable: one seeded scripted game of each of the four games, played through
presses on the virtual board behind a line that drops, corrupts, duplicates and delays
bytes, ends with exactly the record of the same game on a clean line; every press arrives
once, in order, and the board acknowledges every event. tests/soak/lossy_link.py runs more
line seeds and prints the figures."""

import functools

import pytest

from rig import GAMES, play_scripted


@functools.lru_cache(maxsize=None)
def clean(game):
    rig, figures = play_scripted(game, 0.0)
    assert figures["host retransmits"] == 0 and figures["bytes faulted"] == 0
    return tuple(rig.session.record.actions), tuple(rig.made)


@pytest.mark.parametrize("rate", [0.001, 0.01, 0.05], ids=["0.1%", "1%", "5%"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_on_a_lossy_line_ends_exactly_as_on_a_clean_one(game, rate):
    record, made = clean(game)
    rig, f = play_scripted(game, rate, line_seed=1)
    assert tuple(rig.session.record.actions) == record
    assert tuple(rig.made) == made                   # the same presses were asked for ...
    assert rig.received == rig.made                  # ... and each arrived once, in order
    # (a release may arrive as a reconnect's full key state instead: the board dropped it)
    assert f["events queued by the board"] == len(rig.made)
    assert f["events acknowledged"] + f["releases resynced"] == len(rig.made)
    assert f["events overflowed"] == 0
    assert f["bytes faulted"] > 0 and f["host retransmits"] > 0   # the faults did bite
    if rate <= 0.01:
        # and the board ends showing what the program shows
        assert f["seconds to be in step at the end"] is not None
