"""The strong bot's two-player Knock-Off search (bots/knockoff_search.py), its learnt value
(bots/knockoff_value.py) and the value's training script (benchmarks/train_knockoff.py)."""

import json

import pytest

from knockboard.bots import StrongBot
from knockboard.bots.clairvoyant import ClairvoyantBot
from knockboard.bots.knockoff_search import turn_ends
from knockboard.bots.knockoff_value import (FEATURE_NAMES, KnockoffValueModel, features,
                                            load_model)
from knockboard.games import get_game
from knockboard.games.knockoff.board import STANDARD

from benchmarks import train_knockoff

GAME = get_game("knockoff", players=2)


def _ends_by_brute_force(state):
    """Every position where the mover's turn has ended, by trying every line."""
    mover, found = state.player, set()

    def walk():
        for action in state.legal_actions():
            state.apply(action)
            if state.phase == 1 and state.player == mover and state.dice or \
                    not (state.is_chance_node() or state.is_terminal()):
                walk()
            else:
                found.add(state.to_position())
            state.undo()
    walk()
    return found


@pytest.mark.parametrize("position", ["1a,3c/2e,4f P1 dice 34", "-/- P1 dice 66+",
                                      "5a,5c,6b/4e P1 dice 16", "2b/1e P2 dice 5"])
def test_turn_ends_lists_every_end_of_the_turn_once(position):
    state = GAME.from_position(position)
    before = state.to_position()
    seen = []

    def visit(path):
        seen.append(state.to_position())
        replay = GAME.from_position(position)
        for action in path:
            replay.apply(action)
        assert replay.to_position() == seen[-1]

    turn_ends(state, visit)
    assert state.to_position() == before
    assert len(seen) == len(set(seen)) and set(seen) == _ends_by_brute_force(state)


def test_the_committed_weights_give_complementary_chances_that_follow_the_race():
    model = load_model()
    assert "benchmarks/train_knockoff.py" in model.command
    ahead = GAME.from_position("5a,6c,6e/1e P1 roll")
    assert len(features(ahead, 0)) == len(FEATURE_NAMES)
    mine, theirs = model.value(ahead, 0), model.value(ahead, 1)
    assert 0.5 < mine < 1.0 and abs(mine + theirs - 1.0) < 1e-12
    assert model.value(GAME.from_position("5a,6c,6e/1e P2 roll"), 0) < mine
    won = GAME.from_position("5a,6c,6e/1e P1 dice 16")
    won.apply_text("5a-6a")
    assert won.is_terminal() and model.value(won, 0) == 1.0 and model.value(won, 1) == 0.0


def test_weights_fitted_on_other_features_are_refused():
    data = json.load(open(load_model.__defaults__[0]))
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="train_knockoff"):
        KnockoffValueModel(data)


def test_the_search_takes_the_win_and_plays_its_plan_for_the_second_die():
    bot = StrongBot(seed=1, budget=30, iterations=5)
    state = GAME.from_position("5a,6c,6e/1e P1 dice 16")
    assert state.action_to_string(bot.choose(state)) == "5a-6a"
    # A knock-off with the first die, the plan's second move without a new search.
    state = GAME.from_position("1a,3c/2e,4f P1 dice 34")
    first = bot.choose(state)
    assert bot.last_stats["iterations"] >= 1
    state.apply(first)
    assert not state.is_chance_node()       # 3c-4c here: the 3 is left
    second = bot.choose(state)
    assert bot.last_stats.get("planned") and second in state.legal_actions()
    assert bot.plan == {}      # used once: a later turn searches afresh


@pytest.mark.parametrize("game", [get_game("knockoff", players=4),
                                  get_game("knockoff", players=2, board=STANDARD + "\n")])
def test_four_players_and_other_boards_keep_the_generic_search(game):
    state = game.from_position("/".join(["1a", "1c", "1e", "1g"][:game.num_players])
                               + " P1 dice 34")
    bot = StrongBot(seed=1, budget=30, iterations=20)
    assert bot.choose(state) in state.legal_actions()
    assert bot.last_stats["iterations"] == 20 and "candidates" in bot.last_stats


def test_the_clairvoyant_reads_the_roll_that_follows():
    # With the roll known, one outcome per end of the turn instead of 21: it still plays.
    bot = ClairvoyantBot(seed=1, iterations=5)
    bot.draws = [0.99] * 8
    state = GAME.from_position("1a,3c/2e,4f P1 dice 34")
    assert bot.choose(state) in state.legal_actions()


def test_training_runs_on_a_tiny_budget_and_is_reproducible(tmp_path, capsys):
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        assert train_knockoff.main(["--games", "6", "--steps", "20", "--hidden", "2",
                                    "--out", str(path)]) == 0
    assert out[0].read_text() == out[1].read_text()
    data = json.loads(out[0].read_text())
    assert data["command"].endswith("--games 6 --seed 1 --hidden 2 --steps 20 --epsilon 0.1")
    assert len(data["hidden"]) == 2 and len(data["output"]) == 3
    KnockoffValueModel(data)       # loads as the bot would
    assert "held-out log loss" in capsys.readouterr().out


def test_the_hint_gives_the_searchs_move(capsys):
    from knockboard.cli import main
    assert main(["hint", "knockoff", "roll 2-3", "--iterations", "30", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    state = GAME.analysis_start()
    state.apply_text("roll 2-3")
    assert lines[0] == state.action_to_string(StrongBot(seed=4, iterations=30).choose(state))
    assert lines[1].startswith("strong bot for P1: ") and " iterations, " in lines[1]
