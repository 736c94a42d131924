"""The learnt shares of K.O. (bots/ko_shares.py), the ends of a K.O. turn (bots/ko_turns.py)
and the review's whole-turn estimator valuing K.O. with them (review/estimator.py,
`TurnEstimator`)."""

import functools
import json

import pytest

from knockboard.bots.ko_shares import (FEATURE_NAMES, WEIGHTS_FILES, KOSharesModel,
                                       feature_rows, load_model)
from knockboard.bots.ko_turns import turn_ends
from knockboard.games import get_game
from knockboard.games.ko.constants import ROLLOFF, TURN
from knockboard.review import estimator as estimator_module
from knockboard.review.estimator import TurnEstimator, make_estimator
from knockboard.review.seeded import bot_game

from benchmarks import train_knockoff_shares, train_ko_shares_review
from test_knockoff_shares import indifferent_value

GAMES = {n: get_game("ko", players=n) for n in (2, 3, 4)}


@functools.lru_cache(maxsize=None)
def _played(n):
    """A seeded greedy game of n players (one a player count: the tests below take their
    positions from it)."""
    return bot_game("ko", ("greedy",) * n, 3, {"players": n, "quick_start": True},
                    iterations=1)


def _turn_decisions(n, first=0, count=3, throws=False):
    """Positions of `_played(n)` where a seat has thrown and has both its moves still to
    make (the `first`-th such position on, `count` of them); `throws`: where a seat is
    about to throw instead."""
    record = _played(n)
    state = record.initial_state()
    found = []
    for text in record.actions:
        if state.phase == TURN and (state.is_chance_node() if throws
                                    else state.tasks and len(state.tasks) == 2):
            found.append(state.to_position())
        state.apply(state.parse_action(text) if isinstance(text, str) else text)
    return found[first:first + count]


def _ends_by_brute_force(state):
    """Every position where the mover's turn has ended, by trying every line."""
    found = set()

    def walk():
        for action in state.legal_actions():
            state.apply(action)
            if state.is_chance_node() or state.is_terminal():
                found.add(state.to_position())
            else:
                walk()
            state.undo()
    walk()
    return found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_turn_ends_lists_every_end_of_a_ko_turn_once(n):
    # turns of tens to hundreds of ends (the brute force tries every line)
    for position in _turn_decisions(n, first={2: 6, 3: 8, 4: 5}[n], count=2):
        state = GAMES[n].from_position(position)
        seen = []
        turn_ends(state, lambda path: seen.append(state.to_position()))
        assert state.to_position() == position          # left as it was found
        assert len(seen) == len(set(seen)) and set(seen) == _ends_by_brute_force(state)
        assert len(seen) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_committed_shares_add_up_to_one_and_favour_the_points(n):
    model = load_model(n)
    assert model.players == n
    # two players: fitted by self-play; three and four: refitted to the review's own
    # look-ahead, from the self-play shares kept for that
    self_play = model if n == 2 else KOSharesModel(json.load(open(
        train_ko_shares_review.SELF_PLAY[n])))
    assert "--game ko" in self_play.command and f"--players {n}" in self_play.command
    if n > 2:
        assert model.command.startswith("python3 benchmarks/train_ko_shares_review.py")
        assert ("--players 4" in model.command) == (n == 4)     # 3: the default
    game = GAMES[n]
    state = game.from_position(_turn_decisions(n, first=3, count=1)[0])
    while not state.is_chance_node():
        state.apply(state.legal_actions()[0])
    rows = feature_rows(state)
    assert len(rows) == n and all(len(r) == len(FEATURE_NAMES) for r in rows)
    shares = model.shares(state)
    assert sum(shares) == pytest.approx(1.0, abs=1e-12) and all(0 < s < 1 for s in shares)


def test_shares_follow_the_points_and_a_finished_game_is_its_result():
    game = GAMES[2]
    state = game.from_position(_turn_decisions(2, first=10, count=1)[0])
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(state.legal_actions()[0])
    model = load_model(2)
    points = state.points()
    expected = [1.0, 0.0] if points[0] > points[1] else [0.0, 1.0] \
        if points[1] > points[0] else [0.5, 0.5]
    assert model.shares(state) == expected


