"""K.O. position format, move notation and `knockboard analyze ko`."""

import pytest

from knockboard.cli import main
from knockboard.games import (CHANCE, IllegalMoveError, NotationError, OptionError,
                              PositionError, get_game)

from ko_helpers import position, quick_start, state_of

QUICK4 = ("R=a1,b1,c1,a2,b2,a3 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7 "
          "B=i1,h1,g1,i2,h2,i3")
QUICK3 = "R=a1,b1,c1,a2,b2,a3 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7"


# --- position format ----------------------------------------------------------------------

@pytest.mark.parametrize("players, text", [
    (4, "R/G/Y/B setup:R1 R=?,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,? B=?,?,?,?,?,?"),
    (4, "R/G/Y/B setup:G1 R=c1,b1,a1,a2,b2,a3 G=?,?,?,?,?,? Y=?,?,?,?,?,? B=?,?,?,?,?,?"),
    (2, "RB/GY setup:B3 R=a1,b1,c1,a2,b2,a3 B=i1,h1,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,?"),
    (4, "R/G/Y/B rolloff:?,?,?,? " + QUICK4),
    (4, "R/G/Y/B rolloff:7,-,?,- " + QUICK4),
    (3, "R/G/Y rolloff:9,4,? " + QUICK3),
    (4, "R/G/Y/B turn:Y:roll " + QUICK4),
    (4, "R/G/Y/B turn:Y:1>5,5>1 " + QUICK4),
    (4, "R/G/Y/B turn:Y:5>1 " + QUICK4),
    (4, "R/G/Y/B turn:B:4>4,*>4 " + QUICK4),
    (4, "R/G/Y/B turn:B:*>4 " + QUICK4),
    (2, "RB/GY turn:GY:6>6 R=a1,-,-,-,-,- B=-,-,-,-,-,e5 G=-,-,-,-,-,f6 Y=-,-,-,-,-,-"),
    (3, "R/G/Y end R=a1,-,-,-,-,- G=-,-,-,-,-,a9 Y=-,i9,-,-,-,-"),
])
def test_position_round_trips(players, text):
    game = get_game("ko", players=players)
    state = game.from_position(text)
    assert state.to_position() == text
    assert state.history == []
    assert game.from_position(state.to_position()) == state


def test_position_parsing_is_lenient_on_case_and_order_but_writes_canonically():
    game = get_game("ko", players=3)
    text = "r/g/y TURN:g:roll".replace("TURN", "turn") + \
        " Y=I9,h9,g9,i8,h8,i7 R=a1,b1,c1,a2,b2,a3 g=a9,b9,c9,a8,b8,a7"
    assert game.from_position(text).to_position() == "R/G/Y turn:G:roll " + QUICK3
    assert game.from_position("R/G/Y turn:R:5>1,1>5 " + QUICK3).to_position() \
        == "R/G/Y turn:R:1>5,5>1 " + QUICK3
    assert game.from_position("R/G/Y turn:R:*>2,2>2 " + QUICK3).to_position() \
        == "R/G/Y turn:R:2>2,*>2 " + QUICK3


