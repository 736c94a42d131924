"""Saved games a family manages (issue 47, findings 6 and 12): one program per game, with
two real programs and a kill -9; `knockboard delete` and `abandon`; players' names from
`play --names` to the record, `show`, `history` and the session's log; `knockboard rules`;
the shell completing saved games' ids; `history` naming games by their titles."""

import io
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from knockboard.cli import main
from knockboard.resources import rules_page
from knockboard.session import RecordSaver, Session, Setup
from knockboard.sim import VirtualBoard
from knockboard.store import GameStore
from knockboard.store.game_lock import GameLock

import bash_completion

ROOT = Path(__file__).resolve().parents[1]
WAIT_S = 30.0          # the longest wait for another program, on a loaded 2-core machine


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def saved_game(db, game="knockabout", names=(), actions=2, status="playing"):
    """A game in `db` as `play` saves it (seats named as the session names them)."""
    setup = Setup(game, {"players": 2} if game in ("ko", "knockoff") else {},
                  ["human", "greedy"], seed=3, names=list(names))
    with GameStore(db) as store:
        vb = VirtualBoard(game)
        saver = RecordSaver(store)
        record = Session(vb.connect(), setup, saver=saver).record
        saver.close()
        gid = saver.game_id
        if status != "playing":
            store.finish(gid, "White wins", status=status)
    return gid, record


def knockboard(*args, db):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "host"),
                                                        os.environ.get("PYTHONPATH", "")])}
    env.pop("KNOCKBOARD_DB", None)
    return subprocess.Popen([sys.executable, "-m", "knockboard.cli", *args, "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)


def headless_sim(board):
    proc = subprocess.Popen([sys.executable, "-m", "knockboard.cli", "sim", "--headless",
                             "--board", board], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "host")},
                            start_new_session=True)
    line = proc.stdout.readline()
    port = re.search(r" on (\S+) \(host", line)
    assert port, line
    return proc, port.group(1)


def wait_line(proc, text):
    """Read `proc`'s stdout until a line holds `text`; the lines read."""
    seen = []
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        seen.append(line)
        if text in line:
            return seen
    raise AssertionError(f"never printed {text!r}: {''.join(seen)[-2000:]}"
                         f"{proc.stderr.read() if proc.poll() is not None else ''}")


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, 9)
    proc.wait(WAIT_S)


# ---- finding 6: one program per game ------------------------------------------------------

def test_a_game_open_in_one_program_is_refused_in_another_and_taken_over_after_kill_9(
        tmp_path):
    db = tmp_path / "games.sqlite3"
    gid, record = saved_game(db)
    sim, port = headless_sim("knockabout")
    first = second = None
    try:
        first = knockboard("resume", str(gid), "--port", port, db=db)
        wait_line(first, f"Resumed game {gid}")
        # the second program: refused in one line naming the first one's pid, nothing done
        for argv in (["resume", str(gid), "--port", port], ["abandon", str(gid)],
                     ["delete", str(gid), "--yes"]):
            other = knockboard(*argv, db=db)
            out, err = other.communicate(timeout=WAIT_S)
            assert other.returncode == 2 and out == "", (argv, out, err)
            assert err == (f"knockboard {argv[0]}: game {gid} is open in another program "
                           f"(pid {first.pid}, knockboard resume {gid}): close it there "
                           "first\n"), err
        with GameStore(db) as store:
            assert store.get(gid).status == "playing"
            assert store.length(gid) == len(record.actions)
        # killed: its lock file stays, its lock does not; the next program takes over
        stop(first)
        assert Path(f"{db}.game-{gid}.lock").exists()
        second = knockboard("resume", str(gid), "--port", port, db=db)
        wait_line(second, f"Resumed game {gid}")
        assert Path(f"{db}.game-{gid}.lock").read_text().split()[0] == str(second.pid)
    finally:
        for proc in (first, second, sim):
            if proc is not None:
                stop(proc)


def other_program_takes(db, game_id):
    """Whether another program gets game `game_id`'s lock: None if it does, else what it
    was told."""
    code = ("import sys; from knockboard.store.game_lock import GameLock, GameInUse\n"
            "try:\n    GameLock(sys.argv[1], int(sys.argv[2])).acquire()\n"
            "except GameInUse as err:\n    print(err)")
    done = subprocess.run([sys.executable, "-c", code, str(db), str(game_id)],
                          capture_output=True, text=True, timeout=WAIT_S,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "host")})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() or None


