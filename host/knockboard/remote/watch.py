"""Watching a remote game: a spectator (a read-only broker user) joins the room, learns the
game from the seats' hellos, reads every entry so far (from the seats' pages, catchup.py),
checks each with its own engine and the dice against their commitments, and follows the
game to its end, one line an entry, as `knockboard watch URL` shows it.  An entry is shown
once every seat's messages have pinned it (transcript.py): a game a seat rewrote is shown
as the seats agreed, and one line names the seat that rewrote it (its own messages
contradict each other) or, when no seat's messages do, says where their histories part."""

import time
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, TextIO, Union

from ..games import CHANCE
from ..session.adapters import get_ui
from ..session.adapters.base import GameUI
from .keys import MemoryKeys
from .messages import HELLO, Message

if TYPE_CHECKING:
    from .game import RemoteGame
    from .room import Room

SETUP_WAIT_S = 15.0      # no seat's hello in this long: no game in the room
PIN_WAIT_S = 5.0         # the game over, how long its last entries may wait for the homes'
                         # last hellos, which pin them (transcript.py)
BUFFERED = 4096          # messages kept while the set-up is not known yet (then replayed)
POLL_S = 0.05


class WatchError(Exception):
    """The room cannot be watched (nobody has said hello in it)."""


class SetupReader:
    """Stands in for the game until a seat's hello says which game the room plays: keeps the
    first hello and the messages that come with it (bounded), for the game to read next."""

    def __init__(self) -> None:
        self.record = ()           # the window of entries to read starts at the first
        self.setup: Optional[Message] = None        # the first seat's hello read
        self.kept: list[Message] = []
        # (topic, why) of what could not even be read
        self.unread: list[tuple[str, Union[str, Exception]]] = []

    def hello(self) -> None:
        """(Connected: a spectator says nothing.)"""

    def history(self) -> list[Message]:
        """(A spectator has no pages to write.)"""
        return []

    def receive(self, message: Message) -> None:
        if message.kind == HELLO and self.setup is None:
            self.setup = message
        if len(self.kept) < BUFFERED:
            self.kept.append(message)

    def refuse_unread(self, topic_name: str, why: Union[str, Exception]) -> None:
        if len(self.unread) < BUFFERED:
            self.unread.append((topic_name, why))

    def tick(self, connected: bool = True, lost: int = 0) -> None:
        """(Nothing is timed before the game is known.)"""


class WatchRecord(Protocol):
    """What `watch_game` gives each entry, the set-up and the end to (NoRecord, or
    cli/watch.py's store)."""

    def setup(self, game: "RemoteGame") -> None: ...

    def entry(self, ply: int, text: str) -> None: ...

    def end(self, result: Optional[str], stopped: Optional[str]) -> None: ...


class NoRecord:
    """Where a watched game is kept: nowhere (cli/watch.py's `--db` keeps it in a store)."""

    def setup(self, game: "RemoteGame") -> None:
        """The game is known (a RemoteGame with no entries applied yet)."""

    def entry(self, ply: int, text: str) -> None:
        """Entry `ply` of the game, as shown."""

    def end(self, result: Optional[str], stopped: Optional[str]) -> None:
        """The game ended with `result`, or `stopped` (the line saying why)."""


