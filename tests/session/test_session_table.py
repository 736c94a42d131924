"""At the table (issue 31): what a player reads on the OLED and the terminal is true at that
moment, every press gets an answer, and every game can end.  Each test plays through the
board as a person would."""

import contextlib
import io

from knockboard.cli import main
from knockboard.games import CHANCE, get_game
from knockboard.session import Session, Setup
from knockboard.session.adapters import get_ui
from knockboard.session.saving import RecordSaver
from knockboard.store import GameStore

from autoplay import AutoPlayer
from board_driver import VirtualBoard


def test_knockabout_shows_a_roll_only_until_the_next_move_and_a_reroll_only_while_turned():
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seed=4, out=out)
    assert session.record.actors == [CHANCE]      # the roll-off was just rolled
    assert len(vb.oled()[1]) == 2                  # its two dice: who starts, and why
    player = AutoPlayer(vb, seed=3, aggressive=True)
    rerolls = moves = 0
    for _ in range(400):
        animation = session.animation
        rerolling = animation is not None and animation.title == "dice"
        if not player.act():
            break
        dice = vb.oled()[1]
        if dice:                                   # a roll is shown: nobody acted since
            assert session.record.actors[-1] == CHANCE, session.record.actions[-3:]
        if rerolling and session.animation is None:
            rerolls += 1                           # the die is turned: its roll is spent
            assert dice == ()
        moves += session.record.actors[-1] != CHANCE
    assert rerolls >= 2 and moves > 10
    # the terminal prints dice only with the roll that made them, never after a move
    blocks = out.getvalue().split("\n\n")
    assert any("dice:" in b for b in blocks[:3])
    shown = [b for b in blocks if "\ndice: " in b]
    assert len(shown) < len(blocks) // 3


def test_knockoff_seats_are_their_colours_on_the_oled_in_the_log_and_in_the_record():
    out = io.StringIO()
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", ["human", "greedy"], seed=8, out=out,
                       actions=["roll 6", "roll 1", "roll 3-4"])
    assert vb.oled()[0][0] == "Red to move"
    assert [p["name"] for p in session.record.players] == ["Red", "Green"]
    assert "seats Red=human, Green=greedy" in out.getvalue()
    vb.menu()
    labels = []
    for _ in range(12):
        labels.append(vb.oled()[0][1])
        vb.menu()
    assert "> Red: person" in labels and "> Green: greedy" in labels
    assert not any("Seat" in label or "P1" in label for label in labels)


def test_the_oks_that_confirm_a_computers_steps_never_pass_the_persons_turn():
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", ["greedy", "human"], seed=5, actions=["roll 6", "roll 1"])
    assert session.animation is not None and session.animation.title == "Red"
    step = session.animation.step
    wrong = next(c.space for c in session.layout.cells if c.space not in step.presses())
    vb.press_space(wrong)                      # not the step's cell: says which one is
    assert vb.oled()[0][-1] == f"press {step.presses()[0]} or OK"
    while session.animation is not None:       # the computer's move, step by step
        vb.ok()
    assert session.state.current_player() == 1 and session.interaction is not None
    assert "pass" in [o.label for o in session.interaction.options]
    played = list(session.record.actions)
    for _ in range(4):                         # the same OK, pressed on and on
        vb.ok()
    assert session.record.actions == played and session.state.current_player() == 1
    assert vb.oled()[0][1] == "> pass"
    vb.control("OK", hold=1.2)                 # the pass's own gesture: OK held
    assert session.record.actions[len(played)] == "pass"


def test_a_hint_chases_in_a_colour_no_seat_uses_and_refusals_say_why():
    for name in ("knockabout", "knockoff", "ko", "dodgeball"):
        ui = get_ui(get_game(name))
        used = {ui.color(i) for i in range(4)} | {getattr(ui, "TARGET", None),
                                                   getattr(ui, "BALL", None)}
        assert ui.HINT not in used, name
    vb = VirtualBoard("knockabout")
    session = vb.start("knockabout", seed=2, options={"first": "white"})
    session.show_hint()
    session.mark_changed()
    vb.run(0.1)
    assert session.hint and all(vb.cell(c) == (255, 0, 255, "chase") for c in session.hint)
    piece = session.ui.view(session.state).pieces[session.layout.space_of(session.hint[0])]
    assert piece.owner == 0                    # a white die: the hint is seen on it
    vb.press_space("G7")                       # nothing there
    assert vb.oled()[0][-1] == "G7: no piece" and vb.sounds[-1] == "error"


def test_a_game_played_on_the_board_shows_as_a_score_sheet(tmp_path):
    vb = VirtualBoard("knockoff")
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        vb.session = Session(vb.board, Setup("knockoff", {}, ["human", "greedy"], seed=8),
                             clock=vb.clock, saver=RecordSaver(store))
        vb.run(1.0)
        player = AutoPlayer(vb, seed=1)
        for _ in range(30):
            player.act()
        record = vb.session.record
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", "1", "--db", str(db)]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "game 1: Knock-Off  Red, Green (greedy)"
    sheet = [line.split()[1:] for line in lines[3:]]
    assert len(sheet) == len(record.actions)
    who = [s[0] for s in sheet]
    assert who[0] == "roll-off" and "Red" in who and "Green" in who and "dice" in who
    for (name, *text), actor in zip(sheet, record.actors):
        assert name == {CHANCE: name, 0: "Red", 1: "Green"}[actor]


def menu_go(vb, prefix):
    for _ in range(30):
        if (vb.menu_entry() or "").startswith(prefix):
            return
        vb.menu()
    raise AssertionError(f"no menu entry {prefix!r}")


def test_a_game_ended_by_agreement_is_scored_by_the_points_on_the_board(tmp_path):
    vb = VirtualBoard("ko")
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        vb.session = session = Session(
            vb.board, Setup("ko", {"players": 2, "quick_start": 1}, ["human", "greedy"],
                            seed=3), clock=vb.clock, saver=RecordSaver(store))
        vb.run(1.0)
        player = AutoPlayer(vb, seed=2, aggressive=True)
        while len(session.record.actions) < 12:
            player.act()
        while session.animation is not None:
            vb.ok()
        points = session.state.points()
        played = list(session.record.actions)
        vb.menu()
        menu_go(vb, "End game")
        vb.ok()
        assert vb.oled()[0][1] == "> End: sure? OK"   # asked once more
        vb.menu()                                      # moving on forgets it
        menu_go(vb, "End game")
        vb.ok()
        vb.ok()
        assert session.mode == "over" and session.record.actions == played
        names = [session.ui.seat_name(seat) for seat in (0, 1)]
        assert names == ["Red+Blue", "Green+Yellow"]
        verdict = ("a draw" if points[0] == points[1]
                   else f"{names[points.index(max(points))]} wins")
        assert vb.oled()[0][:2] == ["By agreement:", verdict[:16]]
        result = (f"by agreement: {verdict} ({names[0]} {points[0]}, {names[1]} {points[1]} "
                  "points in play)")
        assert session.record.status == "finished" and session.record.result == result
        vb.back(hold=1.2)                              # nothing is taken back now
        assert session.record.actions == played and "game ended" in vb.text()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", "1", "--db", str(db)]) == 0
    assert f"status finished  result {result}" in out.getvalue()
