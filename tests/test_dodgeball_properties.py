"""Dodgeball properties over random play: at most three balls, pawns never on the opponent's
half, each die spent at most once, a move always possible, a winner at the end. The engine
contract (undo, position and notation round trips, chance outcomes) is checked with every
other game's in tests/test_engine_contract.py.

Games are played by a random player that likes throwing (so that outs, catches, misses and
the end come up often), with chance outcomes drawn by hypothesis."""

import random

from hypothesis import given, strategies as st

from knockboard.games import CHANCE, get_game, sample_chance
from knockboard.games.dodgeball.board import HALF, SQUARES, START_TOUCH

GAMES = {"choose": get_game("dodgeball"), "quick": get_game("dodgeball", setup="quick")}


def choose(state, rng):
    if state.is_chance_node():
        return sample_chance(state, rng)
    actions = state.legal_actions()
    texts = [state.action_to_string(a) for a in actions]
    throws = [a for a, t in zip(actions, texts) if ":throw" in t]
    if throws and rng.random() < 0.6:
        return rng.choice(throws)
    others = [a for a, t in zip(actions, texts) if t != "end"]
    if others and rng.random() < 0.97:
        return rng.choice(others)
    return rng.choice(actions)


def parse(position):
    """The fields of a position: {'stage': ..., '1': [...], '2': [...], 'balls': [...], ...}"""
    stage, *rest = position.split()
    f = dict(token.split(":", 1) for token in rest)
    f["stage"] = stage
    for key in ("1", "2", "balls"):
        f[key] = [] if f[key] == "-" else f[key].split(",")
    return f


def check_invariants(state):
    f = parse(state.to_position())
    # Three balls: carried ('+'), loose, starting, and one in the air during a throw.
    carried = sum(p.endswith("+") for p in f["1"] + f["2"])
    assert carried + len(f["balls"]) + ("throw" in f) == 3
    assert carried <= 3
    # Pawns stay on their own half; at most five a team; no square holds two.
    for team in (0, 1):
        squares = [SQUARES[p.rstrip("+")] for p in f[str(team + 1)]]
        assert len(squares) <= 5 and len(set(squares)) == len(squares)
        assert all(s in HALF[team] for s in squares)
    for square in f["1"] + f["2"]:
        assert square.count("+") <= 1                # one ball per pawn (D-3)
    for team in (0, 1):
        dice = f["dice"].split("/")[team]
        assert len(dice) <= 3
    return f


def die_spent(text):
    head = text.split(" ")[0]
    return int(head.split(":")[0]) if ":" in head else None


def play(game, seed, max_plies):
    """Play up to max_plies, checking every step; returns the state and its positions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    positions = [state.to_position()]
    while not state.is_terminal() and len(state.history) < max_plies:
        f = check_invariants(state)
        player = state.current_player()
        if f["stage"].startswith("turn") and "throw" not in f and player != CHANCE:
            texts = state.legal_action_strings()
            # D-8: ending is always possible; a MOVE always is too (5 pawns on 32 squares
            # cannot wall themselves in), so `end` is never forced in real play.
            assert "end" in texts and any(":move " in t for t in texts)
        action = choose(state, rng)
        text = state.action_to_string(action)
        before = state.dice(player) if player >= 0 else None
        state.apply(action)
        die = die_spent(text)
        if die is not None:
            # The die was unspent, and exactly that one is spent now (once).
            unspent, spent = before
            assert die in unspent
            after_unspent, after_spent = state.dice(player)
            rest = list(unspent)
            rest.remove(die)
            if after_unspent or after_spent or state.is_terminal() or "throw:" in \
                    state.to_position():
                assert list(after_unspent) == rest and after_spent == spent + 1
            else:                                  # the third die: new dice are rolled next
                assert rest == [] and state.current_player() == CHANCE
            assert len(unspent) + spent == 3
        positions.append(state.to_position())
    check_invariants(state)
    return state, positions


@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(["choose", "quick"]),
       plies=st.integers(1, 700))
def test_random_play_keeps_the_invariants(seed, setup, plies):
    play(GAMES[setup], seed, plies)                 # checks every step


def test_random_games_end_with_a_winner():
    for seed in range(12):
        state, _ = play(GAMES["quick" if seed % 2 else "choose"], seed, 20_000)
        assert state.is_terminal(), seed
        assert sorted(state.returns()) == [-1.0, 1.0]
        winner = state.returns().index(1.0)
        f = parse(state.to_position())
        assert f[str(2 - winner)] == [] and f[str(winner + 1)] != []


def test_start_ball_squares_are_the_four_around_each_corner():
    names = [sorted(next(k for k, v in SQUARES.items() if v == s) for s in touch)
             for touch in START_TOUCH]
    assert names == [["a4", "a5", "b4", "b5"], ["d4", "d5", "e4", "e5"],
                     ["g4", "g5", "h4", "h5"]]
