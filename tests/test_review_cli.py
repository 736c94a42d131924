"""`knockboard review ID | --last` and the summary `show` prints, on a real game database."""

import pytest

from knockboard.cli import main
from knockboard.review.seeded import bot_game
from knockboard.store import GameStore


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        finished = bot_game("knockoff", ("random", "greedy"), 1, {"players": 2},
                            iterations=10)
        store.new_game(finished)
        unfinished = bot_game("knockoff", ("greedy", "greedy"), 2, {"players": 2},
                              iterations=10, max_decisions=6)
        store.new_game(unfinished)
    return path


def test_review_prints_each_step_and_the_summary_and_show_then_has_it(capsys, db):
    status, out, err = run(capsys, ["show", "1", "--db", str(db)])
    assert status == 0 and "review (" not in out
    status, out, err = run(capsys, ["review", "1", "--db", str(db)])
    assert status == 0, err
    lines = out.splitlines()
    with GameStore(db) as store:
        record = store.get(1)
    steps = [line for line in lines if line[:4].strip().isdigit()]
    assert len(steps) == len(record.actions)
    assert any(" roll " in line and "luck" in line for line in steps)
    assert any("error" in line for line in steps)
    summary = lines[len(steps):]
    assert summary[0].startswith("review (learnt value, whole turns)")
    assert [line.split()[0] for line in summary[1:3]] == [p["name"] for p in record.players]
    assert "sum check" in summary[3]
    assert "reviewing game 1:" in err and f"{len(record.actions)}/{len(record.actions)}" in err
    status, shown, _ = run(capsys, ["show", "1", "--db", str(db)])
    assert status == 0 and shown.splitlines()[-len(summary):] == summary
    # --last: the newest finished game is game 1 (game 2 is still being played)
    assert run(capsys, ["review", "--last", "--db", str(db)])[1] == out


@pytest.mark.parametrize("argv, message", [
    (["review", "9"], "knockboard review: no game 9 in "),
    (["review", "2"], "knockboard review: game 2: the game is not over"),
    (["review"], "knockboard review: name one game"),
    (["review", "1", "--last"], "knockboard review: name one game"),
    (["review", "1", "--iterations", "0"], "knockboard review: argument --iterations"),
])
def test_bad_input_gets_one_line(capsys, db, argv, message):
    status, out, err = run(capsys, argv + ["--db", str(db)])
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


def test_a_damaged_record_gets_one_line(capsys, tmp_path):
    path = tmp_path / "games.sqlite3"
    record = bot_game("knockoff", ("random", "greedy"), 1, {"players": 2}, iterations=10)
    record.actions[3] = "Z9-Z9"
    with GameStore(path) as store:
        store.new_game(record)
    status, out, err = run(capsys, ["review", "1", "--db", str(path)])
    assert (status, out) == (2, "")
    assert err.startswith("knockboard review: game 1: the record does not replay: action 4")
    assert err.count("\n") == 1


