"""The engine contract of `games/base.py`, checked once over every registered game, as
OpenSpiel's games_sim_test runs over its registry: a game registered without keeping every
promise fails here, whatever its own test file says (the throwaway tests/tiny_game.py too).
The games' own test files hold only their own rules.

The game: its name is its registration, it names every seat, an option it lacks or a value
out of range is refused with the culprit named, its analysis start is a position of it (and,
like every state, not hashable: it changes with every apply).

Along seeded random playouts of every game and every choice of its options, each played to
its end, at every state of the first plies, then at one in forty and at the end: the player
to act is a seat, CHANCE or TERMINAL, with legal actions (hashable, distinct) exactly while
the game goes on; a chance node's outcomes are its legal actions with probabilities that sum
to one, and `sample_chance` picks one of them; every legal action's notation parses back to
it; the position text round-trips to an equal state with an empty history, the same player
to act and the same legal actions in the same order; the view says who acts; apply then undo
restores the position, the player, the legal actions and the history, and the same action
applied again gives the same position; a clone is independent, undo records included;
returns are zeros until the end and not all zeros at it, and the result is said exactly at
the end; an action of another position and a value that is no action are refused by `apply`
with an IllegalMoveError naming the culprit; such an action's notation, notation that is no
notation and a position that is no position are refused with a GameError giving a reason
(their caller holds the text); the state is unchanged by every refusal; undo with an empty
history is an IndexError.

Over the whole game: undo walks back through every position to the start; the game written
in notation replays from the text alone; a game resumed from a position text mid-way ends
where the game did."""

import itertools
import random

import pytest

from knockboard import registry
from knockboard.games import get_game
from knockboard.games.base import (CHANCE, TERMINAL, GameError, IllegalMoveError,
                                   NotationError, OptionError, PositionError, State,
                                   sample_chance)
from knockboard.games.view import PositionView
from test_registry import TINY

PLAYOUTS = 4              # seeded random games per game and option choice
MAX_PLIES = 5000          # every playout must end before this (Dodgeball's run to 2,900)
CHECK_EVERY_PLY = 150     # the first plies are all checked, then one in CHECK_THEN, and the end
CHECK_THEN = 40
NOTATION_SAMPLE = 8       # legal actions whose notation and apply/undo are checked per state
NOT_NOTATION = "zz?!9"
NO_ACTIONS = (None, 1.5, "zz?!9", -3, 10 ** 9, (1, 2))   # values no engine takes for an action


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


def observed(state):
    """What apply then undo must give back, and what a parsed position must agree on."""
    return (state.to_position(), state.current_player(), list(state.legal_actions()),
            list(state.chance_outcomes()))


def check_state(game, state, rng, seen):
    """Every promise of one state. `seen`: repr -> (action, its notation) of the actions
    legal in earlier states of the game, tried here as strangers."""
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players, player
    legal = state.legal_actions()
    position = state.to_position()
    before = observed(state)
    history = list(state.history)
    for action in legal:
        hash(action)
    assert len(set(map(repr, legal))) == len(legal), position

    # the end: no actions, the result said, the returns one a seat, someone won or lost
    assert (player == TERMINAL) == (not legal) == state.is_terminal()
    assert (state.result() is not None) == state.is_terminal(), position
    returns = list(state.returns())
    assert len(returns) == game.num_players
    if state.is_terminal():
        assert any(returns), (position, returns)
    else:
        assert returns == [0] * game.num_players, (position, returns)

    # chance: the outcomes are the legal actions, probabilities summing to one
    outcomes = state.chance_outcomes()
    assert state.is_chance_node() == (player == CHANCE)
    if player == CHANCE:
        assert sorted(map(repr, (a for a, _ in outcomes))) == sorted(map(repr, legal))
        assert all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert sample_chance(state, rng) in legal
    else:
        assert outcomes == []

    # the position text round-trips to a fresh state that plays on alike; the view agrees
    again = game.from_position(position)
    assert again == state and again.history == []
    assert observed(again) == before
    view = state.view()
    assert isinstance(view, PositionView) and view.game == game.name and view.to_act == player

    # notation round-trips; apply then undo restores everything; apply is repeatable
    for action in rng.sample(legal, min(len(legal), NOTATION_SAMPLE)):
        text = state.action_to_string(action)
        assert isinstance(text, str) and text
        assert state.parse_action(text) == action, (position, text)
        state.apply(action)
        after = state.to_position()
        assert state.history == history + [action]
        assert state.undo() == action
        assert observed(state) == before and state.history == history
        state.apply(action)
        assert state.to_position() == after, (position, text)
        state.undo()
    if legal:
        copy = state.clone()
        copy.apply(legal[0])
        assert observed(state) == before and state.history == history
        assert copy.history == history + [legal[0]]
        copy.undo()
        assert observed(copy) == before
    if history:
        # a clone keeps its own undo records: the original taking back its last action and
        # playing another changes nothing the clone's undo restores
        copy = state.clone()
        last = state.undo()
        earlier = state.to_position()
        state.apply(state.legal_actions()[-1])
        assert copy.undo() == last and copy.to_position() == earlier
        state.undo()
        state.apply(last)
        assert observed(state) == before and state.history == history

    check_refusals(state, legal, seen)
    assert observed(state) == before and state.history == history
    seen.update({repr(a): (a, state.action_to_string(a)) for a in legal})


