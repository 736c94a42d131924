"""The board's review after a game (MENU -> Review once it is over): the OLED steps through
the big moments with OK, the cells of each moment's move lit, BACK leaves; read from the
simulator's OLED and LEDs as a person would see them."""

import io
import time

from board_driver import VirtualBoard
from test_session_menu import menu_go

from knockboard.cli import main
from knockboard.session import Session, Setup
from knockboard.session.saving import RecordSaver
from knockboard.store import GameStore
from knockboard.gameview.sheet import score_sheet
from knockboard.review import Decision, Roll, review_record
from knockboard.review.seeded import bot_game

BLUNDER_RGB, MISTAKE_RGB, LUCK_RGB = (255, 0, 0), (255, 128, 0), (0, 255, 0)


def finished_game():
    record = bot_game("knockoff", ("random", "greedy"), 1, {"players": 2}, iterations=10)
    assert record.status == "finished"
    return record


def over_on_the_board(record):
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seats=["human", "human"], actions=record.actions,
                       options={"players": 2}, seed=1)
    assert session.mode == "over" and session.record.actions == record.actions
    return vb, session


def wait_for_the_review(vb, seconds=120):
    """The review is made in a thread while the board goes on: step the board until the
    OLED no longer says it is reviewing (bounded)."""
    end = time.monotonic() + seconds
    while vb.oled()[0][:1] == ["Reviewing"] and time.monotonic() < end:
        vb.run(0.05)
        time.sleep(0.01)
    assert vb.oled()[0][:1] != ["Reviewing"], "the review did not finish"


def expected_moments(record):
    """(ply, seat, text, colour, the spaces lit) of the mistakes, blunders and lucky rolls,
    from the review's own numbers and the score sheet's spaces (where each move went from
    and to): a roll lights the move that used it."""
    review = review_record(record)
    sheet = score_sheet(record)
    out = []
    for k, step in enumerate(review.steps):
        if isinstance(step, Decision) and step.error >= 0.04:
            colour = BLUNDER_RGB if step.error >= 0.08 else MISTAKE_RGB
            out.append((step.ply, "blunder" if step.error >= 0.08 else "mistake",
                        step.move, colour, sheet[k].spaces))
        elif isinstance(step, Roll) and step.luck[step.favoured] >= 0.05:
            used = sheet[k + 1].spaces if k + 1 < len(sheet) and sheet[k + 1].is_move else ()
            out.append((step.ply, "lucky", step.outcome, LUCK_RGB, used))
    return out


def test_review_steps_through_the_big_moments_with_their_cells_lit():
    record = finished_game()
    vb, session = over_on_the_board(record)
    expected = expected_moments(record)
    assert any(m[1] == "blunder" for m in expected) and any(m[1] == "lucky" for m in expected)
    vb.menu()
    assert menu_go(vb, "Review") == "Review"
    vb.ok()
    assert session.mode == "review"
    wait_for_the_review(vb)
    for number, (ply, kind, text, colour, spaces) in enumerate(expected, 1):
        words = vb.screen_text()
        assert words.startswith(f"{number}/{len(expected)} "), words
        assert text in words and kind in words and words.endswith("OK=next BACK"), words
        lit = {i: vb.cell(i) for i in vb.lit()}
        cells = [vb.space(s) for s in spaces]
        for k, cell in enumerate(cells):
            # the move's last cell steady, the cells before it blinking (a roll's: steady)
            effect = "solid" if colour == LUCK_RGB or k == len(cells) - 1 else "blink"
            assert lit.get(cell) == colour + (effect,), (number, kind, spaces, lit.get(cell))
        if kind != "lucky":
            # elsewhere only the best move (white) and the position's resting pieces
            assert sum(1 for c in lit.values() if c[:3] == colour) == len(set(cells))
        vb.ok()
    assert vb.screen_text().startswith(f"1/{len(expected)} ")     # round again
    vb.back()
    assert session.mode == "over" and vb.oled()[0][0] == "Game over"


