"""Every OLED text whole (issue 47, finding 5): the layout (session/oled.py) on the texts
that were cut, and a walk through every game on the simulator's board that reads what
the OLED shows of every screen the session makes (play, steps, refusals, menus, hints,
edit mode, physical dice, the end by agreement) and fails on a word that is cut."""

import re

import pytest

from knockboard.session import oled
from knockboard.session.oled import LINES, PAGE_S, WIDTH, pages, wrap

from autoplay import AutoPlayer
from board_driver import MENU, VirtualBoard

# the documented abbreviation (oled.py, rule 2), written out again here: a seat of several
# colours by its initials
_SEAT = re.compile(r"\b[A-Z][a-z]+(?:\+[A-Z][a-z]+)+\b")


def _expected_tokens(text):
    short = _SEAT.sub(lambda m: "+".join(p[0] for p in m.group(0).split("+")), text)
    return text.split(), short.split()


def missing_words(text, shown_lines):
    """The words of `text` that no shown line holds whole (neither as written nor by the
    initials rule)."""
    tokens = {t for line in shown_lines for t in line.split()}
    full, short = _expected_tokens(text)
    if len(full) != len(short):
        return full
    return [w for w, s in zip(full, short) if w not in tokens and s not in tokens]


# --- the layout --------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Red and Yellow and Blue share",          # the three-way share of "By agreement"
    "hint: 2:move f1-f3",                     # a hint with its destination
    "> End game (agree)",                     # a menu entry
    "Green+Yellow to move",                   # the longest seat name (K.O., two players)
    "Green+Yellow wins with 12 points (Red+Blue 9, Green+Yellow 12)",
    "Black has 5 dice in the gutter",
])
def test_the_layout_shows_every_word_whole(text):
    screens = pages(["title", text, "OK=go"])
    for page in screens:
        assert len(page) <= LINES and all(len(line) <= WIDTH for line in page)
        assert page[-1] == "OK=go"            # the buttons' line stays on every page
    assert missing_words(text, [x for page in screens for x in page]) == []


def test_a_screen_that_fits_is_one_page_and_the_rule_abbreviates_only_what_is_too_long():
    assert pages(["Red to move", "", "OK: pass"]) == [("Red to move", "", "OK: pass")]
    assert pages(["Green+Yellow to move"]) == [("G+Y to move",)]
    assert wrap("Green to move") == ["Green to move"]
    assert wrap("Red and Yellow and Blue share") == ["Red and Yellow", "and Blue share"]
    assert pages(["Game over", "White wins", "Black has 5 dice in the gutter",
                  "MENU=new game"]) \
        == [("Game over", "White wins", "MENU=new game"),
            ("Black has 5 dice", "in the gutter", "MENU=new game")]
    assert [oled.page_at(2, 10.0, t) for t in (10.0, 10.0 + PAGE_S, 10.0 + 2 * PAGE_S)] \
        == [0, 1, 0]


def test_a_code_longer_than_a_line_breaks_after_its_separators_only():
    assert wrap("edit W4=1,D5>G7,W6=2,I4") == ["edit W4=1,D5>G7,", "W6=2,I4"]


# --- the walk ----------------------------------------------------------------------------
def read_screen(vb, session):
    """What a person reads of the screen shown now: its lines, over all of its pages (the
    OLED is watched while the pages turn).  Returns (what the session means, the lines
    the board showed)."""
    text = session.oled_lines()
    shown = list(vb.oled()[0])
    seen = [tuple(shown)]
    for _ in range(6):
        if not missing_words(" ".join(text), shown):
            break
        vb.run(PAGE_S)
        if session.oled_lines() != text:
            break                      # the screen changed (a message ran out) meanwhile
        lines = tuple(vb.oled()[0])
        if lines in seen:
            break
        seen.append(lines)
        shown += lines
    return text, shown


class Reader:
    """Checks every screen it is shown: each word whole on the board's OLED."""

    def __init__(self, vb):
        self.vb = vb
        self.screens = 0
        self.cut = []

    def check(self):
        s = self.vb.session
        text, shown = read_screen(self.vb, s)
        self.screens += 1
        for line in text:
            lost = missing_words(line, shown)
            if lost:
                self.cut.append(f"{line!r} shown as {shown}: {lost} cut")


