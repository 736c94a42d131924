"""A game record: what is needed to replay a game exactly, and its JSON form.

The record is the list of actions in the engine's notation, chance outcomes included, from
the game's real start (or a given start position), with the edits made on the board as
"edit <position>" entries (entries.py), plus who played and how it ended.

The same record serves a game being played (the session pushes and pops entries as they are
played and taken back, and keeps who made each) and a game in the store or a JSON file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from ..games import CHANCE, GameError, get_game
from ..games.base import Action, State
from .entries import EDITED, apply_entry, edit_entry, has_edits
from .record_json import FORMAT, RecordError, check_fields, parse_json

# version 2: `actions` may hold edit entries ("edit <position>", see entries.py); a record
# without edits is still written as version 1, which older Knockboards read
FORMAT_VERSION = 2
AGREED = "by agreement: "   # the result of a game the players ended (status "finished")
RESIGNED = "resigned: "     # ... of a game a seat resigned (a remote game's menu)
READABLE_VERSIONS = (1, 2)


@dataclass
class GameRecord:
    game: str
    options: dict = field(default_factory=dict)
    players: list = field(default_factory=list)     # [{"name": str, "bot": str | None}]
    seed: int | None = None
    start_position: str | None = None
    actions: list = field(default_factory=list)     # notation strings and edit entries
    started: str = ""
    ended: str | None = None
    result: str | None = None
    status: str = "playing"
    dice: str = "electronic"                         # or "physical": entered on the board
    id: int | None = None
    # per entry pushed in this process: the seat, CHANCE or EDITED (who made it, for undo);
    # not stored: a record read back is replayed by the session, which pushes it again
    actors: list = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def seated(cls, game: str, options: dict, seats: list[str], seed: Optional[int],
               physical_dice: bool = False) -> GameRecord:
        """A new game's record: `seats` per seat "human" or a bot's name."""
        names = get_game(game, **options)
        players = [{"name": names.player_name(i), "bot": None if kind == "human" else kind}
                   for i, kind in enumerate(seats)]
        return cls(game=game, options=dict(options), players=players, seed=seed,
                   dice="physical" if physical_dice else "electronic")

    @property
    def seats(self) -> list[str]:
        """Per seat: "human" or the bot's name."""
        return ["human" if p.get("bot") is None else p["bot"] for p in self.players]

    def set_seat(self, seat: int, kind: str) -> None:
        self.players[seat] = dict(self.players[seat], bot=None if kind == "human" else kind)

    # --- a game being played ------------------------------------------------------------------
    def push(self, state: State, action: Action) -> None:
        """Note `action` (about to be applied to `state`)."""
        self.actions.append(state.action_to_string(action))
        self.actors.append(state.current_player())

    def push_edit(self, position: str) -> None:
        """Note an edit that leaves the game in `position`."""
        self.actions.append(edit_entry(position))
        self.actors.append(EDITED)

    def pop(self) -> str:
        self.actors.pop()
        return self.actions.pop()

    def last_decision(self, seats: Optional[set[int]] = None) -> Optional[int]:
        """Index of the last action made by a player (in `seats` if given) or the last edit
        (always the people at the board's), or None."""
        for i in range(len(self.actors) - 1, -1, -1):
            actor = self.actors[i]
            if actor == EDITED or (actor != CHANCE and (seats is None or actor in seats)):
                return i
        return None

    @property
    def agreed(self) -> bool:
        """The players ended the game themselves: by agreement (`agree`), or a seat
        resigned, which the others take as it is (`resign`)."""
        return self.status == "finished" and (self.result or "").startswith((AGREED,
                                                                              RESIGNED))

    def agree(self, standing: str) -> None:
        """End the game where it stands, scored by `standing` (who leads, the points)."""
        self.status, self.result = "finished", AGREED + standing

    def resign(self, who: str) -> None:
        """End the game where it stands: `who` resigned ("Black (White wins)")."""
        self.status, self.result = "finished", RESIGNED + who

    def follow(self, state: State, result: Optional[str] = None) -> None:
        """Take the status and result of `state`, the game's state after the last entry
        (a game ended by agreement keeps its own); `result`: the result in the words of
        the table (the session's adapter names the seats), else the engine's."""
        if self.agreed:
            return
        finished = state.is_terminal()
        self.status = "finished" if finished else "playing"
        self.result = (result or state.result()) if finished else None

    def initial_state(self) -> State:
        try:
            game = get_game(self.game, **self.options)
            if self.start_position is None:
                return game.new_initial_state()
            return game.from_position(self.start_position)
        except GameError as err:
            raise RecordError(f"game {self.game!r}: {err}") from None

    def replay(self, upto: Optional[int] = None) -> State:
        """The engine state after the first `upto` entries (all by default); an edit entry
        replaces the state with the engine's own reading of the edit's position.

        Raises RecordError naming the first entry that does not apply."""
        state = self.initial_state()
        for ply, text in enumerate(self.actions[:upto]):
            try:
                state = apply_entry(state, text)
            except GameError as err:
                raise RecordError(f"action {ply + 1} {text!r}: {err}") from None
        return state

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_dict(self) -> dict[str, Any]:
        """The record in the JSON export format."""
        state = self.replay()
        return {
            "format": FORMAT, "version": FORMAT_VERSION if has_edits(self.actions) else 1,
            "game": self.game, "options": self.options, "players": self.players,
            "seed": self.seed, "start_position": self.start_position,
            "started": self.started, "ended": self.ended,
            "result": self.result, "status": self.status, "dice": self.dice,
            "actions": self.actions, "final_position": state.to_position(),
        }

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse and check an exported record: it must replay to its final position."""
        data = parse_json(text)
        check_fields(data, READABLE_VERSIONS, has_edits)
        record = cls(game=data["game"], options=data["options"], players=data["players"],
                     seed=data.get("seed"), start_position=data.get("start_position"),
                     actions=list(data["actions"]), started=data["started"],
                     ended=data.get("ended"), result=data.get("result"),
                     status=data["status"], dice=data.get("dice", "electronic"))
        final = record.replay().to_position()
        if "final_position" in data and data["final_position"] != final:
            raise RecordError(f"the actions replay to {final!r}, not to the recorded final "
                              f"position {data['final_position']!r}")
        return record
