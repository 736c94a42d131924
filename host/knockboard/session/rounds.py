"""A K.O. match on the board: rounds played one after another, their points added
(`games/ko/match.py`, docs/rules/ko.md "A match of several rounds", ruling KO-4).

When a round ends and rounds are left, the board shows the round's points, then (OK) the
running totals, and waits for OK before the next round; the players then take the pieces
off (one step each, as after an edit) and the next round starts afresh, set-up and roll-off
included.  The record gets a "round <n>" entry there (store/entries.py), so a match is one
record, resumed in the round it was left in.  After the last round the OLED shows the match
result; a round once over is kept (no undo back into it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..store.records import with_round
from .animation import Animation
from .modes import Mode, Over, Showing, Waiting
from .types import BACK_KEY, MENU_KEY, MESSAGE_S, OK_KEY, EditBoard, clip

if TYPE_CHECKING:
    from ..games.base import State
    from .adapters.base import GameUI
    from .session import Session
    from .types import Step, View

BETWEEN_ROUNDS = "round over"     # Session.mode between two rounds of a match


# what the terminal says at the end of a game (the OLED says "MENU=new or quit")
HOW_TO_LEAVE = ("MENU on the board: New game, or Quit to end this program (Ctrl-C here, or "
                "closing the simulator's window, ends it too)")


def ended(session: Session) -> Mode:
    """The mode once the game's state is over: a single game's Over, or in a match the
    round's end (rounds left) or the match's."""
    s, match = session, session.match
    if match is None:
        s.term.log(f"Game over: {s.ui.result(s.state)}. {HOW_TO_LEAVE}")
        return Over(s)
    after = with_round(match, s.state)
    if not after.is_over():
        s.term.log(f"Round {after.rounds_played} of {after.rounds} over: {s.state.result()}; "
                   f"match so far: {after.standing()}")
        return RoundOver(s, after)
    s.term.log(f"Match over after {after.rounds} rounds: {after.result()}. {HOW_TO_LEAVE}")
    return MatchOver(s, after)


def next_round(session: Session) -> None:
    """The round shown as over is added to the match; the next one starts afresh."""
    s, match = session, session.match
    before = s.state
    number = match.rounds_played + 2
    s.new_round(number)
    s.term.log(f"Round {number} of {match.rounds}: take the pieces off; a new set-up")
    steps = round_steps(s.ui, before, s.state)
    s.switch_to(Showing(s, Animation(steps, f"round {number}")) if steps else Waiting(s))
    s.advance()


def round_steps(ui: GameUI, before: State, after: State) -> list[Step]:
    """The pieces of the round that ended off the board (or moved to where the next round
    starts them, with a quick start)."""
    return ui.edit_piece_steps(EditBoard(ui.view(before).pieces, 0),
                               EditBoard(ui.view(after).pieces, 0))


def undo_refusal(session: Session) -> str:
    """Why nothing can be undone: nothing done yet, or the round before is kept."""
    played = 0 if session.match is None else session.match.rounds_played
    return f"round {played} is kept" if played else "nothing to undo"


def leaders(session: Session, match: Any, short: bool = True) -> str:
    """Who leads the match's totals: "Red wins", "Red+Blue wins", "shared 1st"; `short`:
    a seat's letters ("RB wins") where its name would not fit an OLED line after "Match: "."""
    totals = match.totals()
    best = [seat for seat, points in enumerate(totals) if points == max(totals)]
    if len(best) > 1:
        return "shared 1st"
    name = session.ui.seat_name(best[0])
    return f"{match.game.seat_tokens[best[0]] if short and len(name) > 6 else name} wins"


def agreed_standing(session: Session) -> tuple[str, str]:
    """A match the players end by agreement: (who leads, the totals in words) with the
    round being played counted as it stands, or, ended between rounds, the rounds over."""
    over = session.state.is_terminal()
    match = session.match.copy()
    played: Any = session.state       # a K.O. state: the round's points as it stands
    match.record_points(played.points())
    names = [session.ui.seat_name(seat) for seat in range(len(match.totals()))]
    table = ", ".join(f"{n} {p}" for n, p in zip(names, match.totals()))
    return (leaders(session, match, short=False),
            f"{table} points after {match.rounds_played} of {match.rounds} rounds"
            + ("" if over else ", the last as it stood"))


def standing(session: Session) -> Any:
    """The match with every round over counted: between rounds, the one just over too
    (`session.match` takes it in only when the next round starts)."""
    match = session.match
    return with_round(match, session.state) if session.between_rounds() else match


def total_label(session: Session) -> str:
    """The menu's entry for the running totals: "Total: rd 2/3" during round 2 (of the
    round before it), "Total: 1 of 3" between rounds 1 and 2 (of round 1)."""
    match = standing(session)
    if session.between_rounds():
        return f"Total: {match.rounds_played} of {match.rounds}"
    return f"Total: rd {match.rounds_played + 1}/{match.rounds}"


def show_totals(session: Session) -> None:
    """The menu's "Total" entry: the totals of the rounds over so far on the OLED's last
    line, for a few seconds; the menu stays open."""
    match = standing(session)
    session.say(match.tally(match.totals()), 3 * MESSAGE_S)


class RoundOver(Mode):
    """A round of a match is over and rounds are left: its points, OK, the totals, OK, the
    next round.  BACK shows the round's points again; BACK held undoes its last move."""
    name = BETWEEN_ROUNDS
    refusal = "round over: OK"

    def __init__(self, session: Session, after: Any) -> None:
        super().__init__(session)
        self.after = after            # the match with this round added
        self.totals_shown = False

    def control(self, key: int) -> None:
        if key == MENU_KEY:
            self.s.open_menu()
        elif key == BACK_KEY:
            self.totals_shown = False
        elif key == OK_KEY and not self.totals_shown:
            self.totals_shown = True
            self.s.sound("click")
        elif key == OK_KEY:
            self.s.sound("click")
            next_round(self.s)

    def lines(self, view: View) -> list[str]:
        m = self.after
        if not self.totals_shown:
            return [f"Round {m.rounds_played} of {m.rounds}", clip(m.tally(m.round_points[-1])),
                    "OK=total"]
        return [clip(f"Total after {m.rounds_played}/{m.rounds}"), clip(m.tally(m.totals())),
                f"OK=round {m.rounds_played + 1}"]


class MatchOver(Over):
    """The last round is over: the match's winner and totals."""

    def __init__(self, session: Session, after: Any) -> None:
        super().__init__(session)
        self.after = after

    def lines(self, view: View) -> list[str]:
        m = self.after
        return [clip("Match: " + leaders(self.s, m)), clip(m.tally(m.totals())),
                self.next_line()]
