"""benchmarks/dodgeball_ceiling.py: the ball-economy model's exact values are what its own
best policy wins when the model is played out with dice, and they behave as the rules say."""

import importlib.util
import os
import random

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


@pytest.fixture(scope="module")
def ceiling():
    spec = importlib.util.spec_from_file_location(
        "dodgeball_ceiling", os.path.join(ROOT, "benchmarks", "dodgeball_ceiling.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_out(ceiling, value, returned, balls, rng):
    """One game of the model, the fair player following the best choice of `options`."""
    u, t, b = ceiling.PAWNS, ceiling.PAWNS, balls
    for _ in range(10_000):
        if t == 0 or u == 0:
            return t == 0
        choices = ceiling.options(value, returned, u, t, b)
        choice = max(choices, key=choices.get)
        if choice.startswith("let it throw"):
            b += 1
            hit = ceiling.HIT_CATCHER if choice.endswith("catch") else ceiling.HIT_DODGER
            if rng.random() < hit:
                u -= 1
            elif choice.endswith("catch"):
                t -= 1                          # the thrower is out
            continue
        dodging = choice == "throw at a carrier" or rng.random() < 0.5
        if rng.random() < (ceiling.HIT_DODGER if dodging else ceiling.HIT_CATCHER):
            t, b = t - 1, b - 1
        elif not dodging:
            u, b = u - 1, b - 1                 # caught: the thrower is out
        elif rng.random() >= returned:
            b -= 1                              # a miss the random player keeps
    raise AssertionError("a game of the model did not end")


@pytest.mark.parametrize("returned,balls", [(0.0, 2), (0.4, 3), (0.1, 0)])
def test_the_solved_values_are_what_the_policy_wins_with_dice(ceiling, returned, balls):
    value = ceiling.solve(returned)
    rng = random.Random(7)
    games = 4000
    wins = sum(play_out(ceiling, value, returned, balls, rng) for _ in range(games))
    expected = value[(ceiling.PAWNS, ceiling.PAWNS, balls)]
    # Four standard errors of a rate near 0.8 over 4000 games: about 0.025.
    assert abs(wins / games - expected) < 0.025


def test_more_returned_misses_and_up_to_two_starting_balls_help(ceiling):
    rows = [ceiling.best_from_start(r) for r in (0.0, 0.2, 0.4)]
    for row in rows:
        assert row[0] < row[1] < row[2]
        assert all(0.0 < x < 1.0 for x in row)
    for lower, higher in zip(rows, rows[1:]):
        assert all(a < b for a, b in zip(lower, higher))


def test_a_last_pawn_each_with_no_ball_is_the_random_throw_at_a_catcher(ceiling):
    # Holding no ball the fair player can only let the random player throw; catching wins
    # 15/36 outright, dodging survives 21/36 into the same duel holding the ball.
    value = ceiling.solve(0.0)
    with_ball = value[(1, 1, 1)]
    assert value[(1, 1, 0)] == pytest.approx(max(15 / 36, 21 / 36 * with_ball))


def test_counting_arena_games_adds_up(ceiling):
    counts = ceiling.measure("greedy", "random", 2, seed=4, max_moves=1500)
    assert counts["games"] == 2
    assert counts["tested start balls"] + counts["other start balls"] <= 3 * 2
    assert 0 < counts["tested throws"] and counts["tested throws at a carrier"] <= counts[
        "tested throws"]
    assert counts["tested misses returned"] <= counts["tested misses placed"]
    # Every miss of a throw is placed by the target's owner: no more than the throws.
    assert counts["tested misses placed"] <= counts["tested throws"]
    assert counts["tested wins"] + counts["unfinished"] <= 2
