"""Board-to-page delay of `--web`: from the moment an entry is saved in the game store (the
session saves each action as it plays it, when it lights the board) to the moment the page in
a headless Chromium has drawn it (its DOM updated). Both clocks are this machine's.

    python3 benchmarks/web_delay.py [--entries 60] [--pause 0.2]

Needs Debian's chromium and chromium-driver (as tests/web/ does)."""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "host"), str(ROOT / "tests" / "web")]

from browser import Browser, browser_missing  # noqa: E402
from game_writer import new_game  # noqa: E402
from knockboard.bots import make_bot  # noqa: E402
from knockboard.games import get_game, sample_chance  # noqa: E402
from knockboard.store import GameStore  # noqa: E402
from knockboard.web.serve import serving_store  # noqa: E402

# the page's clock (ms since the epoch) at each value body[data-plies] takes
RECORD = """
window.drawnAt = {};
new MutationObserver(() => {
  window.drawnAt[document.body.dataset.plies] = performance.timeOrigin + performance.now();
}).observe(document.body, {attributes: true, attributeFilter: ["data-plies"]});
return true;
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.2,
                        help="seconds between entries (a board's pace is seconds a move)")
    args = parser.parse_args()
    if browser_missing():
        sys.exit(browser_missing())
    import random
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        game_id = new_game(db, seed=2)
        with serving_store(("127.0.0.1", 0), db) as served:
            browser = Browser(1280, 800)
            try:
                browser.open(f"http://127.0.0.1:{served.port}/")
                browser.wait_for("return document.body.dataset.plies === '0'", 30, "the game")
                browser.run(RECORD)
                saved_at = write_entries(db, game_id, args.entries, args.pause, random)
                browser.wait_for(f"return window.drawnAt['{len(saved_at)}']", 30, "the end")
                drawn = browser.run("return window.drawnAt")
            finally:
                browser.close()
    delays = [drawn[str(k + 1)] - saved_at[k] * 1000 for k in range(len(saved_at))]
    delays.sort()
    print(f"board-to-page delay, {len(delays)} entries, one every {args.pause:g} s "
          f"(store poll {0.05 * 1000:.0f} ms):")
    print(f"  median {statistics.median(delays):.1f} ms, 95th percentile "
          f"{delays[int(0.95 * (len(delays) - 1))]:.1f} ms, largest {delays[-1]:.1f} ms, "
          f"smallest {delays[0]:.1f} ms")


def write_entries(db, game_id, count, pause, random):
    """Play `count` entries of a greedy game into the store; the time each was saved."""
    store = GameStore(db)
    dice = random.Random(2)
    bots = [make_bot("greedy", seed=20 + k) for k in range(2)]
    state = get_game("knockabout").new_initial_state()
    saved_at = []
    try:
        while len(saved_at) < count and not state.is_terminal():
            time.sleep(pause)
            action = sample_chance(state, dice) if state.is_chance_node() else \
                bots[state.current_player()].choose(state)
            store.append(game_id, len(saved_at), state.action_to_string(action))
            saved_at.append(time.time())
            state.apply(action)
    finally:
        store.close()
    return saved_at


if __name__ == "__main__":
    main()
