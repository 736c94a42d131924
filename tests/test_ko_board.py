"""K.O. board data (ruling KO-0): the standard board as RULES.md describes it, the reach
tables against brute force, and boards described as data without code changes."""

import json

import pytest

from knockboard.games import OptionError, get_game
from knockboard.games.base import BoardDataError
from knockboard.games.ko.board import KOBoard, get_board
from knockboard.games.ko.board import STANDARD

from ko_helpers import GRAPH, STARTS, path_ends


def names(board, indices):
    return {board.spaces[i] for i in indices}


def test_KO0_standard_board_has_81_spaces_and_the_ruled_lines():
    board = get_board("standard")
    assert len(board.spaces) == 81
    # 2 * 9 * 8 orthogonal pairs, and one diagonal in each of the 64 unit squares
    assert len(board.lines) == 144 + 64
    lines = {frozenset((board.spaces[i], board.spaces[j])) for i, j in board.lines}
    expected = {frozenset((a, b)) for a in GRAPH for b in GRAPH[a]}
    assert lines == expected


def test_KO0_diagonals_only_between_even_sum_spaces():
    board = get_board("standard")
    # a1 = (0, 0) is even: it has the diagonal to b2; b1 is odd: no diagonal at all
    assert names(board, board.neighbors[board.index["a1"]]) == {"a2", "b1", "b2"}
    assert names(board, board.neighbors[board.index["b1"]]) == {"a1", "c1", "b2"}
    assert names(board, board.neighbors[board.index["e5"]]) == {
        "d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"}
    assert names(board, board.neighbors[board.index["e4"]]) == {"d4", "f4", "e3", "e5"}


def test_KO0_start_spaces_and_seating():
    board = get_board("standard")
    assert board.letters == ("R", "G", "Y", "B")     # clockwise: red, green, yellow, blue
    for color, letter in zip(board.color_names, board.letters):
        assert [board.spaces[i] for i in board.starts[board.letters.index(letter)]] \
            == STARTS[letter], color
    letters = board.letters
    assert [[letters[c] for c in seat] for seat in board.seats[2]] == [["R", "B"], ["G", "Y"]]
    assert [[letters[c] for c in seat] for seat in board.seats[3]] == [["R"], ["G"], ["Y"]]
    assert [[letters[c] for c in seat] for seat in board.seats[4]] == [
        ["R"], ["G"], ["Y"], ["B"]]


def test_reach_by_hand_from_the_corner():
    board = get_board("standard")
    reach = board.reach[board.index["a1"]]
    assert names(board, reach[1]) == {"a2", "b1", "b2"}
    # two steps: via b1 (c1, b2), via a2 (a3, b2), via b2 (a2 b1 c1 c2 a3 b3 c3); never a1
    assert names(board, reach[2]) == {"a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"}


def test_reach_never_returns_to_the_start():
    board = get_board("standard")
    for s in range(81):
        for k in range(1, 7):
            assert s not in board.reach[s][k]


def test_reach_equals_brute_force_simple_paths_everywhere():
    board = get_board("standard")
    for name in GRAPH:
        for steps in range(1, 7):
            assert names(board, board.reach[board.index[name]][steps]) \
                == path_ends(name, steps), (name, steps)


# A small board written as data: a corridor r6..r1 - c1..c4 - g1..g6 with a square
# c2-c3-s1-s2 hanging off it, and only two colors.
TINY = {
    "name": "tiny",
    "spaces": ["r1", "r2", "r3", "r4", "r5", "r6", "c1", "c2", "c3", "c4",
               "g1", "g2", "g3", "g4", "g5", "g6", "s1", "s2"],
    "lines": ["r6-r5", "r5-r4", "r4-r3", "r3-r2", "r2-r1", "r1-c1", "c1-c2", "c2-c3",
              "c3-c4", "c4-g1", "g1-g2", "g2-g3", "g3-g4", "g4-g5", "g5-g6",
              "c3-s1", "s1-s2", "s2-c2"],
    "colors": [
        {"name": "red", "letter": "R", "start": ["r1", "r2", "r3", "r4", "r5", "r6"]},
        {"name": "green", "letter": "G", "start": ["g1", "g2", "g3", "g4", "g5", "g6"]},
    ],
    "seats": {"2": [["red"], ["green"]]},
}


