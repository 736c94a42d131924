"""Ending a remote game from the boards' menus, through the test's Mosquitto: leaving it
(both records keep it, and the home resumed from its own record plays on in the room); a
resignation told to the other home and saved as resigned in both records; an offer to end
by agreement declined, then accepted on the other board and scored as a local agreement;
and a hostile seat's lies about either (an acceptance nobody asked for, a resignation for a
seat it does not hold, an answer to its own offer) refused, changing nothing."""

from contextlib import contextmanager

import pytest

from knockboard import cli
from knockboard.remote import MemoryKeys, RemoteGame, RemoteRefusal
from knockboard.remote.ending import OFFER_AGAIN_PLIES
from knockboard.remote.messages import ACCEPT, DECLINE, HELLO, OFFER, RESIGN, Message
from knockboard.session import RecordSaver
from knockboard.store import GameStore

from homes import BoardHome, Home, closing, play_boards, run_until
from hostile import Attacker, receive_chained

GAME, OPTIONS = "knockabout", {"first": "white"}


@contextmanager
def _two_boards(make_broker, room, tmp_path):
    """(the broker, White's and Black's homes in `room`, their databases): each home a
    simulated board saving to its own database; closed however the test ends."""
    broker = make_broker({room: 2})
    stores = [GameStore(tmp_path / f"home{seat}.sqlite3") for seat in (1, 2)]
    boards = [BoardHome(broker, room, GAME, OPTIONS, [seat], 3,
                        saver=RecordSaver(stores[seat - 1])).start() for seat in (1, 2)]
    with closing(boards, *stores):
        yield broker, boards, stores


def _steps(boards):
    return [h.session.step for h in boards]


def _choose(vb, label):
    """Open the menu and show the entry `label`; OK then chooses it."""
    vb.menu()
    for _ in range(12):
        if vb.menu_entry() == label:
            return
        vb.menu()
    raise AssertionError(f"no menu entry {label!r}")


def test_leaving_from_the_menu_keeps_the_game_in_both_records_and_it_resumes_in_the_room(
        make_broker, tmp_path):
    with _two_boards(make_broker, "leave", tmp_path) as (broker, boards, stores):
        white, black = boards
        play_boards(boards, until=lambda: len(white.game.record) >= 10)
        _choose(white.vb, "Leave game")
        white.vb.ok()
        assert not white.session.running
        white.close()
        left = stores[0].get(1).actions
        for store in stores:
            assert store.get(1).status == "playing" and store.get(1).actions == left
        # resumed from its own record (`knockboard resume --remote` does the same): it joins
        # the room again, and the game goes on to identical records
        boards[0] = white = BoardHome(broker, "leave", GAME, OPTIONS, [1], 3, actions=left,
                                      saver=RecordSaver(stores[0], 1)).start()
        play_boards(boards, until=lambda: len(black.game.record) >= len(left) + 6)
        run_until(_steps(boards), lambda: len(white.session.record.actions)
                  == len(black.session.record.actions) == len(black.game.record),
                  "both boards showing the same entries")
        assert stores[0].get(1).actions == stores[1].get(1).actions == white.game.record
        assert not white.game.stopped and not black.game.stopped


def test_resigning_from_the_menu_ends_the_game_at_both_boards_saved_as_resigned(
        make_broker, tmp_path, capsys):
    with _two_boards(make_broker, "resign", tmp_path) as (_, boards, stores):
        white, black = boards
        run_until(_steps(boards), lambda: white.session.interaction is not None,
                  "White to choose")
        vb = white.vb
        _choose(vb, "Resign")
        vb.ok()
        assert vb.oled()[0][1] == "> Resign? OK=yes" and white.session.running
        assert not white.game.ending.ended                 # one OK asks once more
        vb.ok()
        assert vb.oled()[0] == ["Game over", "White resigned", "Black wins"]
        run_until(_steps(boards),
                  lambda: black.vb.oled()[0] == ["Game over", "White resigned", "Black wins"],
                  "Black told")
        assert black.session.mode == "over"
        assert "White resigned" in black.out.getvalue()
        for home, store in zip(boards, stores):
            saved = store.get(1)
            assert saved.status == "finished"
            assert saved.result == "resigned: White (Black wins)"
            assert saved.actions == white.game.record == home.session.record.actions
        # nothing more to do in it: the ended game refuses undo and moves
        black.vb.menu()
        assert black.vb.oled()[0][1] == "> Back to game"
    assert cli.main(["show", "1", "--db", str(tmp_path / "home2.sqlite3")]) == 0
    assert "result resigned: White (Black wins)" in capsys.readouterr().out


