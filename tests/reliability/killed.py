"""The host killed without warning: `knockboard play GAME --port <pty>` runs as its own
process against the simulator's virtual board behind a pseudo-terminal, in real time,
exactly as against a board on USB; it is SIGKILLed at random points (after a random number
of stored actions and a random while more, up to 1.5 s: mid step, mid write, mid
handshake), and `knockboard resume --port <pty>` goes on with the saved game, until it
ends. The game in the store must then be exactly the game played without interruption.

Every seat is a computer player (`--bots`), so the person at the board only confirms
the steps shown (OK), which the driver here does by reading the board's OLED, as a person
would; the record depends on the seed alone."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from autoplay import AutoPlayer
from board_driver import VirtualBoard as SessionBoard

from knockboard.session import Session, Setup, parse_bots
from knockboard.sim import start_pty

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAY_OPTIONS = {"ko": {"players": 2}, "knockoff": {"players": 2}}
# `--bots` per game: computers in every seat; in Dodgeball one plays at random, because two
# greedy players can stalemate for thousands of plies
BOTS = {"dodgeball": "1,2=random"}
GAME_SEEDS = {"knockabout": 11, "dodgeball": 3, "ko": 5, "knockoff": 7}
TAP_S = 0.025
GAME_LIMIT_S = 600.0     # wall seconds for one game with all its kills


def expected_record(game, seed):
    """The game played without interruption, in process on simulated time."""
    vb = SessionBoard(game)
    players = PLAY_OPTIONS.get(game, {}).get("players", 2)
    seats = parse_bots(BOTS.get(game, "all"), players)
    vb.session = Session(vb.board, Setup(game, dict(PLAY_OPTIONS.get(game, {})), seats,
                                         seed=seed), clock=vb.clock)
    vb.run(1.0)
    assert AutoPlayer(vb, seed).play(20000)
    return list(vb.session.record.actions)


def host_command(verb, game, port, db, seed):
    argv = [sys.executable, "-m", "knockboard.cli", verb]
    if verb == "play":
        argv += [game, "--bots", BOTS.get(game, "all"), "--seed", str(seed)]
        for key, value in PLAY_OPTIONS.get(game, {}).items():
            argv += ["--players", str(value)] if key == "players" else \
                ["--option", f"{key}={value}"]
    return argv + ["--port", port, "--db", str(db)]


def start_host(verb, game, port, db, seed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "host"), os.environ.get("PYTHONPATH", "")]))
    env.pop("KNOCKBOARD_DB", None)
    return subprocess.Popen(host_command(verb, game, port, db, seed), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def stored(db):
    """(number of stored actions, status, actions) of game 1, or (0, None, [])."""
    if not os.path.exists(db):
        return 0, None, []
    con = sqlite3.connect(db, timeout=5)
    try:
        row = con.execute("SELECT status FROM games WHERE id = 1").fetchone()
        if row is None:
            return 0, None, []
        actions = [a for (a,) in con.execute(
            "SELECT action FROM actions WHERE game_id = 1 ORDER BY ply")]
        return len(actions), row[0], actions
    except sqlite3.OperationalError:      # the schema is being created right now
        return 0, None, []
    finally:
        con.close()


def games_in(db):
    con = sqlite3.connect(db, timeout=5)
    try:
        return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        con.close()


class OkPresser:
    """A person at the board who presses OK whenever the OLED asks for it (a step shown,
    or a resumed game's set-up check) and presses again if nothing happened in a second
    (the host may have been dead). Never presses on "Game over" (OK would open the menu)."""

    def __init__(self, vb):
        self.vb = vb
        self.last = None
        self.last_tap = 0.0
        self.taps = 0

    def over(self):
        lines = self.vb.oled().lines
        return bool(lines) and lines[0] == "Game over"

    def poke(self):
        lines = self.vb.oled().lines
        if len(lines) < 3 or lines[0] == "Game over":
            return
        if not lines[2].startswith(("OK when done", "OK=done")):   # a step "1/3", or edit
            return
        now = time.monotonic()
        if lines == self.last and now - self.last_tap < 1.0:
            return
        self.vb.press("OK")
        time.sleep(TAP_S)
        self.vb.release("OK")
        time.sleep(TAP_S)
        self.last, self.last_tap = lines, time.monotonic()
        self.taps += 1


def kill_and_resume(game, kills, rng, db, seed=None, expected=None, log=None):
    """Plays `game` in host processes killed at `kills` random points; returns figures.
    AssertionError if the saved game differs from the uninterrupted one."""
    seed = GAME_SEEDS[game] if seed is None else seed
    expected = expected or expected_record(game, seed)
    targets = sorted(rng.randrange(0, len(expected)) for _ in range(kills))
    if targets and rng.random() < 0.25:
        targets[0] = 0          # now and then, before the first move: mid start-up
    figures = {"kills": 0, "kills before the first action": 0, "processes": 0,
               "resumes": 0, "plies": len(expected)}
    t_end = time.monotonic() + GAME_LIMIT_S
    with start_pty(game, seed=seed) as port:
        presser = OkPresser(port.board)
        verb = "play"
        while True:
            proc = start_host(verb, game, port.path, db, seed)
            figures["processes"] += 1
            figures["resumes"] += verb == "resume"
            target = targets.pop(0) if targets else None
            reached = None
            while True:
                assert time.monotonic() < t_end, f"{game}: not done in {GAME_LIMIT_S:g} s"
                if proc.poll() is not None:
                    raise AssertionError(f"{game}: the host exited by itself "
                                         f"({proc.returncode}): {proc.stderr.read()!r}")
                n, status, actions = stored(db)
                if status == "finished" and presser.over():
                    break
                if target is not None and n >= target:
                    # killed a random while after that many actions were saved: while it
                    # starts, handshakes, shows the set-up, a step, or saves the next one
                    now = time.monotonic()
                    if reached is None:
                        reached = now
                        delay = rng.choice((0.05, 0.5, 1.5)) * rng.random()
                    if now - reached >= delay:
                        break
                presser.poke()
                time.sleep(0.01)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stderr.close()
            n, status, actions = stored(db)
            assert actions == expected[:n], f"{game}: stored actions are not a prefix"
            if status == "finished":
                break
            figures["kills"] += 1
            figures["kills before the first action"] += n == 0
            if log:
                log(f"  {game}: killed at ply {n}/{len(expected)}")
            verb = "resume" if status == "playing" else "play"
    n, status, actions = stored(db)
    assert actions == expected and status == "finished", \
        f"{game}: the resumed game differs from the uninterrupted one"
    assert games_in(db) == 1, f"{game}: {games_in(db)} games in the store, not one"
    figures["taps"] = presser.taps
    return figures


__all__ = ["GAME_SEEDS", "expected_record", "kill_and_resume"]
