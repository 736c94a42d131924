"""A K.O. match of several rounds on the board: the rounds one after another, each round's
points and the running totals on the OLED, the match saved as one record, resumed in the
round it was left in, shown, exported and imported back; bad rounds refused."""

import json
import random

import pytest

from board_driver import BACK, MENU, VirtualBoard
from autoplay import AutoPlayer

from knockboard import cli
from knockboard.cli import play
from knockboard.games import get_game, sample_chance
from knockboard.games.ko.match import KOMatch
from knockboard.session import RecordSaver, Session, Setup
from knockboard.gameview.export import matches, positions
from knockboard.session.adapters import get_ui
from knockboard.session.replay import Replay
from knockboard.store import GameRecord, GameStore

# quiet_rounds=1 (KO-3): a round ends after one full round of turns without a knock-out,
# so a round lasts a few dozen presses
OPTIONS = {"players": 2, "quiet_rounds": 1}
SEATS = ["human", "greedy"]


def start(vb, saver, actions=(), resumed=False):
    vb.session = Session(vb.board, Setup("ko", dict(OPTIONS), list(SEATS), seed=5, rounds=2),
                         clock=vb.clock, saver=saver, actions=actions, resumed=resumed)
    vb.run(1.0)
    return vb.session


def play_until(player, mode, limit=3000):
    for _ in range(limit):
        if player.s.mode == mode:
            return
        player.act()
    raise AssertionError(f"the session never reached {mode!r} (it is in {player.s.mode!r})")


def round_points(state):
    return list(state.points())


