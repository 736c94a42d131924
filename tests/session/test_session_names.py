"""Players' names (issue 47, finding 12): given with `play --names` or on the board alone
(MENU -> Names: a name of an earlier saved game, or one spelt with MENU, a cell, OK and
BACK), saved in the record and said wherever a seat is meant: the OLED's turn prompts,
whose dice, the roll-off, the game's end, the terminal's log, the game view; kept by a
resumed game and by the menu's New game; a bad name refused in one line, nothing changed.
Everything is read off the simulator's OLED, driven by presses."""

import io
import sys
from pathlib import Path

import pytest

from autoplay import AutoPlayer
from board_driver import VirtualBoard
from test_session_oled import LONGEST, Reader

from knockboard import cli
from knockboard.cli import play
from knockboard.games import get_game
from knockboard.gameview.sheet import score_sheet
from knockboard.gameview.summary import summary_lines
from knockboard.session import RecordSaver, Session, Setup
from knockboard.store import GameStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scripted_game import finished_actions  # noqa: E402



def said(vb):
    """Every line the OLED shows over the pages of the screen shown now, in order (a
    screen with no buttons' line pages all of its lines)."""
    return " ".join(line for page in vb.pages() for line in page)


def menu_to(vb, label):
    """With the menu open, MENU until the entry `label` is shown."""
    for _ in range(40):
        if vb.menu_entry() == label:
            return
        vb.menu()
    raise AssertionError(f"no menu entry {label!r}: {vb.text()}")


def choose(vb, shown):
    """In the naming screen: MENU until "> shown" is the choice, then OK."""
    for _ in range(20):
        if vb.oled()[0][1:2] == [f"> {shown}"]:
            vb.ok()
            return
        vb.menu()
    raise AssertionError(f"no choice {shown!r}: {vb.text()}")


def spell(vb, word):
    """In the speller: each letter reached with MENU (forwards) and added with OK, then
    "end" and OK."""
    for ch in word.upper() + "\0":
        want = "end: keep it" if ch == "\0" else ("space" if ch == " " else ch)
        for _ in range(40):
            if vb.oled()[0][1] == f"> {want}":
                break
            vb.menu()
        else:
            raise AssertionError(f"no letter {want!r}: {vb.text()}")
        vb.ok()


def to_a_choice(vb, player, limit=400):
    """Play on (AutoPlayer) until a person is to choose a move."""
    s = vb.session
    for _ in range(limit):
        if s.mode == "playing" and s.interaction is not None \
                and s.state.view().phase != "setup":
            return
        assert player.act(), vb.text()
    raise AssertionError("no person's choice reached")


# --- names given with the game ------------------------------------------------------------
@pytest.mark.parametrize("game, options", [
    ("knockabout", {}), ("dodgeball", {"setup": "quick"}),
    ("ko", {"players": 2, "quick_start": 1}), ("knockoff", {"players": 4})])
def test_the_player_to_move_is_named_on_the_oled_by_the_longest_names(game, options):
    players = get_game(game, **options).num_players
    names = LONGEST[:players]
    vb = VirtualBoard(game)
    s = vb.start(game, ["human"] * players, seed=3, options=options, names=names)
    player = AutoPlayer(vb, 3)
    for _ in range(3):
        to_a_choice(vb, player)
        who = names[s.state.current_player()]
        shown = said(vb)
        assert who in shown and s.ui.colour_name(s.state.current_player()) not in shown, \
            shown
        player.act()