@pytest.mark.parametrize("players, text, message", [
    (4, "", "expected '<seats> <phase>"),
    (4, "R/G/Y setup:R1 R=?,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,?", "use the option players=3"),
    (2, "R/G/Y/B turn:R:roll " + QUICK4, "use the option players=4"),
    (4, "R/G/B/Y turn:R:roll " + QUICK4, "seating 'R/G/B/Y': expected R/G/Y/B"),
    (4, "R/G/Y/B play:R " + QUICK4, "phase 'play:R'"),
    (4, "R/G/Y/B end:R " + QUICK4, "phase 'end:R'"),
    (4, "R/G/Y/B turn:R:roll R=a1,b1,c1 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7 "
        "B=i1,h1,g1,i2,h2,i3", "field 'R=a1,b1,c1': expected 6 entries"),
    (4, "R/G/Y/B turn:R:roll Q=a1,b1,c1,a2,b2,a3", "field 'Q=a1,b1,c1,a2,b2,a3'"),
    (4, "R/G/Y/B turn:R:roll R=a1,b1,c1,a2,b2,z3", "piece 6 at 'z3', which is not a space"),
    (4, "R/G/Y/B turn:R:roll R=a1,b1,c1,a2,b2,a3 R=a1,b1,c1,a2,b2,a3", "listed twice"),
    (4, "R/G/Y/B turn:R:roll R=a1,b1,c1,a2,b2,a3", "no fields for colors G, Y, B"),
    (3, "R/G/Y turn:R:roll " + QUICK3 + " B=i1,h1,g1,i2,h2,i3", "blue does not play"),
    (3, "R/G/Y turn:R:roll R=a1,b1,c1,a2,b2,a9 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7",
     "a9 holds both R6 and G1"),
    (3, "R/G/Y setup:R3 R=?,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,?",
     "before R3 exactly R1, R2 are placed"),
    (3, "R/G/Y setup:R2 R=e5,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,?",
     "R1 stands on e5, not a start space of red"),
    (3, "R/G/Y setup:Q2 R=a1,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,?", "expected setup:<piece"),
    (3, "R/G/Y rolloff:?,? " + QUICK3, "one entry per seat"),
    (3, "R/G/Y rolloff:13,?,? " + QUICK3, "entry '13' is not a sum"),
    (3, "R/G/Y rolloff:7,8,9 " + QUICK3, "someone must still throw"),
    (3, "R/G/Y rolloff:?,-,- " + QUICK3, "at least two seats"),
    (3, "R/G/Y rolloff:?,7,? " + QUICK3, "no sum can follow a '?'"),
    (3, "R/G/Y rolloff:?,?,? R=a1,-,c1,a2,b2,a3 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7",
     "R2 is out"),
    (3, "R/G/Y turn:R:roll R=a1,?,c1,a2,b2,a3 G=a9,b9,c9,a8,b8,a7 Y=i9,h9,g9,i8,h8,i7",
     "R2 is not placed"),
    (3, "R/G/Y turn:B:roll " + QUICK3, "with a seat of R/G/Y"),
    (3, "R/G/Y turn:R " + QUICK3, "expected turn:<seat>:roll"),
    (3, "R/G/Y turn:R:roll R=a1,-,-,-,-,- G=-,-,-,-,-,a9 Y=-,i9,-,-,-,-", "the game is over"),
    (3, "R/G/Y turn:R:1>5,1>5 " + QUICK3, "at most two different moves"),
    (3, "R/G/Y turn:R:1>5,2>3 " + QUICK3, "a>b and b>a"),
    (3, "R/G/Y turn:R:3>3,1>3 " + QUICK3, "a double n leaves only n>n and *>n"),
    (3, "R/G/Y turn:R:7>1 " + QUICK3, "move '7>1' is not n>k"),
    (3, "R/G/Y turn:R:1-5 " + QUICK3, "move '1-5' is not n>k"),
    (3, "R/G/Y end " + QUICK3, "a knock-out is still possible"),
])
def test_bad_positions_are_refused_naming_the_culprit(players, text, message):
    game = get_game("ko", players=players)
    with pytest.raises(PositionError) as err:
        game.from_position(text)
    assert message in str(err.value)


def test_position_must_be_text():
    with pytest.raises(PositionError):
        get_game("ko").from_position(None)


# --- notation -----------------------------------------------------------------------------

