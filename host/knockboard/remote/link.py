"""A remote game and its room together, as the session and the headless hosts use them:
`pump()` hands the broker's messages to the game, `status()` says in a line the OLED can
show what the game waits for."""

from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Mapping, Optional

from ..games import CHANCE, State
from ..games.base import Action
from ..session.types import clip
from .address import RoomAddress
from .journal import Journal
from .keys import Keys

if TYPE_CHECKING:
    from ..session.adapters.base import GameUI
    from .game import RemoteGame
    from .room import Room


class RemoteLink:
    def __init__(self, game: "RemoteGame", room: "Room") -> None:
        self.game, self.room = game, room

    def pump(self) -> None:
        """What arrived, handed to the game.  Each message is guarded on its own (room.py,
        game.py); should anything else still raise, the game stops saying what, rather
        than the session ending in a traceback."""
        try:
            self.room.pump(self.game)
        except Exception as err:          # noqa: BLE001 - a remote game never ends a session
            self.game.fail(f"{type(err).__name__}: {err}")

    def status(self, ui: Optional["GameUI"] = None) -> str:
        """<= 16 characters: why this board waits; `ui` (the session's game adapter) names
        the seat waited for as the players know it ("Black to move"), else "seat 2"."""
        game = self.game
        if game.stopped:
            return "game stopped"
        if self.room.error:
            return "broker refused"
        if not self.room.connected:
            return "no broker"
        if not game.joined:
            return "joining room"
        if game.over or game.local_turn():
            return ""
        if game.ending.waits_for_answer():
            return "end offered"
        player = game.state.current_player()
        if player != CHANCE:
            return ui.prompt(game.state) if ui else f"seat {player + 1} to move"
        if not game.physical:
            return "dice"
        roller = game.roller()
        return clip(f"dice: {ui.seat_name(roller) if ui else f'seat {roller + 1}'}")

    def close(self) -> None:
        self.room.close()


class HeadlessHost:
    """A home without a board: its seats are played by `choose(state) -> action` (a bot, a
    script); for the tests and the benchmark."""

    def __init__(self, link: RemoteLink, choose: Callable[[State], Action]) -> None:
        self.link, self.choose = link, choose

    @property
    def game(self) -> "RemoteGame":
        return self.link.game

    def step(self) -> bool:
        """Take what arrived, then play this home's turn if it is one; True if it played."""
        self.link.pump()
        if not self.game.local_turn():
            return False
        state = self.game.state
        self.game.play(state.action_to_string(self.choose(state.clone())))
        return True


CONNECT_WAIT_S = 10.0
CONNECT_POLL_S = 0.05


def open_link(address: RoomAddress, password: Optional[str], seats: Collection[int], game: str,
              options: Mapping[str, Any], keys: Keys, *, physical_dice: bool = False,
              actions: Iterable[str] = (), ca_file: Optional[str] = None,
              log: Callable[[str], None] = print, reveal_timeout: Optional[float] = None,
              away_timeout: Optional[float] = None, journal: Optional[Journal] = None,
              wait: float = CONNECT_WAIT_S) -> RemoteLink:
    """Connect this home (0-based `seats`) to the room at `address` and make its game;
    RoomError in one line if the broker cannot be reached or refuses us within `wait`.
    `journal`: where the game's dice commitments and a stop are saved (journal.py)."""
    import time

    from .game import DEFAULT_AWAY_TIMEOUT_S, DEFAULT_REVEAL_TIMEOUT_S, RemoteGame
    from .room import Room, RoomError
    room = Room(address, password, seats, ca_file=ca_file, log=log)
    remote = RemoteGame(address.room, game, options, seats, keys, send=room.publish,
                      physical_dice=physical_dice, actions=actions, log=log,
                      reveal_timeout=reveal_timeout or DEFAULT_REVEAL_TIMEOUT_S,
                      away_timeout=away_timeout or DEFAULT_AWAY_TIMEOUT_S, journal=journal)
    room.start()
    for _ in range(int(wait / CONNECT_POLL_S) + 1):
        if room.connected or room.error:
            break
        time.sleep(CONNECT_POLL_S)
    if not room.connected:
        room.close()
        raise RoomError(room.error or f"no answer from the broker at {address.host}:"
                        f"{address.port} within {wait:g} s")
    return RemoteLink(remote, room)