def test_KO0_a_board_described_as_data_plays_without_code_changes():
    board = KOBoard.from_json(json.dumps(TINY))
    game = get_game("ko", players=2, board=board, quick_start=True)
    state = game.new_initial_state()
    assert state.to_position() == (
        "R/G rolloff:?,? R=r1,r2,r3,r4,r5,r6 G=g1,g2,g3,g4,g5,g6")
    for throw in ("roll 6 6", "roll 1 1", "roll 1 2"):
        state.apply_text(throw)
    # red starts; piece 1 moves 2 along the corridor (r1 -> c1 -> c2), piece 2 moves 1
    # but r2's neighbors r1 and r3 hold red pieces
    assert sorted(state.legal_action_strings()) == ["R1-c2"]
    with pytest.raises(OptionError):
        get_game("ko", players=3, board=board)


def test_paths_on_a_line_have_exact_length_and_never_turn_back():
    board = KOBoard(TINY)
    at = board.index
    # from c1: 1 step r1 or c2; 2 steps r2, c3 or s2 (never back to c1)
    assert names(board, board.reach[at["c1"]][1]) == {"r1", "c2"}
    assert names(board, board.reach[at["c1"]][2]) == {"r2", "c3", "s2"}
    # from r6, the end of the line, exactly k steps lead to one space only
    assert names(board, board.reach[at["r6"]][6]) == {"c1"}


def test_paths_round_a_square_cannot_close_the_loop():
    board = KOBoard(TINY)
    at = board.index
    # c2 c3 s1 s2 form a square: 3 steps from c2 reach s2 the long way round (c2 c3 s1
    # s2) but the fourth step back to c2 is a revisit
    assert "s2" in names(board, board.reach[at["c2"]][3])
    assert "c2" not in names(board, board.reach[at["c2"]][4])
    # s1 s2 c2 c1 r1, s1 s2 c2 c3 c4, s1 c3 c2 c1 r1, s1 c3 c4 g1 g2 (s1 c3 c2 s2 is stuck)
    assert names(board, board.reach[at["s1"]][4]) == {"r1", "c4", "g2"}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["lines"].append("c1-z9"), "unknown space 'z9'"),
    (lambda d: d["lines"].append("c2-c1"), "listed twice"),
    (lambda d: d["lines"].append("c1-c1"), "to itself"),
    (lambda d: d["spaces"].append("c1"), "space c1 listed twice"),
    (lambda d: d["spaces"].append("C9"), "lower-case"),
    (lambda d: d["colors"][0]["start"].pop(), "6 different start spaces"),
    (lambda d: d["colors"][1]["start"].__setitem__(0, "r1"), "shares a start space"),
    (lambda d: d["colors"][1].__setitem__("letter", "R"), "must differ"),
    (lambda d: d["seats"].__setitem__("2", [["red"], ["pink"]]), "unknown color 'pink'"),
    (lambda d: d["seats"].__setitem__("2", [["red"]]), "must give 2 seats"),
    (lambda d: d.pop("lines"), "malformed"),
    (lambda d: d["lines"].remove("c4-g1"), "no path of lines joins"),
])
def test_bad_board_data_is_refused_with_a_reason(change, message):
    data = json.loads(json.dumps(TINY))
    change(data)
    with pytest.raises(BoardDataError, match=message):
        KOBoard(data)


def test_board_json_must_be_json():
    with pytest.raises(BoardDataError, match="not JSON"):
        KOBoard.from_json("{spaces: a1")


def test_standard_board_data_is_json_compatible():
    assert KOBoard.from_json(json.dumps(STANDARD)).lines == get_board("standard").lines


def test_unknown_board_name_is_an_option_error():
    with pytest.raises(OptionError, match="board"):
        get_game("ko", board="hexagon")
