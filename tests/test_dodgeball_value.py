"""The learnt Dodgeball value (bots/dodgeball_value.py) and its training script
(benchmarks/train_dodgeball.py): the committed weights load and value positions, the strong
bot searches with them, and the training is reproducible from its seed (on a tiny budget)."""

import json

from knockboard.bots import StrongBot
from knockboard.bots.dodgeball_value import (FEATURE_NAMES, DodgeballValueModel, features,
                                             load_model, turn_over)
from knockboard.games import get_game

from benchmarks import train_dodgeball

GAME = get_game("dodgeball")
# Team 1 has just ended its turn (it is rolling its next dice); team 2 acts next with 1,2,3.
TURN_OVER = "turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh dice:-/123"


def test_the_committed_weights_load_and_give_complementary_chances():
    model = load_model()
    assert "benchmarks/train_dodgeball.py" in model.command
    state = GAME.from_position(TURN_OVER)
    assert turn_over(state)
    assert len(features(state)) == len(FEATURE_NAMES)
    mine, theirs = model.value(state, 0), model.value(state, 1)
    assert 0.0 < mine < 1.0 and abs(mine + theirs - 1.0) < 1e-12


def test_the_value_prefers_more_pawns():
    model = load_model()
    ahead = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8 balls:de,gh dice:-/123")
    behind = GAME.from_position("turn1 1:b1,c4+,d1 2:b8,c6,d8,e8,f8 balls:de,gh "
                                "dice:-/123")
    assert model.value(ahead, 0) > 0.5 > model.value(behind, 0)


def test_weights_fitted_on_other_features_are_refused():
    data = json.load(open(load_model.__defaults__[0]))
    data["features"] = data["features"][:-1]
    try:
        DodgeballValueModel(data)
    except ValueError as error:
        assert "train_dodgeball" in str(error)
    else:
        raise AssertionError("weights for other features were accepted")


def test_the_strong_bot_plays_its_turn_legally_with_the_learnt_value():
    state = GAME.from_position("turn1 1:b1,c4+,d1,e1,f1 2:b8,c6,d8,e8,f8 balls:de,gh "
                               "dice:456/123")
    bot = StrongBot(seed=1, budget=30, iterations=12)
    while state.current_player() == 0 and state.throw is None:
        action = bot.choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_training_runs_on_a_tiny_budget_and_is_reproducible(tmp_path, capsys):
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        assert train_dodgeball.main(["--games", "2", "--steps", "20", "--hidden", "2",
                                     "--out", str(path)]) == 0
    assert out[0].read_text() == out[1].read_text()
    data = json.loads(out[0].read_text())
    assert data["command"].endswith("--games 2 --seed 1 --hidden 2 --steps 20 --epsilon 0.1")
    assert len(data["hidden"]) == 2 and len(data["output"]) == 3
    DodgeballValueModel(data)       # loads as the bot would
    assert "held-out log loss" in capsys.readouterr().out