def test_the_lock_is_the_programs_and_the_kernels_not_the_files(tmp_path):
    db = tmp_path / "g.sqlite3"
    with GameLock(db, 4):
        said = other_program_takes(db, 4)
        assert said.startswith(f"game 4 is open in another program (pid {os.getpid()}")
        assert other_program_takes(db, 5) is None           # another game is free
        with GameLock(db, 4) as again:                      # this program's own: shared
            assert again.held
        assert other_program_takes(db, 4) is not None       # still held by the first
    assert other_program_takes(db, 4) is None               # let go: free again


def test_a_new_game_from_the_menu_moves_the_lock_to_it(tmp_path):
    db = tmp_path / "g.sqlite3"
    vb = VirtualBoard("knockabout")
    with GameStore(db) as store:
        saver = RecordSaver(store)
        session = Session(vb.connect(), Setup("knockabout", {}, ["human", "greedy"], seed=1),
                          saver=saver)
        first = saver.game_id
        assert other_program_takes(db, first) is not None
        session.start(session.next_setup)
        assert saver.game_id != first
        assert other_program_takes(db, first) is None        # the game before is let go
        assert other_program_takes(db, saver.game_id) is not None
        saver.close()


# ---- finding 12: delete, abandon ---------------------------------------------------------

def test_delete_needs_yes_where_nothing_can_be_asked_and_then_removes_the_game(tmp_path,
                                                                                capsys):
    db = tmp_path / "g.sqlite3"
    gid, _ = saved_game(db)
    other, _ = saved_game(db, "ko")
    before = db.read_bytes()
    status, out, err = run(capsys, ["delete", str(gid), "--db", str(db)])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"knockboard delete: game {gid} (KNOCKabout, started ")
    assert "add --yes to delete it; nothing was deleted" in err
    assert db.read_bytes() == before
    status, out, err = run(capsys, ["delete", str(gid), "--yes", "--db", str(db)])
    assert (status, err) == (0, "") and out.startswith(f"deleted game {gid} (KNOCKabout")
    with GameStore(db) as store:
        assert [row[0] for row in store.summaries()] == [other]
        assert store.length(gid) == 0
    assert not Path(f"{db}.game-{gid}.lock").exists()
    status, out, err = run(capsys, ["delete", str(gid), "--yes", "--db", str(db)])
    assert (status, out) == (2, "") and err == f"knockboard delete: no game {gid} in {db}\n"


def test_delete_at_a_terminal_asks_and_keeps_the_game_unless_told_yes(tmp_path):
    from argparse import Namespace

    from knockboard.cli.records import cmd_delete
    db = tmp_path / "g.sqlite3"
    gid, _ = saved_game(db)
    asked = []
    out = io.StringIO()
    args = Namespace(db=str(db), id=gid, yes=False)
    assert cmd_delete(args, out, ask=lambda q: asked.append(q) or "n") == 0
    assert asked[0].startswith(f"Delete game {gid} (KNOCKabout, started ")
    assert asked[0].endswith("for good? [y/N] ") and out.getvalue() == f"game {gid} kept\n"
    with GameStore(db) as store:
        assert store.get(gid).id == gid
    assert cmd_delete(args, out, ask=lambda q: "y") == 0
    with GameStore(db) as store:
        assert store.summaries() == []