def test_a_two_round_match_on_the_board_saved_resumed_and_shown(tmp_path, capsys,
                                                                monkeypatch):
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        vb = VirtualBoard("ko")
        session = start(vb, RecordSaver(store))
        assert session.match.rounds == 2 and session.record.rounds == 2
        player = AutoPlayer(vb, 2)
        play_until(player, "round over")

        # round 1 is over: its points, OK, the running totals, OK, the next round
        first = round_points(session.state)
        tally = f"RB{first[0]} GY{first[1]}"
        assert vb.oled()[0] == ["Round 1 of 2", tally, "OK=total"]
        assert not vb.lit("pulse") and not vb.lit("blink")   # nothing to press but OK
        assert store.get(1).status == "playing"
        vb.ok()
        assert vb.oled()[0] == ["Total after 1/2", tally, "OK=round 2"]
        vb.control(BACK)
        assert vb.oled()[0][0] == "Round 1 of 2"
        vb.ok()
        vb.ok()
        # the next round: first the pieces of round 1 come off, one step each
        assert session.record.actions[-1] == "round 2" and session.match.round_points == [
            tuple(first)]
        lines = vb.oled()[0]
        assert lines[1] == "round 2" and lines[0].endswith(" off")
        assert lines[2].split()[-1].startswith("1/")
        piece, space, _ = lines[0].split(" ")
        assert vb.cell(vb.space(space)) == (255, 0, 0, "blink")   # take it off here
        assert store.get(1).actions == session.record.actions
        # round 1 is kept: BACK held at the start of round 2 undoes nothing
        length = len(session.record.actions)
        vb.back(hold=1.2)
        assert vb.oled()[0][2] == "round 1 is kept" and len(session.record.actions) == length
        # the running totals during a round: the menu's "Total" entry
        vb.menu()
        for _ in range(10):
            if vb.oled()[0][1] == "> Total: rd 2/2":
                break
            vb.control(MENU)
        vb.ok()
        assert vb.oled()[0] == ["Menu", "> Total: rd 2/2", tally]
        vb.control(BACK)

        # play into round 2, past its set-up and roll-off, then stop: the host is gone
        while session.state.view().phase != "turn":
            player.act()
        for _ in range(6):
            player.act()
        assert session.mode != "over"
        stopped = list(session.record.actions)

    # `knockboard resume` sets the match up again from the record: in round 2 of 2
    made = []

    def run_on_board(args, game, seed, make_runner, out, view=None):
        made.append(make_runner(VirtualBoard("ko").board))
        return 0
    monkeypatch.setattr(play, "_run_on_board", run_on_board)
    assert cli.main(["resume", "--db", str(db)]) == 0
    assert "resuming game 1 (K.O.)" in capsys.readouterr().out
    assert made[0].setup.rounds == 2 and made[0].match.round_points == [tuple(first)]
    assert made[0].record.actions == stopped

    # resumed from the store: in round 2, with round 1's points
    with GameStore(db) as store:
        saved = store.get(1)
        assert saved.actions == stopped and saved.rounds == 2
        vb = VirtualBoard("ko")
        session = start(vb, RecordSaver(store, 1), actions=saved.actions, resumed=True)
        assert session.mode == "edit"           # where the pieces stand, then OK
        assert session.state.to_position() == saved.replay().to_position()
        assert session.match.round_points == [tuple(first)]
        vb.ok()
        player = AutoPlayer(vb, 3)
        play_until(player, "over")
        second = round_points(session.state)
        totals = [a + b for a, b in zip(first, second)]
        assert vb.oled()[0][1:] == [f"RB{totals[0]} GY{totals[1]}", "MENU=new or quit"]
        assert vb.oled()[0][0].startswith("Match: ")
        match = KOMatch(get_game("ko", **OPTIONS), 2)
        match.record_points(first)
        match.record_points(second)
        stored = store.get(1)
        assert stored.status == "finished" and stored.result == match.result()
        assert stored.actions == session.record.actions

        # stepped through on the board, across the round's start and back
        replay = Replay(vb.board, stored)
        start_of_round = stored.actions.index("round 2")
        for _ in range(start_of_round + 2):
            replay.forward()
        assert replay.shown == stored.actions[start_of_round + 1]
        replay.back()
        replay.back()
        assert replay.state.is_terminal() and replay.shown == stored.actions[start_of_round - 1]

    # show: the rounds, their points and the totals; the sheet marks the round's start
    assert cli.main(["show", "1", "--db", str(db)]) == 0
    shown = capsys.readouterr().out.splitlines()
    names = [p["name"] for p in stored.players]
    assert shown[2:6] == [
        "match of 2 rounds, the points of each:",
        f"  round 1: {names[0]} {first[0]}, {names[1]} {first[1]}",
        f"  round 2: {names[0]} {second[0]}, {names[1]} {second[1]}",
        f"  total:   {names[0]} {totals[0]}, {names[1]} {totals[1]}"]
    assert f"{start_of_round + 1:4}. round    2" in shown
    assert cli.main(["history", "--db", str(db)]) == 0
    assert "K.O. (2 rounds)" in capsys.readouterr().out
    # the game view's text beside the board names the round (here in the SVG export)
    assert cli.main(["export", "1", "--db", str(db), "--svg", str(tmp_path / "svg")]) == 0
    capsys.readouterr()
    assert "match: round 1 of 2" in (tmp_path / "svg" / "000.svg").read_text()
    last = sorted((tmp_path / "svg").glob("*.svg"))[-1].read_text()
    assert "match: round 2 of 2" in last
    # and, once a round is over, the match's totals (the final frame: both rounds)
    assert "match total" not in (tmp_path / "svg" / "000.svg").read_text()
    ui = get_ui(stored.replay().game)
    assert (f"match total: {ui.seat_name(0)} {totals[0]}, {ui.seat_name(1)} {totals[1]}"
            in last)
    # the same match at each step for the replay window: none over, then round 1, then both
    at = matches(stored, positions(stored))
    assert at[0].round_points == [] and at[start_of_round + 1].round_points == [tuple(first)]
    assert at[-1].totals() == list(totals)

    # export and import: one record with its rounds, the same after the round trip
    exported = tmp_path / "match.json"
    assert cli.main(["export", "1", "--db", str(db), "-o", str(exported)]) == 0
    data = json.loads(exported.read_text())
    assert data["version"] == 3 and data["rounds"] == 2
    assert data["round_points"] == [first, second]
    other = tmp_path / "other.sqlite3"
    assert cli.main(["import", str(exported), "--db", str(other)]) == 0
    assert "as game 1" in capsys.readouterr().out
    with GameStore(other) as copy:
        assert copy.get(1).to_dict() == stored.to_dict()
    assert cli.main(["import", str(exported), "--db", str(other)]) == 0
    assert "is game 1 already" in capsys.readouterr().out
    assert cli.main(["show", "1", "--db", str(other)]) == 0
    assert capsys.readouterr().out.splitlines()[2:6] == shown[2:6]


def test_the_menu_sets_the_rounds_of_the_next_game():
    vb = VirtualBoard("ko")
    session = vb.start("ko", seats=["greedy", "greedy"], options=dict(OPTIONS), seed=1)
    assert session.match is None and session.record.rounds is None
    vb.menu()
    for _ in range(20):
        if vb.oled()[0][1].startswith("> Rounds"):
            break
        vb.control(MENU)
    assert vb.oled()[0][1] == "> Rounds: 1"
    vb.ok()
    assert vb.oled()[0][1] == "> Rounds: 2"
    for _ in range(20):
        if vb.oled()[0][1] == "> New game":
            break
        vb.control(MENU)
    vb.ok()
    assert session.match.rounds == 2 and session.record.rounds == 2
    assert session.mode != "menu"

    # ended by agreement during round 1: the match ends, the round counted as it stands
    player = AutoPlayer(vb, 1)
    while session.state.view().phase != "turn":
        player.act()
    vb.menu()
    for _ in range(20):
        if (vb.menu_entry() or "").startswith("End game"):
            break
        vb.control(MENU)
    vb.ok()
    vb.ok()
    points = session.state.points()
    assert vb.oled()[0][0] == "By agreement:"
    assert session.record.status == "finished" and session.record.result.endswith(
        f"(Red+Blue {points[0]}, Green+Yellow {points[1]} points after 1 of 2 rounds, the "
        "last as it stood)")
    assert GameRecord.from_json(session.record.to_json()).result == session.record.result


