"""Knock-Off over random play (hypothesis-seeded games): its own rules and invariants; and
through `knockboard analyze`. The engine contract (undo, position and notation round trips)
is checked with every other game's in tests/test_engine_contract.py."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockboard.cli import main
from knockboard.games import get_game, sample_chance
from knockboard.games.knockoff.notation import MOVE_BASE
from knockboard.games.knockoff.position import PAWNS

MAX_PLIES = 5000   # random games end in a few hundred plies; more would be a bug


def random_game(players, seed, check):
    """Play a random game from the real start, calling check(state, action) before each
    ply (check leaves the state as it found it); returns the final state."""
    game = get_game("knockoff", players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        check(state, action)
        state.apply(action)
        assert len(state.history) < MAX_PLIES
    return state


def invariants(state):
    n = state.game.num_players
    board = state.game.board
    seen = set()
    for p in range(n):
        # pawn count per player is constant
        assert state.home[p] + len(state.pos[p]) == PAWNS
        assert state.top[p] == sum(board.is_top[i] for i in state.pos[p])
        for i in state.pos[p]:
            assert state.occ[i] == p
            assert i not in seen               # at most one pawn per platform
            seen.add(i)
    assert sum(o >= 0 for o in state.occ) == len(seen)
    if not state.is_terminal():
        assert max(state.top) < 3


def check_ply(state, action):
    """The rules of a move: pawns only move up, the mover ends on its platform, only a
    landing knocks (the knocked pawn goes home). Leaves the state as it found it."""
    board = state.game.board
    invariants(state)
    if action < MOVE_BASE:
        return
    mover = state.current_player()
    occ, home = list(state.occ), list(state.home)
    state.apply(action)
    src, dst = divmod(action - MOVE_BASE, board.num_nodes)
    assert board.level[dst] > board.level[src]
    assert state.occ[dst] == mover
    changed = {i for i in range(board.num_platforms) if occ[i] != state.occ[i]}
    assert changed <= {src, dst}
    if occ[dst] >= 0 and occ[dst] != mover:
        assert state.home[occ[dst]] == home[occ[dst]] + 1
    state.undo()


@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_rules(players, seed):
    final = random_game(players, seed, check_ply)
    invariants(final)
    assert sorted(final.returns()) == [-1] * (players - 1) + [1]
    assert final.top[final.player] == 3


# --- knockboard analyze ----------------------------------------------------------------
def analyze(capsys, *argv, options=()):
    # Options go before the game name: the shared parser's `moves` (nargs="*") is consumed
    # empty when options separate it from GAME (argparse without parse_intermixed_args).
    status = main(["analyze", *options, "knockoff", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_analyze_default_start(capsys):
    status, out, err = analyze(capsys, "roll 3-3")
    assert status == 0 and err == ""
    assert out.splitlines() == ["-/- P1 dice 33+", "H1-2a", "H1-2b", "H1-3a", "H1-3b",
                                "H1-3c", "H1-3h", "pass"]


def test_cli_analyze_example_B1(capsys):
    status, out, _ = analyze(capsys, "3c-4c", "4c-5c",
                             options=["--position", "3c/4c,5c P1 dice 45"])
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "5c/- P2 roll"
    assert len(lines) == 1 + 21 and lines[1] == "roll 1-1" and lines[-1] == "roll 6-6"


def test_cli_analyze_players_option(capsys):
    status, out, _ = analyze(capsys, "H2-1c", options=["--option", "players=3",
                                                       "--position", "-/-/- P2 dice 12"])
    assert status == 0
    assert out.splitlines() == ["-/1c/- P2 dice 2", "1c-2c", "1c-2d", "pass"]


def test_cli_analyze_rolloff_from_real_start(capsys):
    status, out, _ = analyze(capsys, "roll 6", "roll 6", "roll 1", "roll 2",
                             options=["--position", "-/-/-/- rolloff ????",
                                      "--option", "players=4"])
    assert status == 0
    assert out.splitlines() == ["-/-/-/- rolloff ??--", "roll 1", "roll 2", "roll 3",
                                "roll 4", "roll 5", "roll 6"]


@pytest.mark.parametrize("options,moves,fragment", [
    (["--position", "1a/1a P1 roll"], [], "two pawns"),
    (["--position", "-/- P1 dice 9"], [], "'9'"),
    # a position of three players read with an explicit option of two (without the option
    # the position's own count is taken: tests/test_saved_games_family.py)
    (["--option", "players=2", "--position", "-/-/- P1 roll"], [], "players=3"),
    ([], ["roll 3-4", "H1-1a"], "move 2 'H1-1a'"),
    ([], ["roll 3-4", "fly"], "not Knock-Off notation"),
    (["--option", "players=7"], [], "players=7"),
])
def test_cli_errors_exit_2_one_line(capsys, options, moves, fragment):
    status, out, err = analyze(capsys, *moves, options=options)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and fragment in err


def doc_commands():
    """The `$ knockboard analyze ...` lines of docs/rules/knockoff.md with the output
    printed under each."""
    import pathlib
    import shlex
    doc = pathlib.Path(__file__).resolve().parent.parent / "docs" / "rules" / "knockoff.md"
    found, current, in_block = [], None, False
    for line in doc.read_text().splitlines():
        if line.startswith("```"):
            in_block = not in_block
            current = None
            continue
        if not in_block:
            continue
        if line.startswith("$ knockboard analyze"):
            command, _, pipe = line[2:].partition(" | ")
            current = (shlex.split(command)[1:], pipe, [])
            found.append(current)
        elif current is not None:
            current[2].append(line)
    return found


@pytest.mark.parametrize("argv,pipe,expected", doc_commands())
def test_docs_examples_are_real_output(capsys, argv, pipe, expected):
    status = main(argv)
    out, err = capsys.readouterr()
    lines = (out + err).splitlines()
    if pipe == "head -1":
        lines = lines[:1]
    else:
        assert pipe == ""
    assert lines == expected
    assert status == (2 if err else 0)
