"""The typed read view of a position (games/view.py) and the engine base's shared
apply/undo/parse_action (games/base.py)."""

import abc
import ast
import dataclasses
import pathlib
import random

import pytest

from knockboard.games import (CHANCE, TERMINAL, Game, IllegalMoveError, NotationError, State,
                              get_game, sample_chance)
from knockboard.games.knockabout.board import mirror
from knockboard.games.view import (DodgeballView, KnockaboutView, KnockoffView, KOView, PieceView,
                                   PositionView, Throw)

HOST = pathlib.Path(__file__).resolve().parent.parent / "host" / "knockboard"

GAMES = [("knockabout", {}), ("dodgeball", {}), ("dodgeball", {"setup": "quick"}),
         ("knockoff", {"players": 2}), ("knockoff", {"players": 4}),
         ("ko", {"players": 2}), ("ko", {"players": 3})]


def random_states(name, options, seed, plies=600):
    game = get_game(name, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        yield state
        if state.is_terminal():
            return
        state.apply(sample_chance(state, rng) if state.is_chance_node()
                    else rng.choice(state.legal_actions()))


# --- every game ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,options", GAMES)
def test_the_view_agrees_with_the_state_and_survives_the_position_text(name, options):
    kinds = {"knockabout": KnockaboutView, "dodgeball": DodgeballView,
             "knockoff": KnockoffView, "ko": KOView}
    phases = set()
    for state in random_states(name, options, seed=3, plies=5000):
        view = state.view()
        assert type(view) is kinds[name] and view.game == name
        assert view.to_act == state.current_player()
        if view.to_act >= 0 and not getattr(view, "throw", None):
            assert view.turn == view.to_act    # (a Dodgeball target answers in the other's turn)
        assert (view.phase == "over") == state.is_terminal()
        assert len(view.scores) == state.game.num_players
        # the same position read back from its text has the same view
        assert state.game.from_position(state.to_position()).view() == view
        phases.add(view.phase)
    assert "over" in phases and len(phases) >= 3     # a whole game, from its start


@pytest.mark.parametrize("name,options", GAMES[:4])
def test_a_view_is_frozen_and_does_not_follow_the_state(name, options):
    state = get_game(name, **options).new_initial_state()
    view = state.view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.phase = "over"
    with pytest.raises(TypeError):
        view.pieces["a1"] = PieceView(0)
    rng = random.Random(1)
    for _ in range(40):
        state.apply(sample_chance(state, rng) if state.is_chance_node()
                    else rng.choice(state.legal_actions()))
    assert state.view() != view


def test_piece_at_and_spaces_of():
    view = PositionView("x", "move", 0, 0,
                        {"a1": PieceView(0), "b2": PieceView(1), "c3": PieceView(0)})
    assert view.piece_at("b2") == PieceView(1) and view.piece_at("d4") is None
    assert view.spaces_of(0) == ("a1", "c3") and view.spaces_of(3) == ()


# --- each game's fields -------------------------------------------------------------------

def test_knockabout_view_dice_gutter_reroll_and_rolloff():
    game = get_game("knockabout")
    view = game.analysis_start().view()
    assert (view.phase, view.to_act, view.turn, view.scores) == ("move", 0, 0, (0, 0))
    assert view.piece_at("D5") == PieceView(0, sides=4, face=1)
    assert view.piece_at(mirror("F3")) == PieceView(1, sides=8, face=3)
    assert len(view.pieces) == 18 and view.reroll is None and not view.rolloff_pending
    start = game.new_initial_state().view()
    assert (start.phase, start.to_act, start.turn, start.rolloff_pending) == \
        ("rolloff", CHANCE, -1, True)
    reroll = game.from_position("B D5:W4=3 E5:B6=2 roll:E5").view()
    assert (reroll.phase, reroll.to_act, reroll.turn, reroll.reroll) == \
        ("reroll", CHANCE, 1, "E5")


def test_dodgeball_view_pawns_balls_dice():
    game = get_game("dodgeball")
    view = game.from_position("turn1 1:a1+,b2 2:h8 balls:de,gh dice:35x/456").view()
    assert dict(view.pieces) == {"a1": PieceView(0, ball=True), "b2": PieceView(0),
                                 "h8": PieceView(1)}
    assert (view.phase, view.to_act, view.turn, view.dice) == ("turn", 0, 0, (3, 5))
    assert view.team_dice == (((3, 5), 1), ((4, 5, 6), 0))
    assert view.start_balls == ("de", "gh") and dict(view.loose) == {} and view.throw is None
    assert view.scores == (2, 1)
    loose = game.from_position("turn2 1:a1 2:h8 balls:de,e2,e2 dice:356/45x").view()
    assert dict(loose.loose) == {"e2": 2} and loose.dice == (4, 5) and loose.turn == 1
    throw = game.from_position(
        "turn1 1:c3,b2 2:d6 balls:de,gh dice:35x/456 throw:c3-d6:dodge:4").view()
    assert throw.throw == Throw("c3", "d6", "dodge", (4,)) and throw.to_act == CHANCE
    rolloff = get_game("dodgeball", setup="quick").new_initial_state().view()
    assert (rolloff.phase, rolloff.turn, rolloff.dice) == ("rolloff", -1, ())


def test_knockoff_view_platforms_home_dice_rolloff():
    game = get_game("knockoff", players=2)
    homes = tuple(game.board.names[h] for h in game.homes)
    view = game.from_position("1a,2b/- P2 dice 33+").view()
    assert dict(view.pieces) == {"1a": PieceView(0), "2b": PieceView(0)}
    assert (view.phase, view.to_act, view.turn, view.dice, view.extra_roll) == \
        ("move", 1, 1, (3, 3), True)
    assert view.home == (2, 4) and view.home_bases == homes and view.scores == (0, 0)
    rolloff = game.from_position("-/- rolloff 5?").view()
    assert (rolloff.phase, rolloff.turn, rolloff.rolloff) == ("rolloff", -1, (5, 0))


def test_ko_view_setup_turn_points_and_knockouts():
    game = get_game("ko", players=2)
    view = game.new_initial_state().view()
    first = game.setup_order[0]
    assert view.phase == "setup" and not view.pieces
    assert view.placing == PieceView(game.seat_of_piece[first], color=first // 6, number=1)
    assert view.turn == view.placing.owner
    assert view.seat_colors == tuple(tuple(c) for c in game.seats)
    # play until the first knock-out, checking the turn's moves on the way
    # (without ruling KO-3's limit: these random players may go 20 rounds without one)
    states = random_states("ko", {"players": 2, "quick_start": True, "quiet_rounds": 0},
                           seed=5, plies=3000)
    for state in states:
        view = state.view()
        if view.phase == "turn":
            assert view.moves == (state.moves_left() or ())
            assert view.dice == tuple(steps for _, steps in view.moves)
        assert view.scores == tuple(state.points())
        if state.last_knockout() is not None:
            break
    knocked = state.last_knockout()
    color, k = divmod(knocked, 6)
    assert PieceView(game.seat_of_piece[knocked], color=color, number=k + 1) in view.out
    placed = {(p.color, p.number) for p in view.pieces.values()}
    assert (color, k + 1) not in placed
    assert len(view.pieces) + len(view.out) == 24


# --- the base: apply, undo and parse_action written once -----------------------------------

class _CountGame(Game):
    name = "count"

    @property
    def num_players(self):
        return 1

    def new_initial_state(self):
        return _CountState(self)

    def from_position(self, text):
        state = _CountState(self)
        state.total = int(text)
        return state


class _CountState(State):
    """Add 1 or 2 until 3 is reached."""

    def __init__(self, game):
        super().__init__(game)
        self.total = 0

    def current_player(self):
        return TERMINAL if self.total >= 3 else 0

    def legal_actions(self):
        return [a for a in (1, 2) if self.total + a <= 3]

    def chance_outcomes(self):
        return []

    def returns(self):
        return [1.0 if self.total >= 3 else 0.0]

    def to_position(self):
        return str(self.total)

    def view(self):
        return PositionView("count", "over" if self.total >= 3 else "count",
                            self.current_player(), 0, {})

    def action_to_string(self, action):
        return f"+{action}"

    def clone(self):
        return self.game.from_position(self.to_position())

    def result(self):
        return "done" if self.total >= 3 else None

    def _check_action(self, action):
        if action not in self.legal_actions():
            raise IllegalMoveError(f"+{action} is not legal at {self.total}")
        return action * 10

    def _apply_action(self, action, checked):
        assert checked == action * 10          # what the check found is handed on
        before = self.total
        self.total += action
        return before

    def _undo_action(self, record):
        self.total = record

    def _read_notation(self, text):
        if text not in ("+1", "+2"):
            raise NotationError(f"{text!r} is not +1 or +2")
        return int(text[1])


def test_a_tiny_engine_gets_apply_undo_and_parse_action_from_the_base():
    state = _CountGame().new_initial_state()
    state.apply(2)
    assert state.history == [2] and state.total == 2
    with pytest.raises(IllegalMoveError, match=r"\+2 is not legal at 2"):
        state.apply(2)
    assert state.history == [2] and state.total == 2
    with pytest.raises(IllegalMoveError):
        state.parse_action("+2")
    with pytest.raises(NotationError):
        state.parse_action("+3")
    assert state.apply_text("+1") == 1 and state.is_terminal()
    assert state.undo() == 1 and state.undo() == 2 and state.total == 0
    with pytest.raises(IndexError, match="undo: no action to take back"):
        state.undo()


def test_an_engine_missing_a_hook_cannot_be_made():
    for hook in ("_check_action", "_apply_action", "_undo_action", "view"):
        namespace = {key: value for key, value in vars(_CountState).items()
                     if key not in (hook, "__abstractmethods__", "__dict__", "__weakref__")}
        incomplete = abc.ABCMeta("Incomplete", (State,), namespace)
        with pytest.raises(TypeError, match=hook):
            incomplete(_CountGame())


@pytest.mark.parametrize("name,message", [("knockabout", "nothing to undo"),
                                          ("knockoff", "nothing to undo"),
                                          ("dodgeball", "undo: no action to take back"),
                                          ("ko", "undo: no action to take back")])
def test_undo_of_an_empty_history_says_what_it_said_before(name, message):
    state = get_game(name).new_initial_state()
    with pytest.raises(IndexError, match=message):
        state.undo()
    assert state.history == []


# --- nothing outside games/ reads an engine's insides ---------------------------------------

_STRING_METHODS = {"split", "partition", "rpartition", "startswith", "endswith", "strip",
                   "rstrip", "lstrip", "index", "find", "replace", "count"}


def _is_position_text(node):
    while isinstance(node, ast.Subscript):
        node = node.value
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "to_position")


def test_no_module_outside_games_reads_a_private_field_or_parses_position_text():
    found = []
    for path in sorted(HOST.rglob("*.py")):
        if "games" in path.relative_to(HOST).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            where = f"{path.relative_to(HOST)}:{getattr(node, 'lineno', '?')}"
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                    and node.value.id not in ("self", "cls")):
                found.append(f"{where} reads {node.value.id}.{node.attr}")
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in _STRING_METHODS \
                        and _is_position_text(func.value):
                    found.append(f"{where} parses to_position() with .{func.attr}")
                if isinstance(func, ast.Name) and func.id == "Parsed":
                    found.append(f"{where} parses a position with Parsed")
    assert found == []
