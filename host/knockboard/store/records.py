"""A game record: what is needed to replay a game exactly, and its JSON form.

The record is the list of actions in the engine's notation, chance outcomes included, from
the game's real start (or a given start position), with the edits made on the board as
"edit <position>" entries (entries.py), plus who played and how it ended.  A K.O. match is
one record too: its `rounds`, and its rounds one after another, each begun by a
"round <n>" entry (entries.py) once the round before is over.

The same record serves a game being played (the session pushes and pops entries as they are
played and taken back, and keeps who made each) and a game in the store or a JSON file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from ..games import CHANCE, GameError, get_game, get_match
from ..games.base import Action, State
from .entries import (EDITED, NEW_ROUND, apply_entry, edit_entry, has_edits,
                      replaces_state, round_entry, round_number)
from .record_json import FORMAT, RecordError, check_fields, check_match_fields, parse_json

# version 2: `actions` may hold edit entries ("edit <position>", see entries.py); a record
# without edits is still written as version 1, which older Knockboards read
# version 3: a match of several rounds (`rounds`, "round <n>" entries, `round_points`);
# a single game is still written as version 1 or 2
FORMAT_VERSION = 3
AGREED = "by agreement: "   # the result of a game the players ended (status "finished")
RESIGNED = "resigned: "     # ... of a game a seat resigned (a remote game's menu)
FORFEIT = "won by forfeit: "   # ... of a remote game a seat stopped (a cheat, its dice
                               # withheld, another game): that seat's home lost it
READABLE_VERSIONS = (1, 2, 3)


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
    rounds: int | None = None                        # a match's rounds; None: one game
    id: int | None = None
    # per entry pushed in this process: the seat, CHANCE or EDITED (who made it, for undo);
    # not stored: a record read back is replayed by the session, which pushes it again
    actors: list = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def seated(cls, game: str, options: dict, seats: list[str], seed: Optional[int],
               physical_dice: bool = False, rounds: int = 1) -> GameRecord:
        """A new game's record: `seats` per seat "human" or a bot's name; `rounds` above 1:
        a match of that many rounds."""
        names = get_game(game, **options)
        players = [{"name": names.player_name(i), "bot": None if kind == "human" else kind}
                   for i, kind in enumerate(seats)]
        return cls(game=game, options=dict(options), players=players, seed=seed,
                   dice="physical" if physical_dice else "electronic",
                   rounds=rounds if rounds > 1 else None)

    @property
    def seats(self) -> list[str]:
        """Per seat: "human" or the bot's name."""
        return ["human" if p.get("bot") is None else p["bot"] for p in self.players]

    @property
    def names(self) -> list[str]:
        """Per seat: the player's name (an unnamed seat's is its colour)."""
        return [str(p.get("name", "")) for p in self.players]

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

    def push_round(self, number: int) -> None:
        """Note the start of round `number` of the match."""
        self.actions.append(round_entry(number))
        self.actors.append(NEW_ROUND)

    def pop(self) -> str:
        self.actors.pop()
        return self.actions.pop()

    def last_decision(self, seats: Optional[set[int]] = None) -> Optional[int]:
        """Index of the last action made by a player (in `seats` if given) or the last edit
        (always the people at the board's), or None.  A round of a match, once over, is
        kept: nothing before the start of the round being played is a decision to undo."""
        for i in range(len(self.actors) - 1, -1, -1):
            actor = self.actors[i]
            if actor == NEW_ROUND:
                return None
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

    def follow(self, state: State, match: Any = None, result: Optional[str] = None) -> None:
        """Take the status and result of `state`, the game's state after the last entry
        (a game ended by agreement keeps its own); in a match (`match`: the rounds before
        this one), the match is finished and scored when its last round is; `result`: a
        single game's result in the words of the table (the session's adapter names the
        seats), else the engine's."""
        if self.agreed:
            return
        finished = state.is_terminal() and (match is None
                                            or match.rounds_played + 1 >= match.rounds)
        self.status = "finished" if finished else "playing"
        self.result = None
        if finished:
            self.result = (result or state.result()) if match is None \
                else with_round(match, state).result()

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
        replaces the state with the engine's own reading of the edit's position, a round
        entry with the game's fresh start.

        Raises RecordError naming the first entry that does not apply."""
        return self._replay(upto)[0]

    def replay_match(self, upto: Optional[int] = None) -> tuple[State, Any]:
        """(the state after the first `upto` entries (all by default), the match with the
        points of every round played to its end there, a round just over included); the
        match is None for a single game."""
        state, match = self._replay(upto)
        if match is not None and state.is_terminal() and not match.is_over():
            match = with_round(match, state)
        return state, match

    def _replay(self, upto: Optional[int] = None) -> tuple[State, Any]:
        """(state, the match with the rounds that a round entry ended, or None)."""
        state = self.initial_state()
        try:
            match = None if self.rounds is None else get_match(state.game, self.rounds)
        except GameError as err:
            raise RecordError(f"game {self.game!r}: {err}") from None
        for ply, text in enumerate(self.actions[:upto]):
            number = round_number(text)
            try:
                if number is not None:
                    end_round(match, state, number)
                elif match is not None and state.is_terminal() and not replaces_state(text) \
                        and match.rounds_played + 1 < match.rounds:
                    raise GameError(f"round {match.rounds_played + 1} is over here: the entry "
                                    f"'round {match.rounds_played + 2}' is missing")
                state = apply_entry(state, text)
            except GameError as err:
                raise RecordError(f"action {ply + 1} {text!r}: {err}") from None
        return state, match

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_dict(self) -> dict[str, Any]:
        """The record in the JSON export format."""
        state, match = self.replay_match()
        version = 3 if match is not None else 2 if has_edits(self.actions) else 1
        out = {
            "format": FORMAT, "version": version,
            "game": self.game, "options": self.options, "players": self.players,
            "seed": self.seed, "start_position": self.start_position,
            "started": self.started, "ended": self.ended,
            "result": self.result, "status": self.status, "dice": self.dice,
            "actions": self.actions, "final_position": state.to_position(),
        }
        if match is not None:
            out.update(rounds=self.rounds,
                       round_points=[list(points) for points in match.round_points])
        return out

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse and check an exported record: it must replay to its final position."""
        data = parse_json(text)
        check_fields(data, READABLE_VERSIONS, has_edits)
        check_match_fields(data)
        record = cls(game=data["game"], options=data["options"], players=data["players"],
                     seed=data.get("seed"), start_position=data.get("start_position"),
                     actions=list(data["actions"]), started=data["started"],
                     ended=data.get("ended"), result=data.get("result"),
                     status=data["status"], dice=data.get("dice", "electronic"),
                     rounds=data.get("rounds"))
        state, match = record.replay_match()
        final = state.to_position()
        if "final_position" in data and data["final_position"] != final:
            raise RecordError(f"the actions replay to {final!r}, not to the recorded final "
                              f"position {data['final_position']!r}")
        if match is not None:
            _check_rounds(record, match, data.get("round_points"))
        return record