def _refusals(vb, reader):
    """Every cell pressed once where a person is to choose: a refusal or a selection."""
    s = vb.session
    for cell in range(len(s.layout)):
        if s.interaction is None or s.mode != "playing":
            return
        vb.press(cell)
        reader.check()
        if s.interaction is not None and (s.interaction.selected is not None
                                          or s.interaction.choice is not None):
            reader.check()
            vb.back()


def _menu(vb, reader, hint=False):
    """The menu opened and every entry read; the hint asked for once; closed."""
    s = vb.session
    vb.menu()
    first = vb.menu_entry()
    for _ in range(40):
        reader.check()
        if hint and vb.menu_entry() == "Hint":
            vb.ok()                          # the hint: its move named on the OLED
            reader.check()
            return
        vb.control(MENU)
        if vb.menu_entry() == first:
            break
    if s.mode == "menu":
        vb.back()


def _edit(vb, reader):
    """Edit mode: a piece pressed, an empty cell, the settings; left with BACK."""
    s = vb.session
    vb.menu()
    for _ in range(40):
        if vb.menu_entry() == "Edit board":
            break
        vb.control(MENU)
    vb.ok()
    reader.check()
    pieces = sorted(s.ui.view(s.state).pieces)
    empty = [c.space for c in s.layout.cells if c.space not in s.ui.view(s.state).pieces]
    for space in pieces[:1] + empty[:1]:
        vb.press_space(space)
        reader.check()
    for _ in range(3):
        vb.control(MENU)
        reader.check()
    for _ in range(3):
        if s.mode != "edit":
            break
        vb.back()
        reader.check()


def _agree(vb, reader):
    """The game ended by agreement: the verdict on the OLED."""
    vb.menu()
    for _ in range(40):
        if (vb.menu_entry() or "").startswith("End game"):
            break
        vb.control(MENU)
    vb.ok()
    reader.check()
    vb.ok()
    reader.check()


WALKS = [("knockabout", {}, {}, 30), ("dodgeball", {}, {}, 60),
         ("ko", {"players": 2}, {}, 40), ("ko", {"players": 3}, {}, 30),
         ("ko", {"players": 4}, {"physical_dice": True}, 80),
         ("knockoff", {"players": 2}, {"physical_dice": True}, 30),
         ("knockoff", {"players": 3}, {}, 30), ("knockoff", {"players": 4}, {}, 30)]
# the players named, by names of the longest length allowed (session/names.py), one with a
# space: every screen that says a seat says its name
LONGEST = ["Christophers", "Grandma Rose", "Maximilian-J", "Anna Mae Lou"]
WALKS += [(game, options, {**kw, "names": LONGEST[:options.get("players", 2)]}, acts)
          for game, options, kw, acts in (("knockabout", {}, {}, 30),
                                          ("dodgeball", {}, {"physical_dice": True}, 60),
                                          ("ko", {"players": 2}, {}, 40),
                                          ("knockoff", {"players": 4}, {}, 30))]


@pytest.mark.parametrize("game,options,kw,acts", WALKS,
                         ids=[f"{g}-{o.get('players', 2)}" + ("-names" if "names" in kw else "")
                              for g, o, kw, _ in WALKS])
def test_every_screen_of_a_game_shows_every_word_whole(game, options, kw, acts):
    vb = VirtualBoard(game)
    players = options.get("players", 2)
    # the last seat a computer: its moves, passes and throws are screens too
    seats = ["human"] * (players - 1) + ["fair"]
    vb.start(game, seats, seed=4, options=options, **kw)
    reader = Reader(vb)
    player = AutoPlayer(vb, 4, aggressive=True)
    reader.check()
    refused = menued = edited = False
    for n in range(acts):
        if not player.act():
            break
        reader.check()
        s = vb.session
        if s.interaction is not None and s.mode == "playing" and s.state.view().phase \
                not in ("setup",):
            if not refused:
                _refusals(vb, reader)
                refused = True
            elif not menued:
                _menu(vb, reader, hint=True)
                menued = True
            elif not edited and s.ui.edit_refusal(s.state) is None:
                _edit(vb, reader)
                edited = True
    _menu(vb, reader)
    if vb.session.mode != "over":
        _agree(vb, reader)
    assert refused and menued, "the walk reached no person's choice"
    assert reader.screens > 40
    assert not reader.cut, "\n".join(reader.cut[:10])


