"""`knockboard watch URL --web`: a remote spectator's page, following a game two homes play
through the test's Mosquitto broker, every entry as the spectator checked it."""

import io
import os
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "remote"),
                str(Path(__file__).resolve().parent.parent / "session")]

from broker import Broker, mosquitto, password  # noqa: E402
from homes import Home, closing, play_headless, run_until  # noqa: E402
from http_client import EventStream  # noqa: E402
from knockboard.cli.watch import cmd_watch  # noqa: E402


class _Args:
    def __init__(self, url, password_file, web):
        self.url, self.password_file, self.ca_file = url, password_file, None
        self.db, self.web = None, web


@pytest.fixture
def broker(tmp_path):
    if mosquitto() is None:
        if os.environ.get("CI"):
            pytest.fail("mosquitto is not installed (.ci/run installs it)")
        pytest.skip("mosquitto is not installed")
    running = Broker(tmp_path / "broker", {"live": 2}).start()
    yield running
    running.stop()


def test_watch_web_serves_the_remote_game_as_the_spectator_checks_it(broker, tmp_path):
    homes = [Home(broker, "live", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4))]
    pw = tmp_path / "watch.pw"
    pw.write_text(password("live-watch") + "\n")
    out = io.StringIO()
    done = {}
    with closing(homes):
        run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= 6, "6 plies")
        watcher = threading.Thread(target=lambda: done.setdefault("status", cmd_watch(
            _Args(broker.url("live", "live-watch"), str(pw), ("127.0.0.1", 0)), out)),
            daemon=True)
        watcher.start()
        deadline = time.monotonic() + 30
        while not (found := re.search(r"the game in a browser: (\S+)", out.getvalue())):
            assert time.monotonic() < deadline and watcher.is_alive(), out.getvalue()
            time.sleep(0.02)
        stream = EventStream(urlsplit(found.group(1)).port)
        try:
            rest = threading.Thread(target=play_headless, args=(homes, (3, 4)), daemon=True)
            rest.start()
            snaps = []
            while not snaps or snaps[-1]["result"] is None:
                try:
                    snaps.append(stream.next())
                except AssertionError:
                    raise AssertionError(f"the stream ended at {snaps[-1]['plies']} entries:"
                                         f" {out.getvalue()[-300:]}") from None
        finally:
            stream.close()
        rest.join(60)
        watcher.join(60)
        record = homes[0].game.record
    assert done["status"] == 0 and homes[0].game.state.is_terminal()
    last = snaps[-1]
    assert [e["text"] for e in last["sheet"]] == record
    assert last["result"] == homes[0].game.state.result()
    plies = [s["plies"] for s in snaps if s["plies"] > 0]
    assert plies == list(range(plies[0], len(record) + 1))