def test_no_finished_game_for_last(capsys, tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        store.new_game(bot_game("knockoff", ("greedy", "greedy"), 2, {"players": 2},
                                iterations=10, max_decisions=6))
    status, out, err = run(capsys, ["review", "--last", "--db", str(path)])
    assert (status, out) == (2, "")
    assert err == "knockboard review: no finished game saved yet: nothing to review\n"


def test_svg_draws_a_line_per_player_and_marks_the_blunders_and_luckiest_rolls(capsys, db,
                                                                               tmp_path):
    import xml.etree.ElementTree as ET
    from knockboard.gameview.chance_chart import BLUNDER_INK, LUCK_INK, LUCKIEST
    chart = tmp_path / "chances.svg"
    status, out, err = run(capsys, ["review", "1", "--svg", str(chart), "--db", str(db)])
    assert status == 0, err
    steps = [line for line in out.splitlines() if line[:4].strip().isdigit()]
    blunders = sum(" blunder " in line for line in steps)
    lucky = sum(line.endswith("  lucky") or line.endswith("  very lucky") for line in steps)
    svg = ET.parse(chart).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    segments = svg.findall(f"{ns}line")
    # a segment a step for each player, plus the three levels 0, 0.5, 1
    assert len(segments) == 2 * len(steps) + 3
    circles = [e for e in svg.findall(f"{ns}ellipse") if e.get("stroke") == BLUNDER_INK]
    diamonds = [e for e in svg.findall(f"{ns}polygon") if e.get("stroke") == LUCK_INK]
    assert blunders and len(circles) == blunders
    assert lucky and len(diamonds) == min(lucky, LUCKIEST)


def test_svg_into_a_missing_folder_is_one_line(capsys, db, tmp_path):
    status, out, err = run(capsys, ["review", "1", "--svg", str(tmp_path / "no" / "c.svg"),
                                    "--db", str(db)])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("knockboard review: argument --svg")


def test_export_svg_adds_the_reviews_chart_once_a_review_was_made(capsys, db, tmp_path):
    pictures = tmp_path / "pictures"
    status, out, _ = run(capsys, ["export", "1", "--svg", str(pictures), "--db", str(db)])
    assert status == 0 and not (pictures / "chances.svg").exists()
    chart = tmp_path / "chances.svg"
    assert run(capsys, ["review", "1", "--svg", str(chart), "--db", str(db)])[0] == 0
    status, out, _ = run(capsys, ["export", "1", "--svg", str(pictures), "--db", str(db)])
    assert status == 0 and "chances.svg" in out
    assert (pictures / "chances.svg").read_text() == chart.read_text()


def test_a_damaged_kept_review_is_as_if_none_was_made(capsys, db, tmp_path):
    """The review kept next to the database is data a person may have edited or cut short:
    `show` then prints the game without its summary, `export --svg` writes no chart, and
    neither fails."""
    import json

    from knockboard.review.saved import review_path
    assert run(capsys, ["review", "1", "--db", str(db)])[0] == 0
    path = review_path(db, 1)
    kept = json.loads(path.read_text())
    assert len(kept["review"]["steps"]) > 0
    summary = kept["summary"]
    for damage in ("{not json", json.dumps(dict(kept, review={"steps": "no"})),
                   json.dumps(dict(kept, review=dict(kept["review"],
                                                     steps=kept["review"]["steps"][:-1])))):
        path.write_text(damage)
        status, out, err = run(capsys, ["show", "1", "--db", str(db)])
        assert status == 0 and err == ""
        if damage.startswith("{not"):
            assert summary[0] not in out
        pictures = tmp_path / "pictures"
        status, out, err = run(capsys, ["export", "1", "--svg", str(pictures), "--db", str(db)])
        assert status == 0 and err == "" and "chances.svg" not in out


def test_a_three_player_knockoff_game_is_reviewed_by_its_learnt_shares(capsys, tmp_path):
    path = tmp_path / "three.sqlite3"
    with GameStore(path) as store:
        store.new_game(bot_game("knockoff", ("greedy", "random", "greedy"), 3,
                                {"players": 3}, iterations=10))
    status, out, err = run(capsys, ["review", "1", "--db", str(path)])
    assert status == 0, err
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("review ("))
    assert header.startswith("review (learnt shares, whole turns)")
    # three players, the sum check and the stated error
    assert len(lines[lines.index(header) + 1:]) == 5
    assert lines[-1] == "  the estimate's stated error: 0.35 a player, on average over games"


@pytest.mark.parametrize("argv,message", [
    (["dodgeball", "--seats", "greedy"], "--seats: 2 bots, each one of random, greedy"),
    (["dodgeball", "--seats", "greedy,nobody"], "--seats: 2 bots"),
    (["knockoff", "--value", "x.json"], "--value: a Dodgeball value's weights file"),
    (["knockoff", "--shares", "x.json"], "--shares: K.O.'s learnt shares' weights file"),
    (["ko", "--players", "4", "--shares", "missing.json"], "--shares missing.json:"),
])
def test_the_slack_benchmark_refuses_bad_arguments_in_one_line(capsys, argv, message):
    """`benchmarks/review_slack.py`: refused before any game is played."""
    from benchmarks import review_slack
    with pytest.raises(SystemExit) as stop:
        review_slack.main(argv)
    err = capsys.readouterr().err.splitlines()
    assert stop.value.code == 2 and message in err[-1], err
