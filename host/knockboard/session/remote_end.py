"""Ending a remote game from the board (the remote layer's side is `remote/ending.py`): the
menu's "Resign" and "End game (agree)", the question another home's offer puts to the
players here ("Black: end game?", OK agrees, BACK declines), and the end itself once the
homes have settled it, which each home scores and saves on its own record: a resignation
as resigned, an agreement as the local "end by agreement" scores it (`Session.
end_by_agreement`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .modes import Mode, Over
from .types import BACK_KEY, MENU_KEY, MESSAGE_S, OK_KEY, OFFER

if TYPE_CHECKING:
    from ..remote.game import RemoteGame
    from .session import Session
    from .types import View


def _game(session: Session) -> RemoteGame:
    assert session.remote is not None, "a remote game's command"
    return session.remote.game


def resign(session: Session) -> None:
    """The menu's "Resign", confirmed: the other homes are told, the game is over here."""
    from ..remote.ending import RemoteRefusal
    try:
        _game(session).ending.resign()
    except RemoteRefusal as err:
        session.refuse(str(err))
        return
    finish(session)


def offer_end(session: Session) -> None:
    """The menu's "End game (agree)", confirmed: the other homes are asked; the game ends
    when all have agreed (at once if they had offered it themselves)."""
    from ..remote.ending import RemoteRefusal
    try:
        _game(session).ending.offer_end()
    except RemoteRefusal as err:
        session.refuse(str(err))
        return
    if not finish(session):
        session.term.log("Offered the other boards to end the game; waiting for their answer")
        session.say("end offered")


def follow(session: Session) -> None:
    """After the room was read: an offer of another home is asked about here, one that
    lapsed (the record went on) is no longer asked, a refusal of ours is said, and a game
    ended elsewhere ends here once this board has shown every entry before the end."""
    game = _game(session)
    declined = game.ending.take_declined()
    if declined is not None:
        who = session.ui.seat_name(declined)
        session.term.log(f"{who} declined to end the game: play goes on")
        session.say(f"{who}: no end", 2 * MESSAGE_S)
    current = session.current
    if isinstance(current, Answering) and game.ending.to_answer() is None:
        session.switch_to(current.back.resumed())       # lapsed, or ended: see below
    caught_up = len(session.record.actions) == len(game.record)
    if not caught_up or not session.mode_beneath_plays():
        return                      # the entries before it are shown first (_follow_remote)
    if finish(session):
        session.mark_changed()
        return
    by = game.ending.to_answer()
    if by is not None and session.mode in ("playing", "remote") \
            and not isinstance(session.current, Answering) and session.animation is None:
        session.switch_to(Answering(session, session.current, by))
        session.term.log(f"{session.ui.seat_name(by)} offers to end the game: OK agrees, "
                         "BACK declines")
        session.sound("alert")


def finish(session: Session) -> bool:
    """End the game here if the homes ended it (and this board is not over already)."""
    from ..remote.ending import RESIGNED
    game = _game(session)
    ended = game.ending.ended
    if ended is None or not session.mode_beneath_plays():
        return False
    # entries agreed before the end that this board has not shown yet (this home resigned
    # while the others' last move was still shown): the record ends where the homes' do
    while len(session.record.actions) < len(game.record):
        entry = game.record[len(session.record.actions)]
        session.apply(session.state.parse_action(entry), by_remote=True)
    kind, seats = ended
    session.unsay()                     # "end offered" and the like: no longer true
    if kind != RESIGNED:
        session.end_by_agreement()
        return True
    ui = session.ui
    names = " and ".join(ui.seat_name(s) for s in seats)
    others = [ui.seat_name(s) for s in range(session.game.num_players) if s not in seats]
    winner = f"{others[0]} wins" if len(others) == 1 else ""
    session.line.resign(f"{names} ({winner})" if winner else names)
    session.save()
    session.term.log(f"Game over: {session.record.result}")
    session.switch_to(Resigned(session, f"{names} resigned", winner))
    session.sound("win")
    return True


class Answering(Mode):
    """Another home offers to end the game: OK agrees, BACK declines; the game beneath
    waits (its presses are refused, saying what to press)."""
    name = OFFER
    holds_undo = False
    back_arms_undo = False
    refusal = "OK=agree BACK=no"

    def __init__(self, session: Session, back: Mode, by: int) -> None:
        super().__init__(session)
        self.back, self.by = back, by

    def control(self, key: int) -> None:
        if key == MENU_KEY:
            self.s.open_menu()
        elif key in (OK_KEY, BACK_KEY):
            self._answer(key == OK_KEY)

    def _answer(self, accept: bool) -> None:
        from ..remote.ending import RemoteRefusal
        s = self.s
        try:
            _game(s).ending.answer(accept)
        except RemoteRefusal as err:            # lapsed in between: the game goes on
            s.refuse(str(err))
        s.term.log("Agreed to end the game" if accept else "Declined to end the game")
        s.switch_to(self.back.resumed())
        if not finish(s):
            s.sound("click")
            s.advance()

    def lines(self, view: View) -> list[str]:
        verdict, _ = self.s.ui.standing(self.s.state)
        return [f"{self.s.ui.seat_name(self.by)}: end game?", f"then {verdict}",
                "OK=agree BACK=no"]

    def highlights(self, view: View) -> dict:
        return self.back.highlights(view)


class Resigned(Over):
    """A seat resigned: the game is over (nothing of it is taken back)."""

    def __init__(self, session: Session, what: str, winner: Optional[str]) -> None:
        super().__init__(session)
        self.what, self.winner = what, winner

    def lines(self, view: View) -> list[str]:
        return ["Game over", self.what, self.winner or self.next_line()]
