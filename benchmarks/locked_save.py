"""What a locked database costs the board: the wall time of the session's save of one
action (`RecordSaver.sync`, as `Session.save` calls it after every action) while another
program holds the database's write lock, beside the same save on a free database.

    python3 benchmarks/locked_save.py [--actions 40]

A save that meets the lock waits SQLite's busy timeout (`saving.SAVE_WAIT`) and gives up;
the session shows NOT SAVED, goes on, and tries again a second later. Printed, never
asserted.
"""

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from knockboard.session.saving import SAVE_WAIT, RecordSaver  # noqa: E402
from knockboard.store import GameRecord, GameStore, StoreError  # noqa: E402
from test_store import play_record  # noqa: E402


def save_times(db, actions, locked):
    """Milliseconds of each save, adding the game's actions one by one."""
    full = play_record(seed=3).actions[:actions]
    times = []
    with GameStore(db) as store:
        saver = RecordSaver(store)
        record = GameRecord(game="knockabout", players=[{"name": "A", "bot": None}] * 2)
        state = record.initial_state()
        saver.sync(record, state)
        other = sqlite3.connect(db, isolation_level=None)
        if locked:
            other.execute("BEGIN IMMEDIATE")
        for action in full:
            state.apply(state.parse_action(action))
            record.actions.append(action)
            start = time.perf_counter()
            try:
                saver.sync(record, state)
            except StoreError:
                pass                # NOT SAVED; the session would go on
            times.append((time.perf_counter() - start) * 1000)
        other.close()
        saver.retry()
        assert store.get(saver.game_id).actions == full     # it all landed in the end
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args()
    print(f"busy timeout of a session's save: {SAVE_WAIT * 1000:.0f} ms")
    print("| database | saves | median ms | max ms |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for locked in (False, True):
            times = save_times(os.path.join(folder, f"{locked}.sqlite3"), args.actions, locked)
            print(f"| {'locked by another program' if locked else 'free'} | {len(times)} | "
                  f"{statistics.median(times):.1f} | {max(times):.1f} |")


if __name__ == "__main__":
    main()
