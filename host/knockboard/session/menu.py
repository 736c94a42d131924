"""The on-board menu: MENU shows the next entry, OK chooses or changes it, BACK leaves.

Entries: back to the game, a hint (the strong bot's move for a person to play), undo, redo, new game, the game (among those the connected
board can play), the number of players, each seat (person or computer), the dice
(electronic or physical), edit mode.  Game, players and seats take effect at "New game";
a seat changed during a game also changes who plays it now."""

from ..games import get_game
from .seats import BOTS, HUMAN

CYCLE = (HUMAN,) + tuple(sorted(BOTS, key=lambda k: k != "greedy"))   # human, greedy, then the rest


class Menu:
    def __init__(self, session):
        self.session = session
        self.index = 0

    def entries(self):
        s = self.session
        setup = s.next_setup
        out = [("resume", "Back to game")]
        if s.can_hint():
            out.append(("hint", "Hint"))
        out += [("undo", "Undo"), ("redo", "Redo"),
                ("new", "New game"), ("game", "Game: " + get_game(setup.game).title)]
        choices = players_choices(setup.game)
        if len(choices) > 1:
            out.append(("players", f"Players: {setup.players}"))
        for seat in range(setup.players):
            kind = setup.seats[seat]
            out.append((f"seat:{seat}", f"Seat {seat + 1}: " +
                        ("person" if kind == HUMAN else kind)))
        out.append(("dice", "Dice: " + ("physical" if setup.physical_dice else "screen")))
        out.append(("edit", "Edit board"))
        return out

    def current(self):
        entries = self.entries()
        self.index %= len(entries)
        return entries[self.index]

    def next(self):
        self.index = (self.index + 1) % len(self.entries())

    def choose(self):
        """Act on the shown entry; returns what the session must do: "resume", "hint",
        "undo", "redo", "new", "edit", or None (a setting changed, the menu stays)."""
        key, _ = self.current()
        setup = self.session.next_setup
        if key == "game":
            games = self.session.playable_games()
            setup.set_game(games[(games.index(setup.game) + 1) % len(games)])
        elif key == "players":
            choices = players_choices(setup.game)
            setup.set_players(choices[(choices.index(setup.players) + 1) % len(choices)])
        elif key.startswith("seat:"):
            seat = int(key[5:])
            setup.seats[seat] = CYCLE[(CYCLE.index(setup.seats[seat]) + 1) % len(CYCLE)]
            self.session.seat_changed(seat, setup.seats[seat])
        elif key == "dice":
            setup.physical_dice = not setup.physical_dice
            self.session.dice_changed(setup.physical_dice)
        else:
            return key
        return None


def players_choices(game_name):
    """The player counts a game can be played with (its `players` option, else fixed)."""
    game = get_game(game_name)
    option = type(game).OPTIONS.get("players")
    if option is None:
        return [game.num_players]
    allowed = option[1]
    if callable(allowed):
        return [n for n in (2, 3, 4) if _accepts(allowed, n)]
    return sorted(allowed)


def _accepts(check, n):
    try:
        check(n)
        return True
    except Exception:
        return False
