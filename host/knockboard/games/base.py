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


class Game:
    """A game's fixed description.  Subclasses set `name`, `title` and `OPTIONS`."""

    name = ""
    title = ""
    # option name -> (default, tuple of allowed values or a callable validating a value)
    OPTIONS = {}

    def __init__(self, **options):
        self.options = {}
        for key, (default, _) in self.OPTIONS.items():
            self.options[key] = default
        for key, value in options.items():
            if key not in self.OPTIONS:
                known = ", ".join(sorted(self.OPTIONS)) or "none"
                raise OptionError(f"unknown option {key!r} for {self.name} (known: {known})")
            allowed = self.OPTIONS[key][1]
            if callable(allowed):
                value = allowed(value)
            elif value not in allowed:
                raise OptionError(
                    f"option {key}={value!r} not allowed for {self.name} "
                    f"(choose from {', '.join(map(str, allowed))})")
            self.options[key] = value

    @property
    def num_players(self):
        raise NotImplementedError

    def player_name(self, player):
        """A short name for a seat, as used in messages and records."""
        return str(player)

    def new_initial_state(self):
        """The state a real game starts from (set-up phases and roll-offs included)."""
        raise NotImplementedError

    def analysis_start(self):
        """The default position of `knockboard analyze`; the real start unless a game says
        otherwise (KNOCKabout starts analysis with White to move, skipping the roll-off)."""
        return self.new_initial_state()

    def from_position(self, text):
        """Parse a position string into a fresh state with an empty history.

        Raises PositionError with a message naming the bad token."""
        raise NotImplementedError

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
        return f"{type(self).__name__}({opts})"


class State:
    """One position of a game, with push/pop undo.

    Subclasses implement the abstract methods; the helpers below are written in terms of
    them and need no override."""

    def __init__(self, game):
        self.game = game
        self.history = []

    # --- abstract -------------------------------------------------------------------------
    def current_player(self):
        """The player to act (0-based), CHANCE when a die must be rolled, TERMINAL at the end."""
        raise NotImplementedError

    def legal_actions(self):
        """The actions of the player to act, or the chance outcomes at a chance node;
        empty at the end."""
        raise NotImplementedError

    def chance_outcomes(self):
        """[(action, probability), ...] at a chance node; [] elsewhere."""
        raise NotImplementedError

    def apply(self, action):
        """Play an action (a move or a chance outcome) and push it on the history.

        Raises IllegalMoveError, leaving the state unchanged, if it is not legal."""
        raise NotImplementedError

    def undo(self):
        """Take back the last action; returns it.  IndexError when the history is empty."""
        raise NotImplementedError

    def returns(self):
        """Per-player results: at the end +1 for a win, -1 for a loss (engines with points
        may return other values); zeros while the game goes on."""
        raise NotImplementedError

    def to_position(self):
        """The position string; `game.from_position()` of it gives an equal state."""
        raise NotImplementedError

    def action_to_string(self, action):
        """The notation of an action legal (or just played) in this position."""
        raise NotImplementedError

    def parse_action(self, text):
        """The action that `text` names in this position.

        Raises NotationError for text that is not notation, IllegalMoveError for a move the
        rules do not allow here.  The state is not changed."""
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError

    def result(self):
        """A human-readable result ('White wins'), or None while the game goes on."""
        raise NotImplementedError

    # --- derived --------------------------------------------------------------------------
    def is_terminal(self):
        return self.current_player() == TERMINAL

    def is_chance_node(self):
        return self.current_player() == CHANCE

    def apply_text(self, text):
        """Parse an action in notation and apply it; returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def legal_action_strings(self):
        return [self.action_to_string(a) for a in self.legal_actions()]

    def __eq__(self, other):
        return (isinstance(other, State) and other.game.name == self.game.name
                and other.to_position() == self.to_position())

    def __hash__(self):
        return hash((self.game.name, self.to_position()))

    def __repr__(self):
        return f"<{type(self).__name__} {self.to_position()!r}>"


def sample_chance(state, rng):
    """Pick a chance outcome with its probability, using `rng.random()`."""
    x = rng.random()
    outcomes = state.chance_outcomes()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]
