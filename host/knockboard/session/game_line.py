"""The game line: the engine state of the game being played and everything that must stay
in step with it, the record, the states edits replaced, the units redo can play again and
the dice outcomes undone at chance nodes.

Only the line's operations change them (play, take back, redo, edit, a new round; a new
game is a new line), and each keeps the invariants below, as python-chess's push and pop
keep the move stack and the board together:

- the state is the record's entries applied to the game's start (`GameRecord.replay`);
- one replaced state is kept per edit entry of the record, so that taking an edit back
  restores the state it replaced exactly, history and all;
- redo holds only what was taken back since the last new entry: whatever is played or
  edited, the undone entries no longer follow from the new position;
- an outcome is remembered only for a chance node no longer played at, and the round being
  played never sees those of a round before.

The session asks the line to change and shows what changed; modes change it only through the
session or these operations (tests/test_state_ownership.py keeps it so)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from ..games import CHANCE
from ..store.entries import EDITED, NEW_ROUND, edited_position, round_number
from ..store.records import end_round

if TYPE_CHECKING:
    from ..games.base import Action, Game, State
    from ..store import GameRecord


class LineError(ValueError):
    """An operation the line cannot make where it stands (one clear line)."""


@dataclass(frozen=True)
class Edit:
    """An edit as the line takes it back and plays it again: the position it sets."""
    position: str


@dataclass(frozen=True)
class Move:
    """One entry of the line as played: the states before and after it (copies the line
    no longer changes) and the entry, an engine action or an Edit."""
    before: State
    entry: Union[Action, Edit]
    after: State


class GameLine:
    def __init__(self, game: Game, record: GameRecord, match: Any = None) -> None:
        """A new game of `game` noted in `record` (no entry yet); `match`: a K.O. match's
        rounds over so far (`games.get_match`), None for a single game."""
        if record.actions:
            raise LineError("a new game line starts from an empty record")
        self._game = game
        self._record = record
        self._match = match
        self._state = game.new_initial_state()
        self._before_edits: list[State] = []      # the state each edit entry replaced
        self._redo: list[list[Union[Action, Edit]]] = []   # per redo: its entries in order
        self._remembered: dict[str, Action] = {}  # chance position -> the outcome undone

    @property
    def state(self) -> State:
        """The engine state after the record's entries (change it only through the line)."""
        return self._state

    @property
    def record(self) -> GameRecord:
        return self._record

    @property
    def match(self) -> Any:
        """The match's rounds over before the one being played; None for a single game."""
        return self._match

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def remembered_outcome(self) -> Optional[Action]:
        """The outcome taken back at this chance node, played again when play comes back
        to it (undo keeps the dice); None if none was."""
        return self._remembered.get(self._state.to_position())

    # --- new entries ----------------------------------------------------------------------
    def play(self, action: Action) -> None:
        """Play `action` (a player's or a chance outcome) and note it; redo is forgotten.
        GameError if the engine refuses it, and the line is as it was."""
        self._redo.clear()
        self._push(action)

    def edit(self, state: State, position: Optional[str] = None) -> None:
        """A person's edit: `state` (the engine's reading of the edited position) becomes
        the game's, noted as an edit entry (`position`: its text as recorded, else the
        state's own); redo is forgotten, as after a move."""
        self._redo.clear()
        self._push_edit(state, position)

    def new_round(self, number: int) -> None:
        """The round the state ended joins the match and round `number` starts afresh; GameError if
        that is not the next round (the match's own checks), and nothing changes.  Nothing
        of the round over carries into the new one: its redo, its remembered dice."""
        end_round(self._match, self._state, number)
        self._record.push_round(number)
        self._state = self._game.new_initial_state()
        self._redo.clear()
        self._remembered.clear()

    def replay(self, entry: str) -> None:
        """Play one entry of a record being resumed: an edit, a round's start or an
        action's notation.  GameError if it does not apply here."""
        position = edited_position(entry)
        number = round_number(entry)
        if position is not None:
            self.edit(self._game.from_position(position), position)
        elif number is not None:
            self.new_round(number)
        else:
            self.play(self._state.parse_action(entry))

    def agree(self, standing: str) -> None:
        """The players end the game where it stands, scored by `standing`."""
        self._record.agree(standing)

    def resign(self, who: str) -> None:
        """The game ends where it stands: `who` resigned ("Black (White wins)")."""
        self._record.resign(who)

    def follow(self, result: Optional[str]) -> None:
        """The record takes the state's status and result (`result`: in the table's words;
        see `GameRecord.follow`)."""
        self._record.follow(self._state, self._match, result)

    def set_seat(self, seat: int, kind: str) -> None:
        self._record.set_seat(seat, kind)

    def set_name(self, seat: int, name: str) -> None:
        self._record.players[seat] = dict(self._record.players[seat], name=name)

    def set_physical_dice(self, physical: bool) -> None:
        self._record.dice = "physical" if physical else "electronic"

    # --- going back and forth ---------------------------------------------------------------
    def take_back(self, target: int) -> list[Move]:
        """Take back every entry from index `target` on, newest first, and return them so
        (each as it was played); they become one unit for redo.  An outcome taken back at a
        chance node is remembered.  LineError if that reaches into a round over (a round
        once over is kept) or `target` is not an entry's index."""
        actors = self._record.actors
        if not 0 <= target < len(actors):
            raise LineError(f"no entry {target} to take back from ({len(actors)} entries)")
        if NEW_ROUND in actors[target:]:
            raise LineError("a round once over is kept")
        moves: list[Move] = []
        while len(actors) > target:
            moves.append(self._pop_edit() if actors[-1] == EDITED else self._pop_action())
        self._redo.append([move.entry for move in reversed(moves)])
        return moves

    def redo(self) -> list[Move]:
        """Play again the last unit taken back, oldest first; LineError if there is none
        (something was played since, or nothing was taken back)."""
        if not self._redo:
            raise LineError("nothing to redo")
        moves: list[Move] = []
        for entry in self._redo.pop():
            before = self._state.clone()
            if isinstance(entry, Edit):
                self._push_edit(self._game.from_position(entry.position))
            else:
                self._push(entry)
            moves.append(Move(before, entry, self._state.clone()))
        return moves

    # --- the two kinds of entry, each kept in step with the record ---------------------------
    def _push(self, action: Action) -> None:
        state = self._state
        chance_at = state.to_position() if state.current_player() == CHANCE else None
        self._record.push(state, action)
        try:
            state.apply(action)
        except Exception:
            self._record.pop()              # refused: the record does not note it either
            raise
        if chance_at is not None:
            self._remembered.pop(chance_at, None)    # played here: nothing left to remember

    def _pop_action(self) -> Move:
        after = self._state.clone()
        action = self._state.undo()
        self._record.pop()
        if self._state.current_player() == CHANCE:
            self._remembered[self._state.to_position()] = action
        return Move(self._state.clone(), action, after)

    def _push_edit(self, state: State, position: Optional[str] = None) -> None:
        self._record.push_edit(position or state.to_position())
        self._before_edits.append(self._state)
        self._state = state

    def _pop_edit(self) -> Move:
        edited = self._state
        self._record.pop()
        self._state = self._before_edits.pop()
        return Move(self._state.clone(), Edit(edited.to_position()), edited)
