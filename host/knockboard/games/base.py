"""The interface every rule engine implements.

The split follows OpenSpiel: a `Game` holds what never changes during a game (its name,
player count, options) and makes `State`s; a `State` is one position plus the history that
led to it.  Randomness is never hidden: when a die must be rolled the state is a *chance
node* (`current_player() == CHANCE`), `chance_outcomes()` lists the outcomes with their
probabilities, and the caller applies one of them like any other action.  A game is thus a
replayable list of actions.

From python-chess the states take a text position format that round-trips
(`game.from_position(state.to_position())` rebuilds an equal state) and a move notation that
round-trips (`state.parse_action(state.action_to_string(a)) == a`), plus push/pop undo.

Actions are small hashable values chosen by each engine (usually ints); code outside an
engine treats them as opaque and talks to people in notation.
"""

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Dict, Hashable, List, Optional, Tuple

from .view import PositionView

Action = Hashable

CHANCE = -1
TERMINAL = -4


class GameError(ValueError):
    """Base of every error an engine raises on bad input; the message names the culprit."""


class PositionError(GameError):
    """A position string that does not parse, or describes an impossible position."""


class NotationError(GameError):
    """A move string that is not written in the game's notation."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow in this position."""


class OptionError(GameError):
    """An unknown game option or an option value out of range."""


class BoardDataError(GameError):
    """A game's board given as data or text (K.O.'s, Knock-Off's) that does not parse or
    describes a board nobody can play on."""


class Game(ABC):
    """A game's fixed description.  Subclasses set `name`, `title` and `OPTIONS`."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # option name -> (default, tuple of allowed values or a callable validating a value)
    OPTIONS: ClassVar[Dict[str, Tuple[Any, Any]]] = {}

    def __init__(self, **options: Any) -> None:
        self.options: Dict[str, Any] = {}
        for key, (default, _) in self.OPTIONS.items():
            self.options[key] = default
        for key, value in options.items():
            if key not in self.OPTIONS:
                raise OptionError(self._no_such_option(key))
            allowed = self.OPTIONS[key][1]
            if callable(allowed):
                value = allowed(value)
            elif value not in allowed:
                raise OptionError(
                    f"option {key}={value!r} not allowed for {self.title or self.name} "
                    f"(choose from {', '.join(map(str, allowed))})")
            self.options[key] = value

    def _no_such_option(self, key: str) -> str:
        """The refusal of an option this game lacks, in the game's terms: a fixed number of
        players is said as such, not as an unknown key."""
        title = self.title or self.name
        if key == "players":            # a game without the option has a fixed count
            return f"{title} is always {self.num_players} players"
        known = ", ".join(sorted(self.OPTIONS)) or "none"
        return f"{title} has no option {key!r} (its options: {known})"

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats play."""

    def player_name(self, player: int) -> str:
        """A short name for a seat, as used in messages and records."""
        return str(player)

    @abstractmethod
    def new_initial_state(self) -> "State":
        """The state a real game starts from (set-up phases and roll-offs included)."""

    def analysis_start(self) -> "State":
        """The default position of `knockboard analyze`; the real start unless a game says
        otherwise (KNOCKabout starts analysis with White to move, skipping the roll-off)."""
        return self.new_initial_state()

    @abstractmethod
    def from_position(self, text: str) -> "State":
        """Parse a position string into a fresh state with an empty history.

        Raises PositionError with a message naming the bad token."""

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"{type(self).__name__}({opts})"


class State(ABC):
    """One position of a game, with push/pop undo.

    `apply`, `undo` and `parse_action` are written here once, OpenSpiel's way: an engine
    fills the hooks `_check_action` (is it legal here, with the engine's own message),
    `_apply_action` (play it, returning what its undo needs) and `_undo_action`, and
    `_read_notation` for `parse_action`.  The undo records live in `_undo`, one per
    action of `history`."""

    # The IndexError's message of `undo()` with an empty history.
    NOTHING_TO_UNDO: ClassVar[str] = "undo: no action to take back"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: List[Action] = []
        self._undo: List[Any] = []

    # --- abstract -------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0-based), CHANCE when a die must be rolled, TERMINAL at the end."""

    @abstractmethod
    def legal_actions(self) -> List[Action]:
        """The actions of the player to act, or the chance outcomes at a chance node;
        empty at the end."""

    @abstractmethod
    def chance_outcomes(self) -> List[Tuple[Action, float]]:
        """[(action, probability), ...] at a chance node; [] elsewhere."""

    @abstractmethod
    def returns(self) -> List[float]:
        """Per-player results: at the end +1 for a win, -1 for a loss (engines with points
        may return other values); zeros while the game goes on."""

    @abstractmethod
    def to_position(self) -> str:
        """The position string; `game.from_position()` of it gives an equal state."""

    @abstractmethod
    def view(self) -> PositionView:
        """The position as typed data (see `view.py`): what a picture of the board and the
        board adapters read, instead of the position string or the engine's fields."""

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The notation of an action legal (or just played) in this position."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy, history and undo included."""

    @abstractmethod
    def result(self) -> Optional[str]:
        """A human-readable result ('White wins'), or None while the game goes on."""

    # --- hooks of apply / undo / parse_action ---------------------------------------------
    @abstractmethod
    def _check_action(self, action: Action) -> Any:
        """Raise IllegalMoveError (the message saying why) unless `action` is legal here;
        return whatever `_apply_action` can reuse of the check (or None)."""

    @abstractmethod
    def _apply_action(self, action: Action, checked: Any) -> Any:
        """Play a legal action; return the record `_undo_action` takes it back with."""

    @abstractmethod
    def _undo_action(self, record: Any) -> None:
        """Restore the state from before the action that returned `record`."""

    def _read_notation(self, text: str) -> Action:
        """The action `text` names whatever the position; NotationError if none."""
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play an action (a move or a chance outcome) and push it on the history.

        Raises IllegalMoveError, leaving the state unchanged, if it is not legal; its
        message names the action (an engine's reason may say only what is due instead)."""
        try:
            checked = self._check_action(action)
        except IllegalMoveError as err:
            culprit = self._culprit(action)
            if culprit in str(err):
                raise
            raise IllegalMoveError(f"{culprit}: {err}") from None
        self._undo.append(self._apply_action(action, checked))
        self.history.append(action)

    def _culprit(self, action: Action) -> str:
        """An action refused by `apply` as people read it: its notation, or the value
        itself when it is no action of the game."""
        try:
            return self.action_to_string(action)
        except (LookupError, TypeError, ValueError):
            return repr(action)

    def undo(self) -> Action:
        """Take back the last action; returns it.  IndexError when the history is empty."""
        if not self.history:
            raise IndexError(self.NOTHING_TO_UNDO)
        self._undo_action(self._undo.pop())
        return self.history.pop()

    def parse_action(self, text: str) -> Action:
        """The action that `text` names in this position.

        Raises NotationError for text that is not notation, IllegalMoveError for a move the
        rules do not allow here.  The state is not changed."""
        action = self._read_notation(text)
        self._check_action(action)
        return action

    # --- derived --------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def apply_text(self, text: str) -> Action:
        """Parse an action in notation and apply it; returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def legal_action_strings(self) -> List[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and other.game.name == self.game.name
                and other.to_position() == self.to_position())

    # A state changes with every apply and undo: a hash taken while it stood in a set or a
    # dict would go stale, so states are not hashable; key by `to_position()` instead.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_position()!r}>"


def sample_chance(state: State, rng: Any) -> Action:
    """Pick a chance outcome with its probability, using `rng.random()`."""
    x = rng.random()
    outcomes = state.chance_outcomes()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]