def test_the_roll_off_the_turns_the_end_and_the_log_say_the_names():
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", ["human", "human"], seed=5, out=out,
                 names=["Christophers", "Grandma Rose"])
    white, black = (int(v) for v in s.record.actions[0].split()[1].split("-"))
    lines, dice, _ = vb.oled()
    assert dice == (white, black)
    assert f"Christophers {white}, Grandma Rose {black}" in said(vb)
    log = out.getvalue()
    assert "seats Christophers (White)=human, Grandma Rose (Black)=human" in log
    assert "roll-off: Christophers and Grandma Rose (each a d6)" in log
    assert [p["name"] for p in s.record.players] == ["Christophers", "Grandma Rose"]

    # the end: the engine's result by colour, said by name
    actions = finished_actions("knockabout", 2)
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", actions=actions, names=["Ann", "Ben"])
    engine = s.state.result()                        # "White wins" or "Black wins"
    winner = {"White": "Ann", "Black": "Ben"}[engine.split()[0]]
    assert s.mode == "over"
    text = said(vb)
    assert f"{winner} wins" in text and "White" not in text and "Black" not in text, text
    assert s.record.result == f"{winner} wins"


def test_dodgeballs_duel_dice_are_named_by_the_players():
    vb = VirtualBoard("dodgeball")
    s = vb.start("dodgeball", ["human", "human"], seed=3, options={"setup": "quick"},
                 names=["Ann", "Ben"])
    player = AutoPlayer(vb, 3, aggressive=True)
    for _ in range(4000):
        acts = s.record.actions
        if len(acts) >= 4 and ":throw " in acts[-4] and acts[-3] in ("catch", "dodge") \
                and acts[-2].startswith("roll") and acts[-1].startswith("roll"):
            thrower = s.record.actors[-4]
            break
        assert player.act()
    else:
        raise AssertionError("no duel")
    names = ("Ann", "Ben")
    duel = f"{names[thrower]} {acts[-2].split()[1]}, {names[1 - thrower]} {acts[-1].split()[1]}"
    assert duel in said(vb), vb.text()


# --- names from the menu ------------------------------------------------------------------
def saved_game(store, names):
    vb = VirtualBoard("knockabout")
    saver = RecordSaver(store)
    Session(vb.board, Setup("knockabout", {}, ["human", "human"], seed=3, names=names),
            clock=vb.clock, saver=saver)
    saver.close()


def test_a_family_names_the_seats_from_the_menu_alone_and_new_games_keep_them(tmp_path):
    db = tmp_path / "games.sqlite3"
    out = io.StringIO()
    with GameStore(db) as store:
        saved_game(store, ["Ann", "Ben"])
        saved_game(store, ["Cy", ""])           # Black unnamed: "Black" is no name
        vb = VirtualBoard("knockabout")
        vb.session = Session(vb.board, Setup("knockabout", {}, ["human", "human"], seed=5),
                             clock=vb.clock, saver=RecordSaver(store), out=out)
        vb.run(1.0)
        s = vb.session
        game_id = s.saver.game_id
        vb.menu()
        menu_to(vb, "Names")
        vb.ok()
        assert vb.oled()[0] == ["Name of White:", "> no name", "OK BACK MENU=nxt"]
        offered = []
        for _ in range(6):
            vb.menu()
            offered.append(vb.oled()[0][1])
        # the names of earlier games, newest first, then spelling; colours are no names
        assert offered[:5] == ["> Cy", "> Ann", "> Ben", "> spell a name", "> no name"]
        choose(vb, "Ben")
        assert vb.oled()[0][0] == "Name of Black:"
        seen = []
        for _ in range(4):
            seen.append(vb.oled()[0][1])
            vb.menu()
        # White's name is not offered to Black
        assert seen == ["> no name", "> Cy", "> Ann", "> spell a name"]
        choose(vb, "Cy")
        assert s.mode == "menu" and vb.menu_entry() == "Names"
        vb.back()
        # the turn and the roll-off's dice (rolled before the names were given) by name
        white, black = s.record.actions[0].split()[1].split("-")
        text = said(vb)
        assert f"Ben {white}, Cy {black}" in text and "White" not in text, text
        assert f"{('Ben', 'Cy')[s.state.current_player()]} to move" in text
        assert [p["name"] for p in store.get(game_id).players] == ["Ben", "Cy"]
        assert "Name: Ben (White)" in out.getvalue() and "Name: Cy (Black)" in out.getvalue()

        # MENU -> New game: the names go on, in the new record too
        vb.menu()
        menu_to(vb, "New game")
        vb.ok()
        assert s.saver.game_id != game_id
        assert [p["name"] for p in store.get(s.saver.game_id).players] == ["Ben", "Cy"]
        vb.run(1.0)
        text = said(vb)
        assert "Ben" in text and "Cy" in text and "White" not in text, text