def test_an_offer_to_end_is_declined_then_accepted_on_the_other_board_and_scored(
        make_broker, tmp_path):
    with _two_boards(make_broker, "agree", tmp_path) as (_, boards, stores):
        white, black = boards
        run_until(_steps(boards), lambda: white.session.interaction is not None,
                  "White to choose")
        for answer in ("no", "yes"):
            _choose(white.vb, "End game (agree)")
            white.vb.ok()
            white.vb.ok()                                    # sure: the offer is sent
            assert white.vb.oled()[0][-1] == "end offered"
            run_until(_steps(boards), lambda: black.vb.oled()[0][:1] == ["White: end game?"],
                      "Black asked")
            verdict, _ = black.session.ui.standing(black.session.state)
            assert black.vb.oled()[0] == ["White: end game?", f"then {verdict}",
                                          "OK=agree BACK=no"]
            black.vb.press_space("A1")                       # a press is no answer
            assert black.vb.oled()[0][-1] == "OK=agree BACK=no"
            assert black.vb.sounds[-1] == "error" and black.session.mode == "offer"
            if answer == "no":
                declined_at = len(white.game.record)
                black.vb.back()
                run_until(_steps(boards), lambda: "Black: no end" in white.vb.oled()[0],
                          "White told")
                assert not white.game.ending.ended and not black.game.ending.ended
                assert white.session.interaction is not None      # White plays on
                # and may not ask again before the decline window is over
                _choose(white.vb, "End game (agree)")
                white.vb.ok()
                white.vb.ok()
                assert white.vb.oled()[0][-1] == f"offer in {OFFER_AGAIN_PLIES} plies"
                assert white.vb.sounds[-1] == "error" and white.game.ending.offer is None
                play_boards(boards, until=lambda: len(white.game.record) >= declined_at
                            + OFFER_AGAIN_PLIES and white.session.interaction is not None
                            and len(black.session.record.actions) == len(white.game.record))
        black.vb.ok()
        run_until(_steps(boards), lambda: white.vb.oled()[0][:1] == ["By agreement:"],
                  "agreed at White's")
        for home, store in zip(boards, stores):
            # scored as the local "end by agreement" scores: the rules' count on the board
            verdict, tally = home.session.ui.standing(home.session.state)
            assert home.vb.oled()[0] == ["By agreement:", verdict, "MENU=leave"]
            assert store.get(1).status == "finished"
            assert store.get(1).result == f"by agreement: {verdict} ({tally})"
        assert stores[0].get(1).actions == stores[1].get(1).actions


