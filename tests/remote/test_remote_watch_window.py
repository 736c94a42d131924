"""`knockboard watch URL --view`: the spectated game live in the game view window, on a
virtual X screen (Xvfb, as tests/sim/test_game_view_window.py shows the game view) beside
two homes playing through the test's Mosquitto.  The window follows the game as the
spectator reads it, entry by entry, and its last picture shows every piece where the
homes' engine has it; without a display the command says so in one line."""

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path


from knockboard.cli import main
from knockboard.cli.watch import WatchThread, _Kept
from knockboard.gameview.picture import Picture
from knockboard.gameview.window import follow_watched
from knockboard.session.adapters import get_ui
from knockboard.remote import Room, parse_address
from knockboard.store import GameStore

from broker import password
from homes import Home, closing, run_until

sys.path.insert(0, str(Path(__file__).parent.parent / "sim"))
from game_view_screens import wrong_pixels  # noqa: E402

WINDOW_WAIT_S = 60.0
PACE_S = 0.02
ROOT = Path(__file__).parent.parent.parent
CLI = "import sys; from knockboard.cli import main; sys.exit(main(sys.argv[1:]))"




def _grab(view, display):
    from PIL import ImageGrab
    c = view.canvas
    x, y = c.winfo_rootx(), c.winfo_rooty()
    return ImageGrab.grab(bbox=(x, y, x + c.winfo_width(), y + c.winfo_height()),
                          xdisplay=display)


def _play_slowly(homes):
    """The rest of the game, a step of each home every PACE_S (as people play, slower than
    the window looks at the store), so that the window is seen to follow it."""
    hosts = [h.headless(s) for h, s in zip(homes, (3, 4))]

    def step(host):
        def paced():
            time.sleep(PACE_S)
            return host.step()
        return paced
    run_until([step(h) for h in hosts], lambda: all(
        h.game.state.is_terminal() and not h.game.pending for h in homes)
        or any(h.game.stopped for h in homes), "the end of the game", WINDOW_WAIT_S)


def test_watch_view_shows_the_game_live_in_the_game_view_window(make_broker, tmp_path,
                                                                  display):
    import tkinter as tk
    broker = make_broker({"win": 2})
    homes = [Home(broker, "win", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    hosts = [h.headless(seed) for h, seed in zip(homes, (3, 4))]
    store = GameStore(tmp_path / "watched.sqlite3")
    spectator = Room(parse_address(broker.url("win", "win-watch")), password("win-watch"), [])
    lines = []
    watched = WatchThread(spectator, io.StringIO(), _Kept(store), lines.append)
    root = tk.Tk(screenName=display)
    follower = follow_watched(root, store.path, watched, on_error=lines.append)
    with closing(homes):
        run_until([h.step for h in hosts], lambda: len(homes[0].game.record) >= 10, "10 plies")
        spectator.start()
        watched.start()
        rest = threading.Thread(target=_play_slowly, args=(homes,), daemon=True)
        rest.start()
        drawn = []                       # the lengths of the game the window drew, in turn
        end = time.monotonic() + WINDOW_WAIT_S
        try:
            while time.monotonic() < end:
                root.update()
                shown = follower.view.shown
                if shown is not None and (not drawn or drawn[-1] != len(shown[1])):
                    drawn.append(len(shown[1]))
                if not watched.is_alive() and not rest.is_alive() and shown is not None \
                        and len(shown[1]) == len(homes[0].game.record):
                    break
                time.sleep(0.02)
            record = homes[0].game.record
            assert not rest.is_alive() and homes[0].game.state.is_terminal()
            assert watched.error is None and watched.game.record == record
            state, entries = follower.view.shown
            assert entries == record and state.is_terminal()
            root.update()
            assert not wrong_pixels(_grab(follower.view, display), follower.view.picture,
                                    state)
            # live: the window drew the game as the spectator read it, not only at its end
            assert len(drawn) >= 5 and drawn == sorted(drawn) and drawn[-1] == len(record)
            assert lines == []
            print(f"\nthe window drew {len(drawn)} lengths of the game: {drawn}")
        finally:
            watched.stop.set()
            watched.join(10)
            follower.close()
            root.destroy()
            spectator.close()
            store.close()


def test_knockboard_watch_view_from_the_command_line(make_broker, tmp_path, display):
    """The command itself, in a process of its own on the virtual screen (no window
    manager there: its window stands at the screen's corner): it lists the game in the
    terminal and its window ends showing the last position of the game the homes played."""
    broker = make_broker({"cmd": 2})
    homes = [Home(broker, "cmd", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    pw = tmp_path / "watch.pw"
    pw.write_text(password("cmd-watch") + "\n")
    env = dict(os.environ, DISPLAY=display, PYTHONPATH=f"{ROOT / 'host'}:{ROOT}")
    proc = subprocess.Popen([sys.executable, "-c", CLI, "watch", broker.url("cmd", "cmd-watch"),
                             "--view", "--password-file", str(pw)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with closing(homes):
            _play_slowly(homes)
            run_until([h.link.pump for h in homes], lambda: all(h.game._said_over
                                                                for h in homes),
                      "the homes' last hellos (they pin the last entry)", 10)
            record = homes[0].game.record
        assert homes[0].game.state.is_terminal()
        # the command's last line says the game is over once it has read all of it
        lines = []
        end = time.monotonic() + WINDOW_WAIT_S
        while not (lines and lines[-1].startswith("game over: ")) and time.monotonic() < end:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
        assert [line.split(": ", 1)[1] for line in lines[1:-1]] == record, lines[-3:]
        assert proc.poll() is None       # the window stays open on the last position
        state = _replayed(record)
        picture = Picture(get_ui(state.game), 560)
        shot = _screen(display, picture)
        wrong = wrong_pixels(shot, picture, state)
        for _ in range(20):              # its last poll of the store may be 0.25 s away
            if not wrong:
                break
            time.sleep(0.1)
            shot = _screen(display, picture)
            wrong = wrong_pixels(shot, picture, state)
        assert not wrong
        # (the check sees a position: the game's middle one differs from this picture)
        assert wrong_pixels(shot, picture, _replayed(record[:len(record) // 2]))
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def _replayed(record):
    from knockboard.games import get_game
    state = get_game("knockabout").new_initial_state()
    for entry in record:
        state.apply(state.parse_action(entry))
    return state


def _screen(display, picture):
    from PIL import ImageGrab
    return ImageGrab.grab(bbox=(0, 0, round(picture.width), round(picture.height)),
                          xdisplay=display)


def test_watch_view_without_a_display_says_so_in_one_line(capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["watch", "mqtt://nobody@127.0.0.1:1/room", "--view"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "watch --view needs a window" in err