def test_a_name_is_spelt_on_the_board_and_the_game_view_says_it(tmp_path):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        vb = VirtualBoard("knockabout")
        vb.session = Session(vb.board, Setup("knockabout", {}, ["human", "human"], seed=5),
                             clock=vb.clock, saver=RecordSaver(store))
        vb.run(1.0)
        s = vb.session
        vb.menu()
        menu_to(vb, "Names")
        vb.ok()
        choose(vb, "spell a name")
        assert vb.oled()[0] == ["White: _", "> A", "OK=add MENU=nxt"]
        spell(vb, "mary jo")
        assert vb.oled()[0][0] == "Name of Black:"
        # a cell steps back: from "A" to "end", then to the hyphen
        choose(vb, "spell a name")
        vb.press(0)
        assert vb.oled()[0][1:] == ["> end: keep it", "OK=take BACK=del"]
        vb.press(0)
        vb.ok()                                 # "-"
        vb.back()                               # taken back
        assert vb.oled()[0][0] == "Black: _"
        spell(vb, "al")
        assert s.mode == "menu"
        assert [p["name"] for p in s.record.players] == ["Mary Jo", "Al"]
        record = store.get(s.saver.game_id)
    lines = summary_lines(s.state, score_sheet(record), names=record.names)
    assert "Mary Jo: 0 in the gutter" in lines and "Al: 0 in the gutter" in lines
    assert "White" not in " ".join(lines)
    to_move = s.ui.seat_name(s.state.current_player())
    assert f"{to_move} to move" in lines


# --- bad names ----------------------------------------------------------------------------
def test_a_name_taken_or_another_seats_colour_is_refused_on_the_board_and_nothing_changes():
    out = io.StringIO()
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", ["human", "human"], seed=5, out=out, names=["Ann", "Ben"])
    vb.menu()
    menu_to(vb, "Names")
    vb.ok()
    choose(vb, "spell a name")
    spell(vb, "ben")                            # Black is Ben
    assert "Ben: taken" in said(vb)
    assert "refused: 'Ben': two players named alike (seats 1 and 2)" in out.getvalue()
    assert [p["name"] for p in s.record.players] == ["Ann", "Ben"]
    for _ in range(4):
        vb.back()                               # the letters taken back, then choosing
    assert vb.oled()[0][0] == "Name of White:"
    choose(vb, "spell a name")
    spell(vb, "black")
    assert "Black: taken" in said(vb)
    assert "that is the Black seat's colour" in out.getvalue()
    assert [p["name"] for p in s.record.players] == ["Ann", "Ben"]
    assert vb.session.ui.seat_name(0) == "Ann"


def test_a_spelt_name_stops_at_twelve_letters():
    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", ["human", "human"], seed=5)
    vb.menu()
    menu_to(vb, "Names")
    vb.ok()
    choose(vb, "spell a name")
    for _ in range(13):
        vb.ok()                                 # "A" thirteen times
    assert "12 letters at most" in said(vb)
    assert vb.oled()[0][0] == "Aaaaaaaaaaaa_"
    spell(vb, "")
    assert s.ui.seat_name(0) == "Aaaaaaaaaaaa"


def test_the_naming_screens_show_every_word_whole_with_the_longest_names():
    vb = VirtualBoard("ko")
    vb.start("ko", ["human", "human"], seed=3, options={"players": 2, "quick_start": 1},
             names=["Christophers", ""])
    reader = Reader(vb)
    vb.menu()
    menu_to(vb, "Names")
    vb.ok()
    for _ in range(4):
        reader.check()
        vb.menu()
    choose(vb, "spell a name")
    for _ in range(12):
        vb.ok()
        reader.check()
    vb.menu()
    reader.check()
    assert reader.screens >= 17 and not reader.cut, reader.cut