# --- names the board shows ---------------------------------------------------------------
def test_refusals_name_pieces_as_the_table_does_not_by_the_terminal_boards_codes():
    """Issue 47, finding 11: "Gx4: not yours", "O: not yours" were the terminal's codes."""
    vb = VirtualBoard("knockoff")
    s = vb.start("knockoff", ["human", "human"], seed=3)
    other = 1 - s.state.current_player()
    home = s.ui.homes()[other]
    vb.press_space(home)
    assert " ".join(vb.oled()[0]).endswith(f"{s.ui.seat_name(other)} home base: not yours")

    vb = VirtualBoard("dodgeball")
    s = vb.start("dodgeball", ["human", "human"], seed=3, options={"setup": "quick"})
    other = 1 - s.state.current_player()
    pawn = next(sq for sq, p in s.state.view().pieces.items() if p.owner == other)
    vb.press_space(pawn)
    assert " ".join(vb.oled()[0]).endswith(f"{s.ui.seat_name(other)} pawn: not yours")


def _overlay_words(game):
    from hardware.printed.overlay import overlay_svg

    from knockboard.layouts import get_layout
    svg = overlay_svg(get_layout(game))
    return set(re.findall(r">([^<>]+)</text>", svg))


@pytest.mark.parametrize("game,options", [("knockoff", {"players": 4}), ("ko", {"players": 4}),
                                          ("dodgeball", {}), ("knockabout", {})])
def test_every_cell_the_oled_names_is_printed_on_the_overlay(game, options):
    """The spaces the OLED names ("H1>2e", "2e: no piece") are the names the printed
    overlay carries (hardware/printed/overlay.py: a Knock-Off platform's level in large type,
    its name "2e" above it), so a player finds each one on the board."""
    printed = _overlay_words(game)
    vb = VirtualBoard(game)
    vb.start(game, seed=6, options=options)
    spaces = {c.space for c in vb.session.layout.cells}
    player = AutoPlayer(vb, 6)
    named = set()
    for _ in range(150):
        for line in vb.session.oled_lines():
            named |= {t for t in re.split(r"[\s>:,@-]+", line) if t in spaces}
        if not player.act():
            break
    assert len(named) >= 5, named
    assert named <= printed, sorted(named - printed)


def test_every_screen_of_a_replay_shows_every_word_whole():
    """`knockboard replay --sim`'s screens: each entry, an edit's changes included."""
    from knockboard.session.replay import Replay
    from knockboard.store import GameRecord

    vb = VirtualBoard("knockabout")
    s = vb.start("knockabout", ["human", "human"], seed=8)
    player = AutoPlayer(vb, 8)
    while len(s.record.actions) < 12 or s.interaction is None or s.interaction.selected:
        player.act()
    _edit_by_hand(vb)
    assert any(a.startswith("edit ") for a in s.record.actions), "no edit was made"
    for _ in range(20):
        player.act()
    record = GameRecord(game="knockabout", actions=list(s.record.actions))

    vb = VirtualBoard("knockabout")
    replay = vb.session = Replay(vb.board, record, clock=vb.clock)
    vb.run(0.3)
    reader = Reader(vb)
    for _ in range(len(record.actions) + 1):
        reader.check()
        vb.ok()
    assert reader.screens == len(record.actions) + 1 and replay.ply == len(record.actions)
    assert not reader.cut, "\n".join(reader.cut[:10])


def _edit_by_hand(vb):
    """Edit mode: two dice moved to empty cells and whose turn changed, then OK."""
    s = vb.session
    vb.menu()
    while vb.menu_entry() != "Edit board":
        vb.control(MENU)
    vb.ok()
    view = s.ui.view(s.state)
    empty = [c.space for c in s.layout.cells if c.space not in view.pieces
             and c.kind != "gutter"]
    for src, dst in zip(sorted(view.pieces)[:2], empty[-2:]):
        vb.press_space(src)
        vb.press_space(dst)
    vb.control(MENU)
    vb.ok()                                  # the turn to the other player
    vb.back()
    vb.ok()
    while s.animation is not None:
        vb.ok()