def test_weights_for_another_player_count_or_other_features_are_refused():
    with pytest.raises(ValueError, match="fitted for 2 players, not 3"):
        state = GAMES[3].from_position(_turn_decisions(3, count=1)[0])
        load_model(2).shares(state)
    with pytest.raises(ValueError, match="2, 3 or 4"):
        load_model(5)
    data = json.load(open(WEIGHTS_FILES[2]))
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="train_knockoff_shares.py --game ko"):
        KOSharesModel(data)


def test_training_for_ko_runs_on_a_tiny_budget_and_is_reproducible(tmp_path, capsys):
    # random moves (--epsilon 1: the greedy bots' K.O. moves cost most of the time), and
    # the second fit reads the first's self-play from its cache (the self-play itself is
    # train_knockoff.play's, shared with Knock-Off's trainers and tested there)
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        assert train_knockoff_shares.main(["--game", "ko", "--players", "2", "--games", "5",
                                           "--steps", "20", "--hidden", "2", "--epsilon", "1",
                                           "--cache", str(tmp_path / "play.json"),
                                           "--out", str(path)]) == 0
    assert out[0].read_text() == out[1].read_text()
    data = json.loads(out[0].read_text())
    assert data["command"].endswith("--game ko --players 2 --games 5 --seed 1 --hidden 2"
                                    " --steps 20 --epsilon 1.0")
    KOSharesModel(data)
    assert "held-out log loss" in capsys.readouterr().out
    for wrong in (["--players", "2"], ["--game", "ko", "--players", "5"]):   # no weights
        with pytest.raises(SystemExit):
            train_knockoff_shares.main(wrong + ["--games", "5"])


