"""The engine contract of `games/base.py`, checked once over every registered game, as
OpenSpiel's games_sim_test runs over its registry: a game registered without keeping every
promise fails here, whatever its own test file says (the throwaway tests/tiny_game.py too).

Along seeded random playouts of every game and every choice of its options, each played to
its end, at every state of the first plies, then at one in forty and at the end:
the player to act is a seat, CHANCE or TERMINAL, with legal actions exactly while the game
goes on; a chance node's outcomes are its legal actions with probabilities that sum to one;
every legal action's notation parses back to it; the position text round-trips to an equal
state with the same legal actions; apply then undo restores the position; a clone is
independent; returns are zeros until the end, and the result is said exactly at the end; an
action that is not legal, notation that is no notation and a position that is no position
are refused with a GameError, the state unchanged. At the end, undo walks back to the start."""

import itertools
import random

import pytest

from knockboard import registry
from knockboard.games import get_game
from knockboard.games.base import (CHANCE, TERMINAL, GameError, IllegalMoveError,
                                   NotationError, PositionError, State)
from test_registry import TINY

PLAYOUTS = 2              # seeded random games per game and option choice
MAX_PLIES = 5000          # every playout must end before this (Dodgeball's run to 2,900)
CHECK_EVERY_PLY = 150     # the first plies are all checked, then one in CHECK_THEN, and the end
CHECK_THEN = 40
NOTATION_SAMPLE = 8       # legal actions whose notation round-trip is checked at each state
NOT_NOTATION = "zz?!9"


def option_choices(name):
    """Every combination of the game's enumerable options (a validating callable: default)."""
    options = get_game(name).OPTIONS
    axes = []
    for key, (default, allowed) in sorted(options.items()):
        values = [default] if callable(allowed) else list(allowed)
        axes.append([(key, v) for v in values])
    return [dict(combo) for combo in itertools.product(*axes)]


@pytest.fixture(params=[*registry.names(), "tiny"])
def game_name(request):
    """Every game the registry holds, and a throwaway one registered for the test."""
    if request.param == "tiny":
        registry.register(TINY)
        request.addfinalizer(lambda: registry.unregister("tiny"))
    return request.param


def check_state(game, state, rng, seen_actions):
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players, player
    legal = state.legal_actions()
    position = state.to_position()

    # the end: no actions, the result said, the returns one a seat
    assert (player == TERMINAL) == (not legal)
    assert (state.result() is not None) == state.is_terminal(), position
    returns = list(state.returns())
    assert len(returns) == game.num_players
    if not state.is_terminal():
        assert returns == [0] * game.num_players, (position, returns)

    # chance: the outcomes are the legal actions, probabilities summing to one
    outcomes = state.chance_outcomes()
    if player == CHANCE:
        assert sorted(map(repr, (a for a, _ in outcomes))) == sorted(map(repr, legal))
        assert all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    else:
        assert outcomes == []

    # the position text round-trips
    again = game.from_position(position)
    assert again == state and again.to_position() == position
    assert sorted(map(repr, again.legal_actions())) == sorted(map(repr, legal))
    assert again.current_player() == player

    # notation round-trips; apply then undo restores the position; a clone is independent
    for action in rng.sample(legal, min(len(legal), NOTATION_SAMPLE)):
        text = state.action_to_string(action)
        assert state.parse_action(text) == action, (position, text)
        state.apply(action)
        assert state.undo() == action
        assert state.to_position() == position
    if legal:
        copy = state.clone()
        copy.apply(legal[0])
        assert state.to_position() == position and copy.history[:-1] == state.history

    # refusals change nothing: an action of another position, garbage notation
    legal_reprs = set(map(repr, legal))
    for stranger in [a for a in seen_actions if repr(a) not in legal_reprs][:3]:
        with pytest.raises(GameError) as refused:
            state.apply(stranger)
        assert isinstance(refused.value, IllegalMoveError) and str(refused.value)
        assert state.to_position() == position
    with pytest.raises(GameError) as refused:
        state.parse_action(NOT_NOTATION)
    assert isinstance(refused.value, (NotationError, IllegalMoveError)) and str(refused.value)
    assert state.to_position() == position
    seen_actions.update({repr(a): a for a in legal}.values())


def test_every_registered_game_keeps_the_engine_contract(game_name):
    for options in option_choices(game_name):
        game = get_game(game_name, **options)
        for seed in range(PLAYOUTS):
            rng = random.Random(f"{game_name}:{sorted(options.items())}:{seed}")
            state = game.new_initial_state()
            start = state.to_position()
            seen: set = set()
            for ply in range(MAX_PLIES):
                if ply < CHECK_EVERY_PLY or ply % CHECK_THEN == 0:
                    check_state(game, state, rng, seen)
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))
            assert state.is_terminal(), f"{game_name} {options}: no end in {MAX_PLIES} plies"
            check_state(game, state, rng, seen)
            while state.history:
                state.undo()
            assert state.to_position() == start


@pytest.mark.parametrize("text", ["", "not a position", "\x00" * 40])
def test_every_registered_game_refuses_a_position_that_is_none(game_name, text):
    with pytest.raises(PositionError) as refused:
        get_game(game_name).from_position(text)
    assert str(refused.value)


def test_a_broken_promise_is_caught():
    """The contract test is no formality: an engine whose undo forgets a piece, or whose
    dice do not sum to one, fails it."""
    game = get_game("knockabout")

    class ForgetfulUndo(type(game.new_initial_state())):
        def _undo_action(self, record):
            pass

    state = game.new_initial_state()
    state.__class__ = ForgetfulUndo
    with pytest.raises(AssertionError):
        check_state(game, state, random.Random(1), set())

    state = game.new_initial_state()
    assert state.is_chance_node()
    heavy = [(a, p * 2) for a, p in state.chance_outcomes()]
    state.chance_outcomes = lambda: heavy
    with pytest.raises(AssertionError):
        check_state(game, state, random.Random(1), set())
    assert issubclass(type(state), State)