def test_a_declined_offer_cannot_be_made_again_within_the_decline_window(make_broker):
    """A seat whose offer was declined offers again at once, then again and again (the
    second review's board asked 9 times in 6 s): each is refused in one line, the board is
    not asked, until the record has grown by OFFER_AGAIN_PLIES entries."""
    broker = make_broker({"nag": 2})
    home = Home(broker, "nag", GAME, OPTIONS, [1]).start()
    attacker = Attacker(broker, "nag", 2)
    g = home.game
    with closing([home], attacker):
        attacker.message(HELLO, 0, game=GAME, options=g.options, players=2,
                         dice="electronic", seats=[2])
        run_until([home.link.pump], lambda: g.joined, "seat 2's hello", 10)
        attacker.message(OFFER, 0)
        run_until([home.link.pump], lambda: g.ending.to_answer() == 1, "the offer", 10)
        g.ending.answer(False)                               # declined here
        for _ in range(3):
            refused = g.refused
            attacker.message(OFFER, 0)
            run_until([home.link.pump], lambda: g.refused > refused, "the offer refused", 10)
            assert "offer was declined at ply 0: it may offer again in " \
                f"{OFFER_AGAIN_PLIES} plies" in home.lines[-1]
            assert g.ending.to_answer() is None and g.ending.ended is None
        assert g.record == [] and not g.stopped
        with pytest.raises(RemoteRefusal, match="no offer to answer"):
            g.ending.answer(True)                            # no slip of OK can end it


def test_a_hostile_seat_cannot_end_the_game_by_lying(make_broker):
    broker = make_broker({"lie": 2})
    home = Home(broker, "lie", GAME, OPTIONS, [1]).start()
    attacker = Attacker(broker, "lie", 2)
    g = home.game
    with closing([home], attacker):
        attacker.message(HELLO, 0, game=GAME, options=g.options, players=2,
                         dice="electronic", seats=[2])
        run_until([home.link.pump], lambda: g.joined, "seat 2's hello", 10)
        before = (list(g.record), g.state.to_position())
        lies = [(ACCEPT, {"seats": [2]}, "nobody made"),             # no offer was made
                (DECLINE, {}, "nobody made"),
                (RESIGN, {"seats": [1]}, "without its own"),          # White's seat
                (RESIGN, {"seats": [1, 2]}, "cannot speak for seat 1"),
                (OFFER, {}, None),                                    # its own offer ...
                (DECLINE, {}, "its own home made"),                   # ... it cannot answer
                (ACCEPT, {"seats": [1]}, "without its own")]
        for kind, body, why in lies:
            refused = g.refused
            attacker.message(kind, len(g.record), **body)
            if why is None:
                run_until([home.link.pump], lambda: g.ending.to_answer() == 1, "the offer",
                          10)
                continue
            run_until([home.link.pump], lambda: g.refused > refused, f"{kind} refused", 10)
            assert why in home.lines[-1], (kind, home.lines[-1])
        assert g.ending.ended is None and not g.stopped
        assert (list(g.record), g.state.to_position()) == before
        assert g.ending.to_answer() == 1            # the honest question still stands


def test_a_home_cannot_agree_or_resign_for_a_seat_whose_own_hello_does_not_name_it():
    """Three homes: seat 2's hello claims seat 3 too, seat 3's own hello says it plays alone.
    Seat 2's offer (which this home accepts) then counts for seat 2 only, and seat 2 can
    neither accept nor resign for seat 3: the game ends only as every real home agrees."""
    lines = []
    g = RemoteGame("three", "knockoff", {"players": 3}, [0], MemoryKeys(),
                   send=lambda m, retain=False: None, log=lines.append)
    hello = {"game": "knockoff", "options": g.options, "players": 3, "dice": "electronic"}
    receive_chained(g, Message("three", 2, HELLO, 0, dict(hello, seats=[2, 3])))
    receive_chained(g, Message("three", 3, HELLO, 0, dict(hello, seats=[3])))
    receive_chained(g, Message("three", 2, OFFER, 0, {}))
    g.ending.answer(True)                                  # this home agrees
    assert g.ending.ended is None and g.ending.offer.agreed == {0, 1}
    for kind in (ACCEPT, RESIGN):
        receive_chained(g, Message("three", 2, kind, 0, {"seats": [2, 3]}))
        assert "seat 2 cannot speak for seat 3" in lines[-1]
    assert g.ending.ended is None and g.record == [] and not g.stopped
    receive_chained(g, Message("three", 3, ACCEPT, 0, {"seats": [3]}))     # seat 3's own word
    assert g.ending.ended == ("agreed", ())