def test_abandon_keeps_the_game_but_resume_no_longer_picks_it(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    gid, played = saved_game(db)
    n = len(played.actions)
    status, out, err = run(capsys, ["abandon", str(gid), "--db", str(db)])
    assert (status, err) == (0, "") and out.startswith(f"abandoned game {gid} (KNOCKabout, "
                                                       f"{n} actions)")
    with GameStore(db) as store:
        record = store.get(gid)
        assert (record.status, len(record.actions)) == ("abandoned", n)
        assert store.last_unfinished() is None
    before = db.read_bytes()
    status, out, err = run(capsys, ["abandon", str(gid), "--db", str(db)])
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "only an unfinished game can be abandoned" in err
    status, out, err = run(capsys, ["resume", "--db", str(db), "--port", "/dev/null"])
    assert status == 2 and "no unfinished game" in err
    status, out, err = run(capsys, ["abandon", "77", "--db", str(db)])
    assert (status, out, err) == (2, "", f"knockboard abandon: no game 77 in {db}\n")
    assert db.read_bytes() == before
    assert run(capsys, ["show", str(gid), "--db", str(db)])[0] == 0


# ---- finding 12: names -------------------------------------------------------------------

def test_names_are_saved_and_shown_in_show_history_and_the_log(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    with GameStore(db) as store:
        saver = RecordSaver(store)
        Session(vb.connect(), Setup("knockabout", {}, ["human", "greedy"], seed=2,
                                    names=["Ann", "Ben"]), saver=saver, out=out)
        saver.close()
    assert "New game: KNOCKabout, seats Ann (White)=human, Ben (Black)=greedy" \
        in out.getvalue()
    with GameStore(db) as store:
        assert [p["name"] for p in store.get(1).players] == ["Ann", "Ben"]
    status, shown, _ = run(capsys, ["show", "1", "--db", str(db)])
    assert shown.splitlines()[0] == "game 1: KNOCKabout  Ann (White), Ben (Black, greedy)"
    status, listed, _ = run(capsys, ["history", "--db", str(db)])
    assert "Ann, Ben (greedy)" in listed.splitlines()[1]


@pytest.mark.parametrize("names, said", [
    ("Ann,Ben,Cy", "--names Ann,Ben,Cy: 3 names for 2 players"),
    (",", "',': no name in it"),
    ("Ann,Bartholomew-the-great", "'Bartholomew-the-great': a name is at most 12"),
    ("Ann,Christopher-J", "'Christopher-J': a name is at most 12 characters"),
    ("Ann,B\tb", "the board's screen cannot show '\\t' in a name"),
    ("Zoë,Ben", "'Zoë': the board's screen cannot show 'ë' in a name"),
    ("Ann,ann", "'ann': two players named alike (seats 1 and 2)"),
    ("Black,Ben", "'Black': that is the Black seat's colour; give another name"),
])
def test_bad_names_are_refused_in_one_line(names, said, tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    status, out, err = run(capsys, ["play", "knockabout", "--names", names, "--port",
                                    "/dev/null", "--db", str(db)])
    assert (status, out) == (2, "") and err.count("\n") == 1 and said in err, err
    assert not db.exists()


# ---- finding 12: rules, completion; finding 13: titles -----------------------------------

@pytest.mark.parametrize("game, title", [("knockabout", "KNOCKabout"), ("dodgeball",
                                         "Dodgeball"), ("ko", "K.O."), ("knockoff",
                                                                          "Knock-Off")])
def test_rules_prints_the_pages_at_the_table_section_in_one_screen(game, title, capsys):
    status, out, err = run(capsys, ["rules", title])
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{title} in short (all its rules and rulings: docs/rules/{game}.md)"
    assert len(lines) <= 24 and max(map(len, lines)) <= 100
    assert lines[2].startswith("Goal. ") and any(x.startswith("A turn.") for x in lines)
    page = rules_page(game)
    assert f"## At the table (`knockboard rules {game}`)" in page
    for line in lines[2:]:            # word for word from the page, Markdown marks aside
        assert line in re.sub(r"\*\*|`", "", page), line


def test_the_bash_completion_completes_saved_game_ids(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    ids = [saved_game(db)[0] for _ in range(3)]
    script = tmp_path / "knockboard.bash"
    script.write_text(run(capsys, ["completion", "bash"])[1])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "knockboard").write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(ROOT / 'host'))} exec "
        f"{shlex.quote(sys.executable)} -m knockboard.cli \"$@\"\n")
    (bin_dir / "knockboard").chmod(0o755)

    env = dict(os.environ, KNOCKBOARD_DB=str(db),
               PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")

    def complete(line):
        return sorted(bash_completion.complete(script, line, env))
    assert complete("knockboard show ") == sorted(map(str, ids))
    assert complete("knockboard resume ") == sorted(map(str, ids))
    assert complete("knockboard delete 3") == ["3"]


def test_history_names_games_by_their_titles(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    saved_game(db, "ko")
    saved_game(db, "knockoff")
    status, out, _ = run(capsys, ["history", "--db", str(db)])
    games = [line.split("  ")[2].strip() for line in out.splitlines()[1:]]
    assert sorted(games) == ["K.O.", "Knock-Off"], out
    status, out, _ = run(capsys, ["history", "--ids", "--db", str(db)])
    assert out == "2\n1\n"