def test_review_is_offered_only_once_a_game_is_over_and_back_stops_it():
    record = finished_game()
    vb, session = over_on_the_board(record)
    vb.menu()
    menu_go(vb, "Review")
    vb.ok()
    vb.back()                      # while it is being made: it stops, the board goes back
    assert session.mode == "over"
    # during play, nothing to review: the menu has no such entry
    vb = VirtualBoard("knockoff")
    vb.start("knockoff", seats=["human", "human"], actions=record.actions[:20],
             options={"players": 2}, seed=1)
    vb.menu()
    entries = set()
    for _ in range(30):
        entries.add(vb.menu_entry())
        vb.menu()
    assert "Undo" in entries and "Review" not in entries, (entries, vb.oled())


def test_a_review_that_cannot_be_made_says_so_and_back_leaves():
    """The menu offers Review only for a game it can review; should the record not replay
    all the same (here a damaged copy handed to the mode), the OLED says so and the
    terminal gives the reason on one line."""
    import copy
    import io

    from knockboard.session.review_mode import ReviewMode
    record = finished_game()
    out = io.StringIO()
    vb = VirtualBoard("knockoff")
    session = vb.start("knockoff", seats=["human", "human"], actions=record.actions,
                       options={"players": 2}, seed=1, out=out)
    damaged = copy.deepcopy(session.record)
    damaged.actions[3] = "Z9-Z9"
    mode = ReviewMode(session, session.current, damaged, session.ui)
    session.switch_to(mode)
    end = time.monotonic() + 60
    while not mode.ready and time.monotonic() < end:
        time.sleep(0.01)
    vb.run(0.1)
    assert vb.oled()[0] == ["Review", "not possible", "BACK=leave"]
    said = [line for line in out.getvalue().splitlines() if "review:" in line]
    assert len(said) == 1 and "does not replay: action 4" in said[0], said
    vb.back()
    assert session.mode == "over"


def reviewed_on_the_board_of_a_saved_game(record, db, out):
    """The game played into the store at `db` (the board's saver), then MENU -> Review on the
    board until the review is made."""
    with GameStore(db) as store:
        vb = VirtualBoard("knockoff")
        vb.session = Session(vb.board, Setup("knockoff", {"players": 2}, ["human", "human"],
                                             seed=1),
                             clock=vb.clock, saver=RecordSaver(store), actions=record.actions,
                             out=out)
        vb.run(1.0)
        assert vb.session.mode == "over"
        assert store.get(1).actions == record.actions
        vb.menu()
        assert menu_go(vb, "Review") == "Review"
        vb.ok()
        wait_for_the_review(vb)
        vb.run(0.1)


def test_the_boards_review_of_a_saved_game_is_kept_for_show(tmp_path, capsys):
    """`knockboard show` then prints the review's summary, the one `knockboard review`
    prints; where it cannot be kept, the terminal says why and the board's review goes on."""
    record = finished_game()
    db = tmp_path / "games.sqlite3"
    reviewed_on_the_board_of_a_saved_game(record, db, io.StringIO())
    assert main(["show", "1", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert main(["review", "1", "--db", str(db)]) == 0
    printed = capsys.readouterr().out
    summary = printed[printed.index("review ("):]
    assert summary.count("\n") == 5 and summary in shown     # two players, sum check, bound
    # the reviews' folder blocked by a file of that name
    blocked = tmp_path / "blocked.sqlite3"
    (tmp_path / "blocked.sqlite3.reviews").write_text("not a folder")
    out = io.StringIO()
    reviewed_on_the_board_of_a_saved_game(record, blocked, out)
    said = [line for line in out.getvalue().splitlines() if "not kept" in line]
    assert said == ["  review: not kept for `knockboard show`: File exists"], said
    assert main(["show", "1", "--db", str(blocked)]) == 0
    assert "review (" not in capsys.readouterr().out
