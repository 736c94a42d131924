"""The game view's drawing, without a display: every piece of the engine's view is drawn
on its own space in its owner's look, the text beside it says whose turn it is, and the
SVG export writes one picture a step with the same shapes."""

import xml.etree.ElementTree as ET

import pytest

from games_played import GAMES, played

from knockboard.cli import main
from knockboard.gameview.export import export_svg, positions
from knockboard.gameview.picture import LAST_MOVE, Picture, token_for
from knockboard.gameview.sheet import last_move, score_sheet, sheet_line
from knockboard.gameview.summary import LAST_MARK, summary_lines
from knockboard.session.adapters import get_ui
from knockboard.store import GameStore

SVG = "{http://www.w3.org/2000/svg}"


def ovals_at(shapes, x, y, tolerance=1.0):
    """The fills of the ovals centred on (x, y)."""
    out = []
    for s in shapes:
        if s.kind == "oval":
            cx, cy = (s.points[0] + s.points[2]) / 2, (s.points[1] + s.points[3]) / 2
            if abs(cx - x) <= tolerance and abs(cy - y) <= tolerance:
                out.append(s.fill)
    return out


@pytest.mark.parametrize("name,options", GAMES)
def test_every_piece_is_drawn_on_its_space_in_its_look(name, options):
    record = played(name, options)
    for state in positions(record)[::5]:
        view = state.view()
        ui = get_ui(state.game)
        picture = Picture(ui)
        shapes = picture.pieces(view)
        for space, piece in view.pieces.items():
            x, y = picture.piece_centre(space)
            assert token_for(ui, view, piece).fill in ovals_at(shapes, x, y), (space, piece)
        empty = [c.space for c in ui.layout.cells if c.space not in view.pieces]
        for space in empty:
            x, y = picture.piece_centre(space)
            # nothing of a piece's size stands on an empty space (balls and home counts are
            # smaller, or off the centre)
            big = [s for s in shapes if s.kind == "oval" and abs(
                (s.points[0] + s.points[2]) / 2 - x) < 1 and abs(
                (s.points[1] + s.points[3]) / 2 - y) < 1 and
                (s.points[2] - s.points[0]) > 0.7 * picture.view_px.radius(
                    ui.layout.cell(space))]
            if name == "knockoff" and space in view.home_bases:
                continue
            assert not big, space


def test_pieces_of_different_owners_look_different():
    for name, options in GAMES:
        state = positions(played(name, options))[-1]
        view = state.view()
        ui = get_ui(state.game)
        looks = {}
        for piece in view.pieces.values():
            key = piece.color if name == "ko" else piece.owner
            looks.setdefault(key, set()).add(token_for(ui, view, piece).fill)
        fills = [next(iter(v)) for v in looks.values()]
        assert all(len(v) == 1 for v in looks.values()), (name, looks)
        assert len(set(fills)) == len(fills), (name, looks)


@pytest.mark.parametrize("name,options", GAMES)
def test_the_text_says_whose_turn_and_lists_the_moves(name, options):
    record = played(name, options, plies=12)
    state = record.replay()
    lines = summary_lines(state, record.actions)
    assert lines[0] == state.game.title
    assert any(line.endswith(record.actions[-1]) for line in lines)
    assert f"moves ({len(record.actions)}):" in lines
    who = state.current_player()
    if who >= 0:
        assert f"{get_ui(state.game).seat_name(who)} to move" in lines


@pytest.mark.parametrize("name,options", GAMES)
def test_export_svg_writes_a_picture_a_step_with_the_pieces(tmp_path, name, options):
    record = played(name, options, plies=20)
    with GameStore(tmp_path / "g.db") as store:
        game_id = store.new_game(record)
    out = tmp_path / "svg"
    assert main(["export", str(game_id), "--svg", str(out), "--db",
                 str(tmp_path / "g.db")]) == 0
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"{k:03d}.svg" for k in range(len(record.actions) + 1)]
    # the last picture: an ellipse in the piece's look on every occupied space
    state = record.replay()
    view = state.view()
    ui = get_ui(state.game)
    picture = Picture(ui)
    root = ET.parse(files[-1]).getroot()
    ellipses = [(float(e.get("cx")), float(e.get("cy")), e.get("fill"))
                for e in root.iter(SVG + "ellipse")]
    for space, piece in view.pieces.items():
        x, y = picture.piece_centre(space)
        fill = token_for(ui, view, piece).fill
        assert any(abs(cx - x) < 0.2 and abs(cy - y) < 0.2 and f == fill
                   for cx, cy, f in ellipses), (space, piece)
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    sheet = score_sheet(record)
    assert sheet_line(len(sheet), sheet[-1]) + (LAST_MARK if sheet[-1].is_move else "") \
        in texts                                   # the entry with who made it
    assert sum(t.endswith(LAST_MARK) for t in texts) == 1
    # the last move ringed on the board: where it left and where it ended
    spaces = last_move(sheet)                      # () when it was a pass
    assert len(spaces) in (1, 2) or next(e for e in reversed(sheet) if e.is_move).text \
        in ("pass", "end")
    rings = [(float(e.get("cx")), float(e.get("cy"))) for e in root.iter(SVG + "ellipse")
             if e.get("stroke") == LAST_MOVE]
    assert len(rings) == len(spaces)
    for space, (cx, cy) in zip(spaces, rings):
        x, y = picture.view_px.centre(picture.layout.cell(space))
        assert abs(cx - x) < 0.2 and abs(cy - y) < 0.2


def test_export_svg_refuses_a_file_where_the_folder_should_be(tmp_path, capsys):
    record = played("knockabout", plies=3)
    with GameStore(tmp_path / "g.db") as store:
        game_id = store.new_game(record)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["export", str(game_id), "--svg", str(blocker), "--db",
                 str(tmp_path / "g.db")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a folder" in err[0]
    assert blocker.read_text() == "x"


def test_export_svg_keeps_the_secret_set_up_secret(tmp_path):
    """K.O.'s set-up (KO-1) is each player's secret: a picture of it, like the window and
    the web page, draws the pieces as colours only and its moves as "(secret)", and the
    numbers come out once the game has started."""
    from knockboard.gameview.table import SECRET
    record = played("ko", {"players": 2}, plies=60)
    frames = export_svg(record, tmp_path)
    states = positions(record)
    setup = [k for k, s in enumerate(states) if s.view().phase == "setup"]
    assert len(setup) > 5 and len(setup) < len(states)
    for k, (state, frame) in enumerate(zip(states, frames)):
        texts = [t.text or "" for t in ET.parse(frame).getroot().iter(SVG + "text")]
        numbers = {str(p.number) for p in state.view().pieces.values()}
        placed = [t for t in texts if "@" in t]            # "G3@e5": a set-up move, named
        if k in setup:
            assert not placed and not numbers & set(texts), (k, texts)
            assert k < 2 or any(SECRET in t for t in texts)
        else:
            assert numbers <= set(texts) and not any(SECRET in t for t in texts), k