# --- kept by resume, given with play --names ------------------------------------------------
def test_play_names_and_resume_keep_the_names_on_the_oled(tmp_path, monkeypatch, capsys):
    db = tmp_path / "games.sqlite3"
    boards = []

    def run_on_board(args, game, seed, make_runner, out, view=None):
        vb = VirtualBoard(game)
        vb.session = make_runner(vb.board)
        vb.run(1.0)
        boards.append(vb)
        return 0
    monkeypatch.setattr(play, "_run_on_board", run_on_board)
    assert cli.main(["play", "knockabout", "--names", "Ann,Ben", "--seed", "5",
                     "--db", str(db)]) == 0
    vb = boards[0]
    player = AutoPlayer(vb, 5)
    to_a_choice(vb, player)
    player.act()
    vb.session.saver.close()
    assert cli.main(["resume", "--db", str(db)]) == 0
    vb = boards[1]
    assert vb.session.mode == "edit"
    vb.ok()                                     # the pieces stand where they should
    to_a_choice(vb, AutoPlayer(vb, 5))
    who = ("Ann", "Ben")[vb.session.state.current_player()]
    assert f"{who} to move" in said(vb)
    assert [p["name"] for p in vb.session.record.players] == ["Ann", "Ben"]
    capsys.readouterr()


def test_a_named_two_colour_k_o_seat_keeps_its_colours_for_its_pieces():
    """A two-colour K.O. seat named: its pieces keep their colours (steps, refusals),
    the seat's turn says the name."""
    vb = VirtualBoard("ko")
    s = vb.start("ko", ["human", "human"], seed=3, options={"players": 2, "quick_start": 1},
                 names=["Ann", ""])
    assert s.ui.seat_name(0) == "Ann" and s.ui.colour_name(0) == "Red+Blue"
    assert s.ui.seat_name(1) == "Green+Yellow"
    player = AutoPlayer(vb, 3)
    to_a_choice(vb, player)
    who = s.state.current_player()
    assert ("Ann" if who == 0 else "G+Y") + " to move" in said(vb)
    # a piece of the other seat pressed: refused by the piece's colour, not by a name
    view = s.ui.view(s.state)
    space, piece = next((sp, p) for sp, p in sorted(view.pieces.items()) if p.owner != who)
    vb.press_space(space)
    colour = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow"}[piece.name[0]]
    text = " ".join(vb.oled()[0])
    assert text.endswith(f"to move {colour} {piece.name[1:]}: not yours"), text


def test_a_new_game_that_makes_a_name_another_seats_colour_says_so_and_shows_colours():
    """Knock-Off for two: "Yellow" is a name (no seat is yellow); MENU -> Players: 3 and New
    game make a Yellow seat: the board would say "Yellow to move" for Red, so it says the
    colours, and the terminal says why in one line."""
    out = io.StringIO()
    vb = VirtualBoard("knockoff")
    s = vb.start("knockoff", ["human", "human"], seed=3, out=out, names=["Yellow", "Ben"])
    assert s.ui.seat_name(0) == "Yellow"
    vb.menu()
    menu_to(vb, "Players: 2")
    vb.ok()
    menu_to(vb, "New game")
    vb.ok()
    assert s.game.num_players == 3
    assert "Names not shown on the board: 'Yellow': that is the Yellow seat's colour" \
        in out.getvalue()
    assert [s.ui.seat_name(seat) for seat in range(3)] == ["Red", "Green", "Yellow"]
    assert s.record.players[0]["name"] == "Yellow"      # the record keeps what was given


def test_physical_dice_ask_for_the_named_players_die():
    vb = VirtualBoard("knockoff")
    vb.start("knockoff", ["human", "human"], seed=3, physical_dice=True, names=["Ann", "Ben"])
    assert vb.oled()[0][0] == "Ann d6"          # the roll-off: Red's die, then Green's
    vb.ok()
    assert vb.oled()[0][0] == "Ben d6"
