"""`knockboard hint`: the strong bot's move for a position, from the command line; every bad
argument is one line on stderr and status 2."""

import random
import re

import pytest

from knockboard.bots import GreedyBot, suggest
from knockboard.cli import main
from knockboard.games import get_game, sample_chance

CANDIDATE = re.compile(r"^  (.+?)\s+(\d+) visits  value ([+-]\d\.\d{3})$")
DECLARE = "turn2 1:b1,e1,e2,f1,g4 2:b5,c8,e5+,e7,e8 balls:b6 dice:133/25x throw:b5-e1"


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_the_hint_is_the_strong_bots_move_with_its_candidates(capsys):
    # Four players: the tree search, which lists its candidates (two-player Knock-Off has a
    # search of its own, tests/test_knockoff_value.py).
    status, lines, err = run(capsys, ["hint", "knockoff", "--option", "players=4", "roll 2-3",
                                      "--iterations", "150", "--seed", "4", "--top", "3"])
    assert status == 0 and err == ""
    state = get_game("knockoff", players=4).analysis_start()
    state.apply_text("roll 2-3")
    expected = suggest(state, budget=30, iterations=150, seed=4)
    assert lines[0] == state.action_to_string(expected)
    assert lines[1].startswith("strong bot for P1: 150 iterations, ")
    rows = [CANDIDATE.match(line) for line in lines[2:]]
    assert all(rows) and 1 <= len(rows) <= 3
    legal = set(state.legal_action_strings())
    assert {r[1] for r in rows} <= legal
    visits = [int(r[2]) for r in rows]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 150
    assert rows[0][1] == lines[0]     # the move played is the most visited one


def test_a_multi_player_position_with_moves_applied(capsys):
    status, lines, err = run(capsys, ["hint", "ko", "--option", "players=4",
                                      "--option", "quick_start=1", "roll 1 2", "roll 3 4",
                                      "roll 5 6", "roll 1 1", "roll 2 4",
                                      "--iterations", "60"])
    assert status == 0 and err == "", err
    state = get_game("ko", players=4, quick_start=1).analysis_start()
    for text in ("roll 1 2", "roll 3 4", "roll 5 6", "roll 1 1", "roll 2 4"):
        state.apply_text(text)
    assert lines[0] in state.legal_action_strings()
    assert f"for {state.game.player_name(state.current_player())}:" in lines[1]


def test_a_mixed_decision_says_so(capsys):
    status, lines, err = run(capsys, ["hint", "dodgeball", "--position", DECLARE,
                                      "--iterations", "20"])
    assert status == 0 and err == ""
    assert lines[0] in ("catch", "dodge")
    assert lines[2].startswith("a mixed decision: the move is drawn at random")


@pytest.mark.parametrize("argv, words", [
    (["hint", "knockoff"], "a die roll is due"),
    (["hint", "knockoff", "roll 2-3", "pass"], "a die roll is due"),
    (["hint", "knockabout", "--position", "nonsense"], "side to move 'nonsense'"),
    (["hint", "knockoff", "roll 9-9"], "move 1 'roll 9-9'"),
    (["hint", "knockoff", "roll 2-3", "--budget", "0"],
     "--budget: '0' must be a number of seconds above 0 to 3600"),
    (["hint", "knockoff", "roll 2-3", "--budget", "nan"], "'nan' must be a number of seconds"),
    (["hint", "knockoff", "roll 2-3", "--iterations", "0"], "--iterations: '0' must be positive"),
    (["hint", "knockoff", "roll 2-3", "--top", "0"], "--top"),
    (["hint", "chess"], "unknown game 'chess'"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, words):
    status, lines, err = run(capsys, argv)
    assert status == 2 and lines == []
    assert err.count("\n") == 1 and words in err, err


def test_the_end_of_a_game_has_no_hint(capsys):
    state = get_game("knockabout").analysis_start()
    rng, bot = random.Random(1), GreedyBot(seed=1)
    while not state.is_terminal():
        state.apply(sample_chance(state, rng) if state.is_chance_node() else bot.choose(state))
    status, lines, err = run(capsys, ["hint", "knockabout", "--position", state.to_position()])
    assert status == 2 and "the game is over" in err


TURN = re.compile(r"^  (.+?)\s+chance to win (\d\.\d{3})$")
# Team 2 to act with three dice left and two starting balls on its side of reach.
DODGEBALL_TURN = "turn2 1:a1,c1,c2,d3,f3 2:e8,f8,h8 balls:de,gh,f6 dice:245/456"


def test_two_player_knockoff_lists_the_turns_it_looked_at_best_first(capsys):
    status, lines, err = run(capsys, ["hint", "knockoff", "roll 1-2", "--iterations", "30",
                                      "--top", "3"])
    assert status == 0 and err == ""
    planned = lines[2].removeprefix("the turn it plans: ").split(", ")
    assert lines[2].startswith("the turn it plans: ") and planned[0] == lines[0]
    rows = [TURN.match(line) for line in lines[3:]]
    assert all(rows) and 2 <= len(rows) <= 3
    chances = [float(r[2]) for r in rows]
    assert chances == sorted(chances, reverse=True)
    assert rows[0][1].split(", ") == planned      # the turn played is the best one listed
    state = get_game("knockoff").analysis_start()
    state.apply_text("roll 1-2")
    for row in rows:                               # every listed turn is playable as written
        scratch = state.clone()
        for word in row[1].split(", "):
            scratch.apply_text(word)
        assert scratch.is_chance_node() or scratch.is_terminal()


def test_dodgeball_names_the_whole_turn_it_plans(capsys):
    status, lines, err = run(capsys, ["hint", "dodgeball", "--position", DODGEBALL_TURN,
                                      "--iterations", "30"])
    assert status == 0 and err == ""
    assert lines[2].startswith("the turn it plans: ")
    planned = lines[2].removeprefix("the turn it plans: ").split(", ")
    assert planned[0] == lines[0] and len(planned) >= 2
    scratch = get_game("dodgeball").from_position(DODGEBALL_TURN)
    for word in planned:                         # played as written, by the acting team
        assert scratch.current_player() == 1 and not scratch.is_chance_node()
        scratch.apply_text(word)