def check_refusals(state, legal, seen):
    """Bad input is refused with a GameError naming the culprit and changes nothing."""
    position = state.to_position()
    legal_reprs = set(map(repr, legal))
    strangers = [(a, text) for key, (a, text) in seen.items() if key not in legal_reprs][:3]
    for stranger, text in strangers:
        with pytest.raises(IllegalMoveError) as refused:
            state.apply(stranger)
        assert text in str(refused.value) or repr(stranger) in str(refused.value), \
            (position, text, str(refused.value))
        with pytest.raises(GameError) as refused:     # the caller has the text: a reason
            state.parse_action(text)
        assert str(refused.value)
    for value in NO_ACTIONS:
        if repr(value) in legal_reprs:
            continue
        with pytest.raises(IllegalMoveError) as refused:
            state.apply(value)
        assert repr(value) in str(refused.value), (position, value, str(refused.value))
    with pytest.raises(GameError) as refused:
        state.parse_action(NOT_NOTATION)
    assert isinstance(refused.value, (NotationError, IllegalMoveError)) and str(refused.value)
    assert state.to_position() == position


def play_out(game, rng):
    """A random game to its end, every state checked early on, then one in CHECK_THEN; the
    positions along it."""
    state = game.new_initial_state()
    positions = [state.to_position()]
    seen: dict = {}
    for ply in range(MAX_PLIES):
        if ply < CHECK_EVERY_PLY or ply % CHECK_THEN == 0:
            check_state(game, state, rng, seen)
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        positions.append(state.to_position())
    assert state.is_terminal(), f"{game!r}: no end in {MAX_PLIES} plies"
    check_state(game, state, rng, seen)
    return state, positions


def test_every_registered_game_keeps_the_engine_contract(game_name):
    for options in option_choices(game_name):
        game = get_game(game_name, **options)
        for seed in range(PLAYOUTS):
            rng = random.Random(f"{game_name}:{sorted(options.items())}:{seed}")
            state, positions = play_out(game, rng)
            history = list(state.history)

            # the game in notation replays from the text alone
            replay = game.new_initial_state()
            for action in history:
                replay.apply_text(replay.action_to_string(action))
            assert replay.history == history and replay.to_position() == positions[-1]

            # resumed from its position text mid-way, the game ends where it did
            cut = rng.randrange(len(history))
            resumed = game.from_position(positions[cut])
            for action in history[cut:]:
                resumed.apply(action)
            assert resumed.to_position() == positions[-1]

            # undo walks back through every position to the start, and no further
            for expected in reversed(positions[:-1]):
                state.undo()
                assert state.to_position() == expected
            with pytest.raises(IndexError, match=type(state).NOTHING_TO_UNDO):
                state.undo()
            assert state.to_position() == positions[0] and state.history == []


def test_every_registered_game_describes_itself(game_name):
    game = get_game(game_name)
    assert game.name == game_name and game.title == registry.entry(game_name).title
    assert game.title and game.num_players >= 1
    seats = [game.player_name(p) for p in range(game.num_players)]
    assert all(isinstance(s, str) and s for s in seats) and len(set(seats)) == len(seats)
    start = game.analysis_start()
    assert isinstance(start, State) and start.game is game and not start.is_terminal()
    assert game.from_position(start.to_position()) == start
    with pytest.raises(TypeError):          # it changes with every apply: no stale hash
        {start}


def test_every_registered_game_refuses_an_option_it_lacks_or_a_value_out_of_range(game_name):
    with pytest.raises(OptionError) as refused:
        get_game(game_name, no_such_option=1)
    assert "no_such_option" in str(refused.value)
    for key, (_, allowed) in get_game(game_name).OPTIONS.items():
        if not callable(allowed):
            with pytest.raises(OptionError) as refused:
                get_game(game_name, **{key: "no-such-value"})
            assert key in str(refused.value) and "no-such-value" in str(refused.value)


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
        check_state(game, state, random.Random(1), {})

    state = game.new_initial_state()
    assert state.is_chance_node()
    heavy = [(a, p * 2) for a, p in state.chance_outcomes()]
    state.chance_outcomes = lambda: heavy
    with pytest.raises(AssertionError):
        check_state(game, state, random.Random(1), {})
