"""Long play, short: computer-vs-computer games one after another on the same virtual
boards and sessions, without an error and without a leak (host objects and blocks, the
firmware core's holdings, a tracemalloc window). Here KNOCKabout and Knock-Off, the short
games; tests/soak/long_play.py plays 1,000 games of all four."""

from longplay import LINEUP, LongPlay


def test_games_back_to_back_without_error_or_leak():
    lp = LongPlay(LINEUP[:2])
    lp.play(6)                     # warm-up: every engine, cache and buffer seen once
    first = lp.sample()
    lp.play(10)
    last = lp.sample()
    held, top = lp.traced_window(1)
    assert lp.played == 16 and lp.plies > 800
    assert lp.faults() == {"rejected commands": 0, "bad frames to the host": 0,
                           "bad frames to the board": 0, "board errors": 0, "reconnects": 0}
    assert last["firmware bytes"] == first["firmware bytes"]
    assert abs(last["objects"] - first["objects"]) <= first["objects"] // 100, (first, last)
    assert abs(last["blocks"] - first["blocks"]) <= first["blocks"] // 50, (first, last)
    assert held < 400_000, (held, top)   # what 2 traced games leave behind: buffers only
