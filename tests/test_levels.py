"""The levels a person picks an opponent by (`bots/levels.py`): what each level plays, the
`--bots` and arena names, the saved game that names a level, and the one-line errors."""

import random

import pytest

from benchmarks import levels as levels_benchmark
from knockboard.arena import run_arena
from knockboard.bots import GreedyBot, StrongBot
from knockboard.bots.dodgeball_search import PLAY_ITERATIONS as DODGEBALL_ITERATIONS
from knockboard.bots.greedy import best_actions
from knockboard.bots.levels import LEVELS, PLAY_ITERATIONS, EasyBot, make_level
from knockboard.cli import main
from knockboard.games import get_game, sample_chance
from knockboard.session.seats import SeatError, make_bot
from knockboard.store import GameRecord
from knockboard.store.record_json import RecordError


def test_the_levels_are_the_bots_at_their_budgets():
    assert LEVELS == ("easy", "fair", "hard")
    assert isinstance(make_level("easy", 1), EasyBot)
    assert isinstance(make_level("fair", 1), GreedyBot)
    hard = make_level("hard", 1, "knockabout")
    assert isinstance(hard, StrongBot) and hard.iterations == PLAY_ITERATIONS == 600
    # Dodgeball's turn search counts scored positions: its own budget, not 600
    assert make_level("hard", 1, "dodgeball").iterations == DODGEBALL_ITERATIONS
    # at the board `strong` is the hard level, and `greedy` the fair one
    for game in ("knockabout", "dodgeball"):
        strong, hard = make_bot("strong", 1, game), make_bot("hard", 1, game)
        assert (strong.iterations, strong.budget) == (hard.iterations, hard.budget)
    with pytest.raises(ValueError, match="levels: easy, fair, hard"):
        make_level("medium", 1)
    with pytest.raises(SeatError, match="levels: easy, fair, hard; or a bot: random"):
        make_bot("medium", 1)


def easy_game(seed):
    """The easy bot (seat 1) against a greedy bot in a seeded Knock-Off game: its moves, and
    how many of its choices among several moves were the greedy bot's."""
    game = get_game("knockoff", players=2)
    dice, state = random.Random(3), game.new_initial_state()
    easy, other = EasyBot(seed=seed), GreedyBot(seed=6)
    moves, choices, greedy = [], 0, 0
    while not state.is_terminal() and len(moves) < 60:
        if state.is_chance_node():
            state.apply(sample_chance(state, dice))
        elif state.current_player() == 1:
            state.apply(other.choose(state))
        else:
            legal = state.legal_actions()
            action = easy.choose(state)
            assert action in legal
            if len(legal) > 1:
                choices += 1
                greedy += action in best_actions(state)
            moves.append(action)
            state.apply(action)
    return moves, choices, greedy


def test_easy_plays_the_greedy_move_only_part_of_the_time_and_follows_its_seed():
    moves, choices, greedy = easy_game(5)
    assert choices >= 20
    assert 0.5 * choices <= greedy < choices     # slips in about half its moves (SLIP)
    assert easy_game(5) == (moves, choices, greedy)
    assert easy_game(7)[0] != moves


def test_the_arena_seats_levels_and_reports_the_hard_levels_budget(capsys):
    result = run_arena(get_game("knockabout"), ["easy", "fair"], 2, 1)
    assert [e.name for e in result.entries] == ["easy", "fair"]
    assert sum(e.wins for e in result.entries) + result.unfinished == 2
    assert main(["arena", "knockabout", "--bots", "easy,medium"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown bot 'medium'" in err and "easy, fair, hard" in err and "\n" not in err


def test_a_saved_game_may_name_a_level_but_nothing_else():
    record = GameRecord(game="knockabout", options={}, seed=1,
                        players=[{"name": "A", "bot": "hard"}, {"name": "B", "bot": "easy"}])
    assert GameRecord.from_json(record.to_json()).seats == ["hard", "easy"]
    bad = record.to_json().replace('"easy"', '"medium"')
    with pytest.raises(RecordError, match="easy, fair, hard"):
        GameRecord.from_json(bad)


@pytest.mark.parametrize("bots, error", [
    ("2=hard", None), ("1=easy,2=fair", None), ("2=greedy", None), ("all", None),
    ("2=medium", "--bots '2=medium': unknown computer player 'medium' (levels: easy, fair, "
                 "hard; or a bot: random, greedy, strong)"),
    ("2=", "--bots '2=': unknown computer player ''"),
    ("3=easy", "--bots '3=easy': a seat is a number 1..2"),
])
def test_play_takes_levels_and_refuses_a_bad_one_in_one_line(capsys, bots, error):
    # a missing port is the first thing after the seats: reaching it means they parsed
    assert main(["play", "knockoff", "--bots", bots, "--port", "/dev/no-such-board"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    if error is None:
        assert "serial port /dev/no-such-board" in err
    else:
        assert err.startswith("knockboard play: " + error)


def test_the_levels_benchmark_prints_a_row_of_the_docs_table(capsys):
    assert levels_benchmark.main(["--only", "knockabout-easy-fair", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "== knockabout-easy-fair: knockboard arena knockabout --bots easy,fair --games 2" in out
    row = out.strip().splitlines()[-1]
    assert row.startswith("| KNOCKabout | easy v fair | ") and " / 2 | " in row