def test_notation_of_every_kind_of_action():
    game = get_game("ko", players=3)
    state = game.new_initial_state()
    assert state.action_to_string(state.parse_action("R1@b2")) == "R1@b2"
    state = game.from_position("R/G/Y rolloff:?,?,? " + QUICK3)
    for text in ("roll 5 3", "roll 35", "roll 3,5", "roll 5+3", "ROLL 3 5", " roll 3 5 "):
        assert state.action_to_string(state.parse_action(text)) == "roll 3 5"
    colors = {"R": ["-", "-", "e5", "-", "-", "-"], "G": ["-", "-", "e6", "-", "-", "-"]}
    state = state_of(3, "turn:R:3>1", **colors)
    knock = state.parse_action("R3xe6")
    assert state.parse_action("R3-e6") == knock == state.parse_action("r3-E6")
    assert state.action_to_string(knock) == "R3xe6"
    assert state.action_to_string(state.parse_action("R3-d5")) == "R3-d5"
    state.apply(knock)
    assert state.action_to_string(knock) == "R3xe6"      # as just played
    state = state_of(3, "turn:R:2>1", R=["-", "a1", "b1", "a2", "b2", "-"],
                     G=["-", "i9", "i8", "i7", "h9", "-"])
    assert state.legal_action_strings() == ["pass"]
    assert state.parse_action(" PASS ") == game.pass_action


@pytest.mark.parametrize("text, message", [
    ("foo", "not K.O. notation"),
    ("R3e5", "not K.O. notation"),
    ("R9-a1", "pieces are numbered 1 to 6"),
    ("Q1-a1", "no color Q on this board"),
    ("R1-z9", "z9 is not a space of the standard board"),
    ("roll 7 1", "dice show 1 to 6"),
    ("roll", "a throw is written 'roll A B'"),
    ("roll 1 2 3", "a throw is written 'roll A B'"),
])
def test_malformed_notation_is_a_notation_error(text, message):
    state = get_game("ko").new_initial_state()
    with pytest.raises(NotationError, match=message):
        state.parse_action(text)


def test_notation_errors_for_non_actions():
    state = get_game("ko").new_initial_state()
    with pytest.raises(NotationError):
        state.parse_action(5)
    for action in (-1, 10 ** 6, "R1@a1", None, True):
        with pytest.raises(NotationError):
            state.action_to_string(action)
    with pytest.raises(IllegalMoveError, match="is not a K.O. action"):
        state.apply(10 ** 6)
    first = state.legal_actions()[0]
    for fake in (float(first), str(first)):
        with pytest.raises(IllegalMoveError):
            state.apply(fake)
    assert state.history == []


@pytest.mark.parametrize("phase, text, message", [
    ("turn:R:roll", "R1-a4", "the dice must be thrown first"),
    ("turn:R:1>5,5>1", "roll 1 5", "no throw is due"),
    ("turn:R:1>5,5>1", "R1@a1", "the set-up is over"),
    ("turn:R:1>5,5>1", "G1-a6", "G1 belongs to Green, and Red is to move"),
    ("turn:R:1>5,5>1", "R2-b3", "(piece 1 moves 5, piece 5 moves 1) do not move a 2"),
    ("turn:R:1>5,5>1", "R5-d4", "R5 cannot reach d4 by a path of exactly 1 step "),
    ("turn:R:1>5,5>1", "R1-f9", "R1 cannot reach f9 by a path of exactly 5 steps "),
    ("turn:R:1>5,5>1", "R5-a1", "a1 is taken by R1, your own piece"),
    ("turn:R:1>5,5>1", "B1-a6", "blue does not play in a 3-player game"),
])
def test_illegal_moves_say_why_and_change_nothing(phase, text, message):
    game = get_game("ko", players=3)
    state = game.from_position(f"R/G/Y {phase} {QUICK3}")
    before = state.to_position()
    with pytest.raises(IllegalMoveError) as err:
        state.parse_action(text)
    assert message in str(err.value)
    assert state.to_position() == before and state.history == []


def test_apply_of_an_illegal_action_changes_nothing():
    game = get_game("ko", players=3)
    state = game.from_position("R/G/Y turn:R:1>5,5>1 " + QUICK3)
    before = state.to_position()
    legal = state.legal_actions()
    r5_to_d4 = 4 * game.num_spaces + game.board.index["d4"]
    with pytest.raises(IllegalMoveError, match="R5-d4: R5 cannot reach d4"):
        state.apply(r5_to_d4)
    assert state.to_position() == before and state.history == []
    assert state.legal_actions() == legal


