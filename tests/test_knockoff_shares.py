"""The learnt shares of three- and four-player Knock-Off (bots/knockoff_shares.py), their
training script (benchmarks/train_knockoff_shares.py) and the review's whole-turn estimator
that values with them (review/estimator.py, `TurnEstimator`)."""

import json

import pytest

from knockboard.bots.knockoff_shares import (FEATURE_NAMES, WEIGHTS_FILES, KnockoffSharesModel,
                                             features, load_model)
from knockboard.bots.knockoff_search import turn_ends
from knockboard.games import get_game
from knockboard.review.estimator import INDIFFERENT, TurnEstimator, make_estimator

from benchmarks import train_knockoff_shares
from test_knockoff_value import _ends_by_brute_force

GAMES = {n: get_game("knockoff", players=n) for n in (3, 4)}


@pytest.mark.parametrize("n", [3, 4])
def test_the_committed_shares_add_up_to_one_and_follow_the_race(n):
    model = load_model(n)
    assert model.players == n and "benchmarks/train_knockoff_shares.py" in model.command
    assert f"--players {n}" in model.command
    game = GAMES[n]
    # P1 has two pawns on top and one a level below them; the others have one low pawn each
    ahead = game.from_position("/".join(["5a,6c,6e"] + ["1e", "1g", "1c"][:n - 1])
                               + " P1 roll")
    assert len(features(ahead, 0)) == len(FEATURE_NAMES)
    shares = model.shares(ahead)
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    assert shares[0] > 0.5 and all(0.0 < s < shares[0] for s in shares[1:])
    # nobody on the board: the seats differ only in when they roll, so the shares with P2
    # about to roll are those with P1 about to roll, moved round by one
    first = model.shares(game.from_position("/".join(["-"] * n) + " P1 roll"))
    second = model.shares(game.from_position("/".join(["-"] * n) + " P2 roll"))
    assert second == pytest.approx(first[-1:] + first[:-1], abs=1e-12)
    assert max(first) - min(first) > 0.001
    won = game.from_position("/".join(["5a,6c,6e"] + ["1e", "1g", "1c"][:n - 1])
                             + " P1 dice 16")
    won.apply_text("5a-6a")
    assert won.is_terminal() and model.shares(won) == [1.0] + [0.0] * (n - 1)


def test_weights_for_another_player_count_or_other_features_are_refused():
    with pytest.raises(ValueError, match="fitted for 3 players, not 4"):
        load_model(3).shares(GAMES[4].from_position("-/-/-/- P1 roll"))
    with pytest.raises(ValueError, match="3 or 4"):
        load_model(2)
    data = json.load(open(WEIGHTS_FILES[3]))
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="train_knockoff_shares"):
        KnockoffSharesModel(data)


def test_training_runs_on_a_tiny_budget_and_is_reproducible(tmp_path, capsys):
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        assert train_knockoff_shares.main(["--players", "3", "--games", "6", "--steps", "20",
                                           "--hidden", "2", "--out", str(path)]) == 0
    assert out[0].read_text() == out[1].read_text()
    data = json.loads(out[0].read_text())
    assert data["command"].endswith("--players 3 --games 6 --seed 1 --hidden 2 --steps 20"
                                    " --epsilon 0.1")
    assert data["players"] == 3 and len(data["hidden"]) == 2 and len(data["output"]) == 3
    KnockoffSharesModel(data)       # loads as the review would
    assert "held-out log loss" in capsys.readouterr().out


@pytest.mark.parametrize("position", ["1a,3c/2e,4f/1g P2 dice 34", "-/-/-/- P3 dice 66+",
                                      "5a,5c/6b/4e/1c P4 dice 16"])
def test_turn_ends_lists_every_end_of_the_turn_once_with_more_players(position):
    state = GAMES[position.count("/") + 1].from_position(position)
    seen = []
    turn_ends(state, lambda path: seen.append(state.to_position()))
    assert len(seen) == len(set(seen)) and set(seen) == _ends_by_brute_force(state)
    assert len(seen) > 1


def indifferent_value(ends, mover):
    """The rule the review values a decision by, from the chances of its ends, written out
    here apart from `estimator.indifferent_mover`: the mover's best end; with three or
    more players the others' chances the average over the ends within INDIFFERENT of it
    for the mover, scaled to add up to one with the mover's."""
    top = max(ends, key=lambda e: e[mover])
    if len(top) == 2:
        return top
    near = [e for e in ends if e[mover] >= top[mover] - INDIFFERENT]
    mean = [sum(e[p] for e in near) / len(near) for p in range(len(top))]
    scale = (1 - top[mover]) / (1 - mean[mover])
    return [top[p] if p == mover else mean[p] * scale for p in range(len(top))]


@pytest.mark.parametrize("n", [3, 4])
def test_the_review_values_a_decision_by_the_best_end_of_the_movers_turn(n):
    game = GAMES[n]
    estimator = make_estimator(game)
    assert isinstance(estimator, TurnEstimator) and estimator.learnt
    state = game.from_position("/".join(["1a,3c", "2e,4f", "1g", "1c"][:n]) + " P1 dice 34")
    model = load_model(n)
    ends = []

    def visit(path):
        ends.append((model.shares(state), path[0]))
    turn_ends(state, visit)
    best = max(ends, key=lambda e: e[0][0])
    expected = indifferent_value([c for c, _ in ends], 0)
    assert estimator.chances(state) == pytest.approx(expected, abs=1e-12)
    assert estimator.best(state) == best[1]
    # before the roll-off every seat is worth the same
    assert estimator.chances(game.new_initial_state()) == pytest.approx((1.0 / n,) * n)
