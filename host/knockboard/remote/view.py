"""A seat's drawing of the position, for the browser page that follows a room without
Knockboard (web/static/spectator.html): that page has no game engine, so it cannot draw the
board, say whose turn it is or what the result is from the transcript's action strings.

Each home therefore keeps, retained on two more exact topics a seat (in the ACL like its
other topics: broker_config.seat_topics), what the game view draws: the empty board once
(`seat/N/board`), and for its record as it stands (`seat/N/view`) the pieces, the last move
and whose turn it is or the result.  Both are the shapes of `gameview.picture` as plain
data (kind, numbers, colours, text: never markup, the page builds every element itself and
sets text as text); the position's drawing is tagged with the record's length and chain
(transcript.py).  The page checks the chain against the transcript it verified and shows a
drawing only when every seat's drawing for that chain is the same: one seat cannot draw
another game than the one all seats agreed on without the others' drawings contradicting
it."""

import json
import re
from typing import TYPE_CHECKING, Any

from ..gameview.picture import Picture
from ..gameview.sheet import last_move, sheet_entry
from ..gameview.summary import who_line
from ..gameview.table import table_view
from ..session.adapters import get_ui
from ..store.entries import apply_entry
from .messages import PREFIX, VERSION

if TYPE_CHECKING:
    from .game import RemoteGame

VIEW, BOARD = "view", "board"
FIT_PX = 560
SHAPE_KINDS = ("polygon", "oval", "line", "text")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}\Z")


def view_topic(room: str, seat: int, kind: str = VIEW) -> str:
    """The topic of 1-based `seat`'s drawing of the position (VIEW) or of the empty board
    (BOARD)."""
    return f"{PREFIX}/{room}/seat/{seat}/{kind}"


def is_view_topic(room: str, name: str) -> bool:
    parts = name.split("/")
    return len(parts) == 5 and parts[:3] == [PREFIX, room, "seat"] and parts[4] in (VIEW, BOARD)


def _colour(value: str) -> str:
    """A colour as `#rrggbb`, or "" (none): the page takes nothing else."""
    return value if _COLOUR.match(value or "") else ""


def _shape(shape: Any) -> list[Any]:
    """[kind, points, fill, outline, width], and a text's [text, size, bold, anchor] (a
    position's drawing is kept under 4 KB: see `ViewMaker.board`)."""
    out = [shape.kind, [round(v) for v in shape.points], _colour(shape.fill),
           _colour(shape.outline), round(shape.width, 1)]
    if shape.kind == "text":
        out += [shape.text, shape.size, bool(shape.bold), shape.anchor]
    return out


class ViewMaker:
    """Draws the position of a remote game's record as it grows (each entry applied once)."""

    def __init__(self, game: "RemoteGame") -> None:
        self.game = game
        self.state = game.game.new_initial_state()
        self.ui = get_ui(game.game)
        self.picture = Picture(self.ui, FIT_PX)
        self.applied = 0
        self.last: tuple = ()          # the spaces of the last player's move

    def board(self, seat: int) -> bytes:
        """Seat `seat`'s (1-based) drawing of the empty board, the same all game: published
        once, apart from the position's, since Mosquitto 2.0's WebSocket listener sends a
        message of more than 4 KB at about 3 KB a tenth of a second (docs/remote.md)."""
        data = {"v": VERSION, "room": self.game.room, "seat": seat, "kind": BOARD,
                "game": self.game.game_name, "width": round(self.picture.view_px.width),
                "height": round(self.picture.height),
                "shapes": [_shape(s) for s in self.picture.board()]}
        return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()

    def payload(self, seat: int) -> bytes:
        """Seat `seat`'s (1-based) drawing of the game's record as it stands."""
        from .watch import result_line
        record = self.game.record
        for entry in record[self.applied:]:
            line = sheet_entry(self.ui, self.state, entry)
            if line.is_move:
                self.last = last_move([line])
            self.state = apply_entry(self.state, entry)
        self.applied = len(record)
        view, _ = table_view(self.ui, self.state, [])
        shapes = self.picture.last_move(self.last) + self.picture.pieces(view)
        over = self.game.over and self.applied == len(self.game.record)
        data = {"v": VERSION, "room": self.game.room, "seat": seat, "kind": VIEW,
                "ply": len(record), "chain": self.game.chains[len(record)],
                "title": self.state.game.title or self.state.game.name,
                "turn": None if over else who_line(self.ui, self.state, view),
                "result": result_line(self.game, self.ui) if over else None,
                "seats": [self.ui.seat_name(s) for s in range(self.state.game.num_players)],
                "shapes": [_shape(s) for s in shapes]}
        return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
