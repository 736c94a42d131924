"""Homes for the remote tests: each a RemoteGame behind its own connection to the test's
broker, played headless by a seeded script or on a simulated board by presses."""

import hashlib
import io
import random
import time
from contextlib import contextmanager

from knockboard.games import sample_chance
from knockboard.remote import (HeadlessHost, MemoryKeys, RemoteGame, RemoteLink, Room,
                               parse_address)
from knockboard.remote.room import KEEPALIVE_S

from broker import password

ROUND_S = 0.005
MAX_ROUNDS = 200_000       # every wait loop is bounded in count ...
MAX_SECONDS = 40.0         # ... and in time


def scripted(seed):
    """A chooser whose choice depends only on the seed and the ply (and so is the same for
    a host restarted from its record)."""
    def choose(state):
        rng = random.Random(f"{seed}:{len(state.history)}")
        if state.is_chance_node():
            return sample_chance(state, rng)
        return rng.choice(state.legal_actions())
    return choose


class Home:
    def __init__(self, broker, room, game, options, seats, *, user=None, keys=None,
                 actions=(), physical=False, reveal_timeout=120.0, ca_file=None, log=None,
                 port=None, keepalive=KEEPALIVE_S, away_timeout=1800.0, journal=None):
        """`seats`: this home's 1-based seats; its broker user is `ROOM-<first seat>`."""
        self.lines = []
        self.log = log or self.lines.append
        user = user or f"{room}-{seats[0]}"      # a spectator (no seats) names its user
        self.address = parse_address(broker.url(room, user, port))
        local = [s - 1 for s in seats]
        self.room = Room(self.address, password(user), local, ca_file=ca_file, log=self.log,
                         keepalive=keepalive)
        # a fixed secret per room and seats: the same dice, so the same game, every run
        self.keys = keys or MemoryKeys(hashlib.sha256(f"{room}/{seats}".encode()).digest())
        self.game = RemoteGame(room, game, options, local, self.keys, send=self.room.publish,
                               physical_dice=physical, actions=actions, log=self.log,
                               reveal_timeout=reveal_timeout, away_timeout=away_timeout,
                               journal=journal)
        self.link = RemoteLink(self.game, self.room)

    def start(self):
        self.room.start()
        return self

    def close(self):
        self.link.close()

    def kill(self):
        """As if the host process died: no goodbye, the socket just closes (the broker
        publishes the home's last will)."""
        client = self.room.client
        client.loop_stop()
        sock = client.socket()
        if sock is not None:
            sock.close()

    def headless(self, seed):
        return HeadlessHost(self.link, scripted(seed))


def run_until(steps, done, what="the condition", max_seconds=MAX_SECONDS):
    """Call every step until `done()`; fails after MAX_ROUNDS rounds or `max_seconds`."""
    end = time.monotonic() + max_seconds
    for _ in range(MAX_ROUNDS):
        if done():
            return
        if time.monotonic() > end:
            break
        played = False
        for step in steps:
            played = bool(step()) or played
        if not played:
            time.sleep(ROUND_S)
    raise AssertionError(f"not reached within {max_seconds} s: {what}")


def play_headless(homes, seeds, max_seconds=MAX_SECONDS):
    hosts = [h.headless(s) for h, s in zip(homes, seeds)]
    run_until([h.step for h in hosts],
              lambda: all(h.game.state.is_terminal() and not h.game.pending for h in homes)
              or any(h.game.stopped for h in homes), "the end of the game", max_seconds)
    return hosts


def last_hellos(homes):
    """Pump every home until each has said its last hello (it pins the game's last entry)."""
    run_until([h.link.pump for h in homes], lambda: all(h.game._said_over for h in homes),
              "the homes' last hellos", 10)


def finished_game(broker, room, game, seeds=(3, 4)):
    """Two headless homes (seats 1 and 2) play `game` in `room` to its end and say their
    last hellos; (the homes, closed, and the game's record)."""
    homes = [Home(broker, room, game, {}, [seat]).start() for seat in (1, 2)]
    with closing(homes):
        play_headless(homes, seeds)
        last_hellos(homes)
    return homes, list(homes[0].game.record)


class BoardHome(Home):
    """A home with a simulated board (the firmware core behind the real board link) and a
    Session on it; `player` presses for the people at this board."""

    def __init__(self, broker, room, game, options, seats, seed, saver=None, **kw):
        super().__init__(broker, room, game, options, seats, **kw)
        from autoplay import AutoPlayer
        from board_driver import VirtualBoard
        from knockboard.session import Session, Setup
        self.vb = VirtualBoard(game)
        players = self.game.players
        kinds = ["human" if s + 1 in seats else "remote" for s in range(players)]
        self.out = io.StringIO()
        self.vb.session = Session(self.vb.board, Setup(game, options, kinds, seed=seed),
                                  clock=self.vb.clock, remote=self.link, out=self.out,
                                  saver=saver, actions=kw.get("actions", ()))
        self.player = AutoPlayer(self.vb, seed, aggressive=True)

    @property
    def session(self):
        return self.vb.session

    def step(self):
        """One thing done at this board; True if a person did something."""
        s = self.session
        if s.mode in ("remote", "over"):
            self.vb.run(0.02)
            return False
        return self.player.act()


def play_boards(homes, max_seconds=MAX_SECONDS, until=None):
    """Play on every board until the game is over on all (or `until()`)."""
    run_until([h.step for h in homes],
              lambda: all(h.session.mode == "over" for h in homes)
              or any(h.game.stopped for h in homes) or (until is not None and until()),
              "the end of the game on every board", max_seconds)


def waiting_shown(home):
    """The board's OLED says it waits for the other board."""
    return home.vb.oled()[0][:2] == ["waiting for the", "other board"]


@contextmanager
def closing(homes, *others):
    """Close every home of the list as it stands at the end (a test may replace one), then
    the other resources, however the test ends."""
    try:
        yield
    finally:
        for thing in [*homes, *others]:
            thing.close()