def test_a_match_ended_by_agreement_between_rounds_counts_the_rounds_over(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        vb = VirtualBoard("ko")
        session = start(vb, RecordSaver(store))
        play_until(AutoPlayer(vb, 2), "round over")
        first = round_points(session.state)
        length = len(session.record.actions)
        vb.menu()
        labels = []
        for _ in range(30):
            labels.append(vb.oled()[0][1])
            if labels[-1] == "> Total: 1 of 2":
                break
            vb.control(MENU)
        # the totals with the round just over (the match takes it in when the next starts)
        vb.ok()
        assert vb.oled()[0] == ["Menu", "> Total: 1 of 2", f"RB{first[0]} GY{first[1]}"]
        for _ in range(30):
            labels.append(vb.menu_entry())
            if labels[-1] == "End match":
                break
            vb.control(MENU)
        assert not any(label.startswith("End game") for label in labels)
        vb.ok()
        assert vb.oled()[0][1] == "> End: sure? OK" and session.record.status == "playing"
        vb.ok()
        assert vb.oled()[0][0] == "By agreement:"
        # round 1's points, not "as it stood": it was over; no round 2 was begun
        assert session.record.result.endswith(
            f"(Red+Blue {first[0]}, Green+Yellow {first[1]} points after 1 of 2 rounds)")
        assert len(session.record.actions) == length and store.get(1).status == "finished"
    assert cli.main(["show", "1", "--db", str(db)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert "  round 2: not played: ended by agreement" in shown


@pytest.mark.parametrize("argv,message", [
    (["play", "ko", "--rounds", "0"], "'0' is not a number of rounds (a whole number from 1 "
                                      "to 99)"),
    (["play", "ko", "--rounds", "-1"], "'-1' is not a number of rounds"),
    (["play", "ko", "--rounds", "x"], "'x' is not a number of rounds"),
    (["play", "knockabout", "--rounds", "3"], "--rounds 3: KNOCKabout is played one game at "
                                              "a time"),
    (["play", "ko", "--rounds", "3", "--remote", "mqtt://127.0.0.1/room", "--seat", "1"],
     "--rounds 3: a match is played at one board"),
])
def test_bad_rounds_exit_2_with_one_line_and_save_nothing(tmp_path, capsys, argv, message):
    db = tmp_path / "g.sqlite3"
    assert cli.main(argv + ["--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not db.exists()


@pytest.fixture(scope="module")
def match_json():
    """A 2-round match played to its end by random moves on the engine, as exported."""
    rng = random.Random(2)
    record = GameRecord.seated("ko", dict(OPTIONS), ["random", "random"], 2, rounds=2)
    state = record.initial_state()
    for number in (1, 2):
        if number > 1:
            record.push_round(number)
            state = state.game.new_initial_state()
        while not state.is_terminal():
            action = sample_chance(state, rng) if state.is_chance_node() else \
                rng.choice(state.legal_actions())
            record.push(state, action)
            state.apply(action)
    _, match = record.replay_match()
    assert match.is_over()
    record.status, record.result = "finished", match.result()
    return record.to_dict()


def broken(data, change):
    data = json.loads(json.dumps(data))
    change(data)
    return data


def renumber(data, number):
    data["actions"][data["actions"].index("round 2")] = f"round {number}"


@pytest.mark.parametrize("change,message", [
    (lambda d: renumber(d, 3), "round 2 is missing: round 3 follows round 1"),
    (lambda d: d["actions"].remove("round 2"), "round 1 is over here: the entry 'round 2' is "
                                               "missing"),
    (lambda d: d.update(rounds=3), "round 3 is missing or unfinished"),
    (lambda d: d.update(rounds=0), "field 'rounds' must be a whole number from 2 to 99"),
    (lambda d: d.update(rounds="x"), "field 'rounds' must be a whole number"),
    (lambda d: d.update(version=2), "needs a version 3 record"),
    (lambda d: d.update(round_points=d["round_points"][:1]), "not the recorded"),
    (lambda d: d.update(rounds=None, round_points=None), "a single game has no rounds"),
])
def test_a_broken_match_record_is_refused_in_one_line(tmp_path, capsys, match_json, change,
                                                      message):
    data = match_json
    assert GameRecord.from_json(json.dumps(data)).to_dict() == data     # it reads as it is
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(broken(data, change)))
    db = tmp_path / "g.sqlite3"
    with GameStore(db):
        pass
    assert cli.main(["import", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    with GameStore(db) as store:
        assert store.summaries() == []