def _check_rounds(record: GameRecord, match: Any, round_points: Optional[list]) -> None:
    """A match read from a file: its rounds as its actions play them."""
    played = [list(points) for points in match.round_points]
    if round_points is not None and round_points != played:
        raise RecordError(f"the actions give the rounds' points {played}, not the "
                          f"recorded {round_points}")
    if record.status == "finished" and not record.agreed and not match.is_over():
        raise RecordError(f"the match of {match.rounds} rounds is marked finished, but "
                          f"round {match.rounds_played + 1} is missing or unfinished")


def end_round(match: Any, state: State, number: int) -> None:
    """Add the round that `state` ended to `match`, as round entry `number` says it is
    over; GameError if a round is missing, the match has no such round, or it is no
    match."""
    if match is None:
        raise GameError("a single game has no rounds")
    expected = match.rounds_played + 2
    if number > expected:
        raise GameError(f"round {expected} is missing: round {number} follows round "
                        f"{expected - 1}")
    if number > match.rounds:
        raise GameError(f"the match has {match.rounds} rounds, not {number}")
    if number < expected:
        raise GameError(f"round {number} cannot start here; round {expected} comes next")
    match.record(state)


def with_round(match: Any, state: State) -> Any:
    """A copy of `match` with the round `state` ended added."""
    match = match.copy()
    match.record(state)
    return match