def watch_game(room: "Room", out: TextIO, *, log: Callable[[str], None],
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep, setup_wait: float = SETUP_WAIT_S,
               until: Optional[Callable[[], bool]] = None,
               record: Optional[WatchRecord] = None) -> Optional["RemoteGame"]:
    """Follow the game in `room` (a started room.Room with no seats) until it is over or
    stops (or `until()`); each entry, the end and a stop are printed to `out`, and given to
    `record` (a NoRecord's methods).  Returns the RemoteGame (None if `until()` came first);
    WatchError if no seat says hello within `setup_wait`."""
    record = record or NoRecord()
    from .game import RemoteGame
    reader = _read_setup(room, clock, sleep, setup_wait, until or (lambda: False))
    if reader is None:
        return None                   # (a window closed before the room's game was known)
    hello: Message = reader.setup  # type: ignore[assignment]  # read: _read_setup's loop
    game = RemoteGame(room.address.room, hello["game"], hello["options"], [], MemoryKeys(),
                      send=room.publish, physical_dice=hello["dice"] == "physical", log=log)
    ui = get_ui(game.game)
    record.setup(game)
    print(f"watching room {room.address.room}: {hello['game']} {_options(game.options)}, "
          f"{game.players} seats, {hello['dice']} dice", file=out, flush=True)
    for topic_name, why in reader.unread:
        game.refuse_unread(topic_name, why)
    for message in reader.kept:
        game.receive(message)
    shown, over_at = 0, None
    while True:
        # an entry is shown once every seat's messages have pinned it (transcript.py)
        shown = _show(game, ui, shown, game.agreed, out, record)
        if game.over and over_at is None:
            over_at = clock()
        if game.stopped or (until is not None and until()) or over_at is not None and (
                game.agreed == len(game.record) or clock() - over_at > PIN_WAIT_S):
            break
        room.pump(game)
        sleep(POLL_S)
    if game.conflict:
        _await_blame(game, room, clock, sleep)
        shown = _show(game, ui, shown, game.agreed, out, record)
    if not game.stopped:
        _show(game, ui, shown, len(game.record), out, record, " (not pinned by every seat)")
    if game.stopped:
        print(f"stopped: {game.stopped}", file=out, flush=True)
        record.end(None, game.stopped)
    elif game.over:
        print(f"game over: {_result(game, ui)}", file=out, flush=True)
        record.end(_result(game, ui), None)
    return game


def _read_setup(room: "Room", clock: Callable[[], float], sleep: Callable[[float], None],
                setup_wait: float, until: Callable[[], bool]) -> Optional[SetupReader]:
    """The SetupReader once a seat's hello says which game the room plays; None if `until()`
    came first; WatchError after `setup_wait` seconds."""
    reader = SetupReader()
    end = clock() + setup_wait
    while reader.setup is None:
        if until():
            return None
        if clock() > end:
            raise WatchError(f"nobody has said hello in room {room.address.room} within "
                             f"{setup_wait:g} s: no game there (or not yet)")
        room.pump(reader)
        sleep(POLL_S)
    return reader


def _await_blame(game: "RemoteGame", room: "Room", clock: Callable[[], float],
                 sleep: Callable[[float], None]) -> None:
    """Which seat rewrote its history shows in its own later messages, which may come after
    the ones that showed the conflict (transcript.blame): read on a while for them."""
    end = clock() + PIN_WAIT_S
    while game.blamed is None and clock() < end:
        room.pump(game)
        sleep(POLL_S)


def _show(game: "RemoteGame", ui: GameUI, shown: int, upto: int, out: TextIO,
          record: WatchRecord, note: str = "") -> int:
    """Print the entries of `game` from `shown` to `upto`; the number shown now."""
    for ply in range(shown, upto):
        actor = game.actors[ply]
        who = "dice" if actor == CHANCE else ui.seat_name(actor)
        print(f"{ply + 1:>5}. {who}: {game.record[ply]}{note}", file=out, flush=True)
        record.entry(ply, game.record[ply])
    return max(shown, upto)


def _result(game: "RemoteGame", ui: GameUI) -> str:
    from .ending import RESIGNED
    ended = game.ending.ended
    if ended is None:
        return ui.result(game.state) or "the rules ended the game"
    kind, seats = ended
    if kind == RESIGNED:
        return " and ".join(ui.seat_name(s) for s in seats) + " resigned"
    verdict, tally = ui.standing(game.state)
    return f"by agreement: {verdict} ({tally})"


def _options(options: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "(no options)"
