"""Each piece of the session's state has one owner (docs/architecture.md, "The game line"):
the session's fields are written only in session/session.py, the game line's (the engine
state, the record, edits, redo, remembered dice) only in session/game_line.py.  Modes ask
the session to switch mode or say something, and change the game only through the line's
operations.  The writes are found in the source (tests/state_writes.py)."""

import textwrap
from functools import lru_cache
from pathlib import Path

from state_writes import misplaced, writes

ROOT = Path(__file__).resolve().parents[1]

# test instrumentation, not the program: the mashing rig wraps the session's press handler
# to judge each press, and the remote CLI test runs the session made by `knockboard play`
# on the virtual board's simulated clock
INSTRUMENTATION = {("tests/reliability/mash.py", "session._press"),
                   ("tests/remote/test_remote_cli.py", "vb.session.clock")}


@lru_cache(maxsize=1)
def _in_the_project():
    return tuple(misplaced(ROOT))


def test_no_session_or_line_field_is_written_outside_its_owner():
    found = [w for w in _in_the_project() if (w.path, w.text) not in INSTRUMENTATION]
    assert not found, "\n".join(f"{w.path}:{w.line}: writes the {w.owner}'s {w.text} "
                                f"({w.kind})" for w in found)


def test_the_instrumentation_let_through_is_still_there():
    # an entry whose write is gone would let a new write of the same text through unseen
    found = {(w.path, w.text) for w in _in_the_project()}
    assert INSTRUMENTATION <= found, INSTRUMENTATION - found


def _writes(tmp_path, source):
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent(source))
    return [(w.line, w.owner, w.kind, w.text) for w in writes(path, "module.py")]


def test_every_form_of_write_is_found(tmp_path):
    found = _writes(tmp_path, """\
        def command(session):
            session.current = Waiting(session)
            session.message = None

        class Mode:
            def done(self):
                self.s.rolled = []
                s = self.s
                s.hint, other = (), 1
                s.record.dice = "physical"

        def begin(s: "Session", number):
            s.state = s.game.new_initial_state()
            s.redo_units.clear()
            s.record.push_round(number)
            s.state.apply(0)

        def pair(session):
            s, match = session, session.match
            s.bots[0] = "greedy"
            setattr(s, "dirty", True)

        def rig(rig):
            s = rig.session = Session(rig.board, setup)
            s.dirty += 1
            rig.session.pace = 1.0

        def through_the_line(session):
            line = session.line
            line._state = None
            session.line.record.players[0]["name"] = "Ann"
            session.line = None
        """)
    assert found == [
        (2, "session", "assignment", "session.current"),
        (3, "session", "assignment", "session.message"),
        (7, "session", "assignment", "self.s.rolled"),
        (9, "session", "assignment", "s.hint"),
        (10, "line", "assignment", "s.record.dice"),
        (13, "line", "assignment", "s.state"),
        (14, "session", "call", "s.redo_units.clear"),
        (15, "line", "call", "s.record.push_round"),
        (16, "line", "call", "s.state.apply"),
        (20, "session", "assignment", "s.bots[0]"),
        (21, "session", "setattr", "setattr(s, 'dirty', True)"),
        (25, "session", "assignment", "s.dirty"),
        (26, "session", "assignment", "rig.session.pace"),
        (30, "line", "assignment", "line._state"),
        (31, "line", "assignment", "session.line.record.players[0]['name']"),
        (32, "session", "assignment", "session.line"),
    ]


def test_reads_asking_and_other_objects_are_not_writes(tmp_path):
    assert _writes(tmp_path, """\
        def command(session, rig, state):
            session.switch_to(Waiting(session))
            session.say("no move there")
            session.line.play(session.state.parse_action("pass"))
            rig.session = Session(rig.board, setup)
            state.apply(0)
            s = state
            s.current = 1
            self.line = "a line of text"
            text.line.width = 3
        """) == []


def test_a_write_is_let_through_only_in_its_owner_module(tmp_path):
    # inside the Session class `self` is the session: its own fields are session.py's to
    # write, the line's are not; the line's own module writes the line's fields
    session_py = """\
        class Session:
            def dice_changed(self, physical):
                self.current = Waiting(self)
                self.record.dice = "physical"
        """
    line_py = """\
        def reset(session):
            session.line.record.dice = "physical"
        """
    package = tmp_path / "host" / "knockboard" / "session"
    package.mkdir(parents=True)
    for name, source in (("session.py", session_py), ("menu.py", session_py),
                         ("game_line.py", line_py), ("modes.py", line_py)):
        (package / name).write_text(textwrap.dedent(source))
    found = [(w.path.split("/")[-1], w.line, w.owner, w.text) for w in misplaced(tmp_path)]
    assert sorted(found) == [("menu.py", 3, "session", "self.current"),
                             ("menu.py", 4, "line", "self.record.dice"),
                             ("modes.py", 2, "line", "session.line.record.dice"),
                             ("session.py", 4, "line", "self.record.dice")]