def test_the_review_fit_runs_on_a_tiny_budget(tmp_path, capsys):
    """`train_ko_shares_review.py`: the review's own average over each throw, on two seeded
    games of greedy and random bots (one of them held out), as the targets of the fit."""
    out = tmp_path / "shares.json"
    assert train_ko_shares_review.main(["--seeds", "100", "101", "--rounds", "1", "--jobs",
                                        "1", "--steps", "20", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["command"] == ("python3 benchmarks/train_ko_shares_review.py --seeds 100 101 "
                               "--rounds 1 --hidden 8 --steps 20")
    assert data["players"] == 3 and data["positions"] > 50
    KOSharesModel(data)
    printed = capsys.readouterr().out
    assert "ko_shares3_selfplay.json" in printed and "held-out mean gap" in printed


@pytest.mark.parametrize("argv,message", [
    (["--seeds", "1", "1"], "--seeds: at least 2 games"),
    (["--rounds", "0"], "--rounds: a whole number from 1"),
    (["--start", "missing.json"], "--start missing.json:"),
    (["--players", "2"], "--players: invalid choice"),
])
def test_the_review_fit_refuses_bad_arguments_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        train_ko_shares_review.main(argv)
    err = capsys.readouterr().err.splitlines()
    assert stop.value.code == 2 and message in err[-1], err


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_review_values_a_ko_decision_by_the_best_end_of_the_movers_turn(n, monkeypatch):
    game = GAMES[n]
    # a turn of a few hundred ends, more first moves than the review follows
    state = game.from_position(_turn_decisions(n, first={2: 6, 3: 8, 4: 5}[n], count=1)[0])
    mover = state.current_player()
    model = load_model(n)

    def ends_of(state):
        found = []
        turn_ends(state, lambda path: found.append(model.shares(state)))
        return found
    ends = ends_of(state)
    best = max(ends, key=lambda e: e[mover])

    def first_moves(state):
        """Each first move's value: a move that ends the turn the shares after it, another
        the ends of the turn after it, valued by `indifferent_value`."""
        found = []
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            ended = after.is_chance_node() or after.is_terminal()
            found.append(model.shares(after) if ended else indifferent_value(ends_of(after), mover))
        return found
    # every first move followed: the mover's best end of the whole turn, and for the others
    # the first moves it values alike, each valued by the ends it values alike after it
    monkeypatch.setattr(estimator_module, "KO_FIRST_MOVES", 10_000)
    whole = make_estimator(game)
    assert whole.chances(state)[mover] == pytest.approx(best[mover], abs=1e-12)
    assert whole.chances(state) == pytest.approx(
        indifferent_value(first_moves(state), mover), abs=1e-12)
    after = state.clone()       # its best move: one that leads there (two orders may)
    after.apply(whole.best(state))
    assert whole.chances(after)[mover] == pytest.approx(best[mover], abs=1e-12)
    monkeypatch.undo()
    # the review's: the few first moves best by the shares followed, so for the mover the
    # value of one of the ends, no better than the best, and what its best move leaves
    estimator = make_estimator(game)
    assert isinstance(estimator, TurnEstimator) and estimator.learnt
    value = estimator.chances(state)
    assert any(value[mover] == pytest.approx(e[mover], abs=1e-12) for e in ends)
    assert value[mover] <= best[mover] + 1e-12
    state.apply(estimator.best(state))
    assert estimator.chances(state)[mover] == pytest.approx(value[mover], abs=1e-12)
    if n == 2:
        assert estimator.chances(state) == pytest.approx(value, abs=1e-12)
    if not state.is_chance_node():       # one move left: every end of it
        assert estimator.chances(state) == pytest.approx(
            indifferent_value(ends_of(state), mover), abs=1e-12)
    # where a seat is about to throw: the learnt shares themselves
    for position in _turn_decisions(n, first=8, count=2, throws=True):
        state = game.from_position(position)
        assert state.is_chance_node()
        assert estimator.chances(state) == pytest.approx(model.shares(state), abs=1e-12)


def test_the_estimator_values_k_o_by_candidate_shares_where_it_is_given_them(tmp_path):
    """`review_slack.py --shares FILE`: a trainer's candidate in place of the committed
    weights; a file for another player count is refused before any use."""
    data = json.load(open(WEIGHTS_FILES[3]))
    data["output"][-2] += 1.0           # another utility: other shares
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(data))
    candidate = load_model(3, str(path))
    assert candidate is not load_model(3)
    state = GAMES[3].from_position(_turn_decisions(3, first=8, count=1, throws=True)[0])
    given = TurnEstimator(GAMES[3], 2, 0, ko_shares=candidate).chances(state)
    assert given == pytest.approx(candidate.shares(state), abs=1e-12)
    assert given != pytest.approx(load_model(3).shares(state), abs=1e-3)
    with pytest.raises(ValueError, match="fitted for 2 players, not 3"):
        load_model(3, WEIGHTS_FILES[2])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_ko_roll_off_is_valued_exactly(n):
    """At the roll-off's first throw the value is the average over the throw's outcomes of
    the values after it (so the roll-off leaves the sum check no slack), and every seat
    begins with the same chance: the value is the average, over who begins, of the
    learnt shares there."""
    game = GAMES[n].__class__(players=n, quick_start=True)
    state = game.new_initial_state()
    assert state.phase == ROLLOFF
    estimator = make_estimator(game)
    model = load_model(n)
    value = estimator.chances(state)
    average = [0.0] * n
    for outcome, p in state.chance_outcomes():
        state.apply(outcome)
        average = [a + p * c for a, c in zip(average, estimator.chances(state))]
        state.undo()
    assert value == pytest.approx(average, abs=1e-12)
    begins = []
    for first in range(n):
        after = state.clone()
        for seat in range(n):
            after.apply(game.roll_outcomes[-1 if seat == first else 0][0])
        assert after.phase == TURN and after.cur == first and after.is_chance_node()
        begins.append(model.shares(after))
    assert value == pytest.approx([sum(b[p] for b in begins) / n for p in range(n)],
                                  abs=1e-12)
