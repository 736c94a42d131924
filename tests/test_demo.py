import io

from knockboard.cli import main
from knockboard.demo import run_demo


def test_demo_plays_a_whole_game_to_a_result():
    out = io.StringIO()
    assert run_demo(seed=11, delay=0, out=out) == 0
    text = out.getvalue()
    assert "wins the roll-off and starts" in text
    last = text.strip().splitlines()[-1]
    assert last.startswith(("White wins after", "Black wins after")), last
    assert text.count("\nMove ") == int(last.split()[-2])


def test_demo_is_reproducible_from_its_seed():
    a, b = io.StringIO(), io.StringIO()
    run_demo(seed=5, delay=0, out=a)
    run_demo(seed=5, delay=0, out=b)
    assert a.getvalue() == b.getvalue()


def test_demo_rejects_a_bad_argument(capsys):
    assert main(["demo", "--delay", "soon"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--delay" in err and len(err.strip().splitlines()) == 1


def test_demo_marks_every_cell_a_move_changed_and_explains_its_drawing():
    out = io.StringIO()
    run_demo(seed=3, delay=0, out=out)
    text = out.getvalue()
    assert "W8:3 is White's d8 showing 3" in text.splitlines()[1]
    boards = text.split("\nMove ")[1:]
    # a move's die leaves one cell and comes to rest in another: at least two marks each,
    # and a knock marks the knocked dice's cells too
    counts = [board.count("*") for board in boards]
    assert min(counts) >= 2 and max(counts) >= 3, counts
