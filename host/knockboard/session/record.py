"""The record of a game played on the board: enough to replay it exactly and to save it
(saving is issue 8's `store/`): the game and its options, who sat where, the dice seed,
and every action in notation, chance outcomes included, and the edits made in edit mode
("edit <position>", see `store/entries.py`)."""

from dataclasses import dataclass, field

from ..games import CHANCE, get_game
from ..store.entries import apply_entry, edit_entry

EDITED = "edit"      # the actor of an edit entry: the people at the board


@dataclass(frozen=True)
class Edit:
    """An edit as the session undoes and redoes it: the position it sets."""
    position: str


@dataclass
class GameRecord:
    game: str
    options: dict = field(default_factory=dict)
    seats: list = field(default_factory=list)     # per seat: "human" or a bot's name
    seed: int = 0
    physical_dice: bool = False
    actions: list = field(default_factory=list)   # notation and edits, in the order played
    actors: list = field(default_factory=list)    # per entry: the seat, CHANCE or EDITED

    def push(self, state, action):
        """Note `action` (about to be applied to `state`)."""
        self.actions.append(state.action_to_string(action))
        self.actors.append(state.current_player())

    def push_edit(self, position):
        """Note an edit that leaves the game in `position`."""
        self.actions.append(edit_entry(position))
        self.actors.append(EDITED)

    def pop(self):
        self.actors.pop()
        return self.actions.pop()

    def replay(self):
        """A fresh state with every recorded entry applied (GameError if one is illegal)."""
        state = get_game(self.game, **self.options).new_initial_state()
        for text in self.actions:
            state = apply_entry(state, text)
        return state

    def last_decision(self, seats=None):
        """Index of the last action made by a player (in `seats` if given) or the last edit
        (always the people at the board's), or None."""
        for i in range(len(self.actors) - 1, -1, -1):
            actor = self.actors[i]
            if actor == EDITED or (actor != CHANCE and (seats is None or actor in seats)):
                return i
        return None

    def to_store(self):
        """The same game as a `knockboard.store.GameRecord` (issue 8 saves those)."""
        from ..store import GameRecord as StoredRecord
        game = get_game(self.game, **self.options)
        players = [{"name": game.player_name(i), "bot": None if kind == "human" else kind}
                   for i, kind in enumerate(self.seats)]
        state = self.replay()
        return StoredRecord(game=self.game, options=dict(self.options), players=players,
                            seed=self.seed, actions=list(self.actions),
                            result=state.result(),
                            status="finished" if state.is_terminal() else "playing",
                            dice="physical" if self.physical_dice else "electronic")

    def to_dict(self):
        return {"game": self.game, "options": dict(self.options), "seats": list(self.seats),
                "seed": self.seed, "physical_dice": self.physical_dice,
                "actions": list(self.actions)}