def test_out_piece_reason():
    state = state_of(3, "turn:R:1>5,5>1", R=["-", "b1", "c1", "a2", "b2", "a3"],
                     G=["a9", "b9", "c9", "a8", "b8", "a7"])
    with pytest.raises(IllegalMoveError, match="R1 is out of the game"):
        state.parse_action("R1-a6")


def test_game_over_reason():
    state = state_of(3, "end", R=["a1", "-", "-", "-", "-", "-"])
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.parse_action("R1-a2")


# --- options --------------------------------------------------------------------------------

def test_options():
    assert get_game("ko").num_players == 4
    assert get_game("ko", players=2).player_name(0) == "Red+Blue"
    assert get_game("ko", players=2).player_name(1) == "Green+Yellow"
    assert get_game("ko", players=3).player_name(2) == "Yellow"
    for value in (1, "1", "yes", True):
        assert get_game("ko", quick_start=value).options["quick_start"] is True
    for value in (0, "0", "no", False):
        assert get_game("ko", quick_start=value).options["quick_start"] is False
    with pytest.raises(OptionError):
        get_game("ko", quick_start="maybe")
    with pytest.raises(OptionError):
        get_game("ko", players=5)
    with pytest.raises(OptionError):
        get_game("ko", colour="red")


# --- knockboard analyze ko ------------------------------------------------------------------

def run(capsys, *argv):
    status = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_real_start(capsys):
    status, out, err = run(capsys, "ko")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "R/G/Y/B setup:R1 R=?,?,?,?,?,? G=?,?,?,?,?,? Y=?,?,?,?,?,? B=?,?,?,?,?,?",
        "R1@a1", "R1@a2", "R1@a3", "R1@b1", "R1@b2", "R1@c1"]


def test_cli_quick_start_rolloff_and_first_throw(capsys):
    status, out, err = run(capsys, "--option", "players=3", "--option", "quick_start=1",
                           "ko", "roll 3 4", "roll 6 6", "roll 1 5")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "R/G/Y turn:G:roll " + QUICK3
    assert len(lines) == 1 + 21 and lines[1] == "roll 1 1" and lines[-1] == "roll 6 6"


def test_cli_position_and_moves(capsys):
    text = position(4, "turn:R:1>2,2>1", R=["a2", "a1", "b1", "b2", "e5", "e6"],
                    **{k: v for k, v in quick_start(4).items() if k != "R"})
    status, out, err = run(capsys, "--position", text, "ko", "R1-c3")
    assert status == 0 and err == ""
    assert out.splitlines() == [text.replace("turn:R:1>2,2>1", "turn:R:2>1")
                                .replace("R=a2,", "R=c3,"), "R2-a2"]


def test_cli_two_players(capsys):
    status, out, err = run(capsys, "--option", "players=2", "ko")
    assert status == 0
    assert out.splitlines()[0].startswith("RB/GY setup:R1 ")


@pytest.mark.parametrize("argv, fragment", [
    (("--position", "R/G/Y/B turn:R:roll R=a1", "ko"), "field 'R=a1'"),
    (("--position", "nonsense", "ko"), "K.O. position"),
    (("ko", "R1@d4"), "move 1 'R1@d4': d4 is not a start space of red"),
    (("ko", "R1@a1", "R2@a1"), "move 2 'R2@a1': a1 is already taken"),
    (("ko", "hello"), "move 1 'hello': not K.O. notation"),
    (("--option", "players=5", "ko"), "players=5"),
])
def test_cli_errors_exit_2_with_one_line(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and fragment in err


def test_cli_chance_node_lists_outcomes(capsys):
    status, out, _ = run(capsys, "--option", "players=3", "--position",
                         "R/G/Y rolloff:?,?,? " + QUICK3, "ko")
    assert status == 0
    assert get_game("ko", players=4).from_position(
        "R/G/Y/B rolloff:?,?,?,? " + QUICK4).current_player() == CHANCE
    assert out.splitlines()[1:] == [f"roll {a} {b}" for a in range(1, 7) for b in range(a, 7)]
