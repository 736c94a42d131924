"""`knockboard arena`: the report's format, seat rotation, shared dice, argument errors, and
the Wilson interval against hand-computed values."""

import random
import re

import pytest

from knockboard.arena import dice_seed, play_game, run_arena, wilson_interval
from knockboard.bots import make_bot
from knockboard.cli import main
from knockboard.games import get_game

ROW = re.compile(r"^(\d)\s+(\w+)\s+([\d.]+)\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]\s+"
                 r"([\d.]+)\s+(\d+)$")


# Hand-computed (z = 1.96): centre (p + z^2/2n) / (1 + z^2/n),
# half-width z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).
@pytest.mark.parametrize("wins, n, low, high", [
    (8, 10, 0.4902, 0.9433),      # centre 0.99207/1.38415 = 0.71674, half 0.22658
    (0, 10, 0.0, 0.2775),         # centre 0.13876, half 0.13877
    (10, 10, 0.7225, 1.0),        # the mirror image of 0/10
    (150, 200, 0.6857, 0.8049),   # centre 0.74529, half 0.05963
    (100, 200, 0.4314, 0.5686),   # centre 0.5, half 1.96*0.035355/1.019207 = 0.06799
    (1.5, 3, 0.1253, 0.8747),     # shared wins count half: p = 0.5, half 0.85443/2.2805
])
def test_wilson_interval_matches_hand_computed_values(wins, n, low, high):
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=5e-4) and hi == pytest.approx(high, abs=5e-4)


def test_wilson_interval_needs_trials():
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def parse_rows(out):
    lines = out.strip().splitlines()
    assert lines[0].startswith("arena ")
    assert lines[1].split()[:4] == ["#", "bot", "wins", "win"]
    rows = [ROW.match(line) for line in lines[2:-1]]
    assert all(rows), lines
    assert lines[-1].startswith("unfinished games: ")
    return lines, rows


def test_report_format_and_figures(capsys):
    status, out, err = run(capsys, ["arena", "knockabout", "--bots", "greedy,random",
                                    "--games", "6", "--seed", "2"])
    assert status == 0 and err == ""
    lines, rows = parse_rows(out)
    assert "6 games, 2 players, seed 2" in lines[0]
    assert [r[2] for r in rows] == ["greedy", "random"]
    wins = [float(r[3]) for r in rows]
    unfinished = int(lines[-1].split()[2])
    assert sum(wins) == 6 - unfinished
    for r, w in zip(rows, wins):
        rate, lo, hi = float(r[4]), float(r[5]), float(r[6])
        assert rate == pytest.approx(w / 6, abs=1e-3) and lo <= rate <= hi
        assert (lo, hi) == pytest.approx(wilson_interval(w, 6), abs=1e-3)
        assert int(r[8]) > 0                       # moves counted


def test_report_is_reproducible_except_for_the_clock(capsys):
    argv = ["arena", "knockabout", "--bots", "strong,greedy", "--games", "2", "--seed", "5",
            "--iterations", "20", "--budget", "30"]
    _, first, _ = run(capsys, argv)
    _, second, _ = run(capsys, argv)

    def strip_times(text):
        return [ROW.sub(lambda m: " ".join(m.group(i) for i in (1, 2, 3, 8)), line)
                for line in text.splitlines()]
    assert strip_times(first) == strip_times(second)
    assert "iterations 20" in first


def test_seats_rotate_and_each_block_shares_its_dice():
    result = run_arena(get_game("knockabout"), ["greedy", "random"], 4, seed=9)
    assert [e.seat_games for e in result.entries] == [{0: 2, 1: 2}, {0: 2, 1: 2}]
    assert dice_seed(9, 0, 2) == dice_seed(9, 1, 2) != dice_seed(9, 2, 2) == dice_seed(9, 3, 2)
    assert dice_seed(9, 0, 4) == dice_seed(9, 3, 4) != dice_seed(9, 4, 4)


def test_a_row_split_at_any_game_adds_up_to_the_whole_row():
    game = get_game("knockabout")
    bots = ["greedy", "random"]
    whole = run_arena(game, bots, 5, seed=9, max_decisions=60)
    parts = [run_arena(game, bots, 2, seed=9, max_decisions=60),
             run_arena(game, bots, 3, seed=9, max_decisions=60, first=2)]

    def tally(result):
        return [(e.wins, e.games, e.moves, e.seat_games) for e in result.entries]
    added = [(a[0] + b[0], a[1] + b[1], a[2] + b[2],
              {s: a[3].get(s, 0) + b[3].get(s, 0) for s in (0, 1)})
             for a, b in zip(tally(parts[0]), tally(parts[1]))]
    assert added == tally(whole)
    assert parts[0].unfinished + parts[1].unfinished == whole.unfinished
    assert parts[0].plies + parts[1].plies == whole.plies


def test_an_observer_sees_every_decision_before_it_is_played():
    game = get_game("knockabout")
    seen = []

    def observe(state, seat, action):
        assert state.current_player() == seat and action in state.legal_actions()
        seen.append(len(state.history))

    bots = [make_bot("random", seed=1), make_bot("greedy", seed=2)]
    _, decisions, *_ = play_game(game, bots, random.Random(3), 300, observe)
    assert len(seen) == decisions and seen == sorted(set(seen))


def test_the_number_of_bots_sets_the_players_of_a_multi_player_game(capsys):
    # `players` defaults to the number of bots where a game has that option.
    for game in ("ko", "knockoff"):
        for bots in ("greedy,random", "greedy,random,random,random"):
            status, out, err = run(capsys, ["arena", game, "--bots", bots, "--games", "1"])
            assert status == 0, err
            assert f"{len(bots.split(','))} players" in out.splitlines()[0]
    status, out, err = run(capsys, ["arena", "ko", "--bots", "greedy,random",
                                    "--option", "players=4"])
    assert status == 2 and out == "" and "4 players, 2 bots" in err
    status, out, err = run(capsys, ["arena", "dodgeball", "--bots", "greedy,random,random"])
    assert status == 2 and out == "" and "2 players, 3 bots" in err


@pytest.mark.parametrize("argv, words", [
    (["arena", "knockabout", "--bots", "greedy,clever"], "unknown bot 'clever'"),
    (["arena", "knockabout", "--bots", "greedy"], "two to four bot names"),
    (["arena", "knockabout", "--bots", "greedy,,random"], "two to four bot names"),
    (["arena", "knockabout", "--bots", "greedy,random", "--games", "0"], "--games: '0' must be"),
    (["arena", "knockabout", "--bots", "greedy,random", "--games", "many"], "--games"),
    (["arena", "knockabout", "--bots", "greedy,random", "--budget", "0"], "--budget: '0' must be"),
    (["arena", "knockabout", "--bots", "greedy,random", "--budget", "nan"], "--budget"),
    (["arena", "knockabout", "--bots", "greedy,random", "--iterations", "0"],
     "--iterations: '0' must be positive"),
    (["arena", "knockabout", "--bots", "greedy,random", "--max-moves", "0"],
     "--max-moves: '0' must be"),
    (["arena", "knockabout", "--bots", "greedy,random", "--option", "first=black"],
     "first='black'"),
    (["arena", "knockabout", "--bots", "greedy,random", "--option", "colour"], "KEY=VALUE"),
    (["arena", "chess", "--bots", "greedy,random"], "unknown game 'chess'"),
    (["arena", "knockabout"], "--bots"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, words):
    status, out, err = run(capsys, argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err
