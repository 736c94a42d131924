"""A K.O. match of several rounds adds the points of the rounds."""

import random

import pytest

from knockboard.games import GameError, get_game, sample_chance
from knockboard.games.ko.match import KOMatch

from ko_helpers import state_of


def finished(players, **colors):
    return state_of(players, "end", **colors)


def test_match_adds_round_points_and_ranks_with_shared_places():
    match = KOMatch(get_game("ko", players=3), rounds=2)
    assert match.result() is None and not match.is_over()
    # round 1: red keeps 1 and 6 (3 + 3), green 2 (2), yellow nothing
    first = finished(3, R=["a1", "-", "-", "-", "-", "b1"], G=["-", "a9", "-", "-", "-", "-"])
    assert match.record(first) == [6, 2, 0]
    assert match.result() is None
    # round 2: green keeps 1 and 4 (3 + 1), yellow 3 (1)
    second = finished(3, G=["a9", "-", "-", "b8", "-", "-"], Y=["-", "-", "i9", "-", "-", "-"])
    assert match.record(second) == [6, 6, 1]
    assert match.is_over() and match.rounds_played == 2
    assert match.places() == [1, 1, 3]
    assert match.result() == ("Red and Green share first place with 6 points "
                              "(Red 6, Green 6, Yellow 1)")
    with pytest.raises(GameError, match="over"):
        match.new_round()
    with pytest.raises(GameError, match="over"):
        match.record(second)


def test_match_text_round_trips_and_undo_round():
    game = get_game("ko", players=4)
    match = KOMatch(game, rounds=3)
    match.record_points([9, 4, 6, 0])
    match.record_points([3, 3, 10, 2])
    assert match.to_text() == "3 9,4,6,0 3,3,10,2"
    again = KOMatch.from_text(game, match.to_text())
    assert again.totals() == [12, 7, 16, 2] and again.rounds == 3
    assert again.undo_round() == (3, 3, 10, 2)
    assert again.totals() == [9, 4, 6, 0]
    with pytest.raises(IndexError):
        KOMatch(game, 1).undo_round()


@pytest.mark.parametrize("text", ["", "x 1,2,3,4", "1 1,2,3,4 1,2,3,4", "2 1,2,3", "2 1,a,3,4",
                                  "2 1,2,3,99"])
def test_bad_match_text(text):
    with pytest.raises(GameError):
        KOMatch.from_text(get_game("ko", players=4), text)


def test_match_refuses_unfinished_or_foreign_rounds():
    match = KOMatch(get_game("ko", players=3), rounds=2)
    with pytest.raises(GameError, match="not over"):
        match.record(get_game("ko", players=3).new_initial_state())
    with pytest.raises(GameError, match="players"):
        match.record(finished(4, R=["a1", "-", "-", "-", "-", "-"]))
    for rounds in (0, -1, 1.5, True):
        with pytest.raises(GameError):
            KOMatch(get_game("ko"), rounds)
    with pytest.raises(GameError):
        KOMatch("ko", 3)


def test_match_of_random_rounds_totals_equal_the_sum_of_round_returns():
    game = get_game("ko", players=2, quick_start=True)
    match = KOMatch(game, rounds=3)
    rng = random.Random(7)
    expected = [0, 0]
    while not match.is_over():
        state = match.new_round()
        while not state.is_terminal():
            state.apply(sample_chance(state, rng) if state.is_chance_node()
                        else rng.choice(state.legal_actions()))
        expected = [e + int(r) for e, r in zip(expected, state.returns())]
        match.record(state)
    assert match.totals() == expected
    assert match.result().endswith(f"(Red+Blue {expected[0]}, Green+Yellow {expected[1]})")
