"""The exact 2x2 matrix-game solver (bots/matrix_game.py) and its use for Dodgeball's catch
or dodge."""

import random
from fractions import Fraction as F

import pytest

from knockboard.bots import StrongBot
from knockboard.bots.dodgeball_score import throw_matrix
from knockboard.bots.matrix_game import sample, solve_2x2
from knockboard.games import get_game


def test_matching_pennies_is_an_even_mix_of_value_zero():
    rows, cols, value = solve_2x2([[F(1), F(-1)], [F(-1), F(1)]])
    assert rows == (F(1, 2), F(1, 2)) and cols == (F(1, 2), F(1, 2)) and value == 0


def test_a_game_without_a_saddle_point_has_its_textbook_mixed_equilibrium():
    # D = 3 + 1 + 2 + 1 = 7: row 0 with (1 + 2) / 7, column 0 with (1 + 1) / 7, value
    # (3 - 2) / 7; both rows then pay 1/7 against the column mix.
    rows, cols, value = solve_2x2([[F(3), F(-1)], [F(-2), F(1)]])
    assert rows == (F(3, 7), F(4, 7)) and cols == (F(2, 7), F(5, 7)) and value == F(1, 7)


def test_a_saddle_point_gives_pure_strategies():
    rows, cols, value = solve_2x2([[4, 2], [3, 1]])
    assert rows == (1, 0) and cols == (0, 1) and value == 2


@pytest.mark.parametrize("keep", [F(-1), F(1, 3), F(2)])
def test_a_constant_keep_row_always_leaves_the_answer_worse_for_the_thrower(keep):
    # A throw's game: the thrower throws (catch 1/2, dodge 1/6 for it) or keeps the ball.
    _, cols, _ = solve_2x2([[F(1, 2), F(1, 6)], [keep, keep]])
    assert cols == (0, 1)


def test_every_solution_is_an_equilibrium():
    rng = random.Random(5)
    for _ in range(300):
        a = [[F(rng.randint(-4, 4)) for _ in range(2)] for _ in range(2)]
        (p0, p1), (q0, q1), value = solve_2x2(a)
        assert p0 + p1 == 1 and q0 + q1 == 1 and min(p0, p1, q0, q1) >= 0
        # The row mix earns at least the value against each column, the column mix
        # gives away at most the value against each row.
        assert all(p0 * a[0][j] + p1 * a[1][j] >= value for j in (0, 1))
        assert all(q0 * a[i][0] + q1 * a[i][1] <= value for i in (0, 1))


def test_a_matrix_that_is_not_2x2_is_refused():
    with pytest.raises(ValueError):
        solve_2x2([[1, 2, 3], [4, 5, 6]])


def test_sampling_follows_the_strategy_with_one_draw():
    rng = random.Random(1)
    draws = [sample((F(1, 4), F(3, 4)), rng) for _ in range(4000)]
    assert 800 < draws.count(0) < 1200
    assert {sample((1, 0), rng) for _ in range(50)} == {0}


def test_the_strong_bot_declares_the_solved_equilibrium():
    game = get_game("dodgeball")
    state = game.from_position("turn2 1:b1,e1,e2,f1,g4 2:b5,c8,e5+,e7,e8 balls:b6 "
                               "dice:133/25x throw:b5-e1")
    (catch, dodge), _ = throw_matrix(state)
    _, cols, _ = solve_2x2(throw_matrix(state))
    expected = "catch" if cols[0] == 1 else "dodge"
    assert expected == ("catch" if catch < dodge else "dodge")
    chosen = {state.action_to_string(StrongBot(seed=s, budget=30, iterations=5).choose(state))
              for s in range(20)}
    assert chosen == {expected}
