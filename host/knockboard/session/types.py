"""The plain data the session's parts hand each other: what stands where (View), what a
press can mean (Option), one physical step the players must make (Step), and a position
being changed by hand in edit mode (EditBoard)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Protocol

from ..device.protocol import Display, Scene
from ..games.base import Action
from .oled import printable

OK_KEY, BACK_KEY, MENU_KEY = 0, 1, 2           # the board's control buttons

# the session's modes
PLAYING, DICE, MENU, EDIT, OVER = "playing", "dice", "menu", "edit", "over"
REMOTE = "remote"      # a remote game waits for another home's board (docs/remote.md)
OFFER = "offer"        # another home offers to end the remote game: OK agrees, BACK not
MESSAGE_S = 2.0        # a short message (a refusal's reason) stays on the OLED's last line
HOLD_S = 1.0           # BACK held this long: undo; OK held this long: pass
PASS = "pass"          # an Option's kind: giving up the turn (or the rest of it)
ROLL_TITLE = "dice"    # the title of the steps a roll asks for (a KNOCKabout re-roll's face)


class BoardLike(Protocol):
    """What the session and the replay use of a board (`device.Board`, or a test's stand-in):
    an `info` attribute (`protocol.Info`: which board, how many cells) is read if present."""

    def set_scene(self, scene: Scene) -> None: ...

    def show(self, display: Display) -> None: ...

    def sound(self, name: str) -> None: ...

    def poll(self, timeout: float = 0.0) -> list: ...


@dataclass(frozen=True)
class Piece:
    owner: int           # the seat (player number) whose colour it is lit in
    name: str            # what the players call it: "W8=3", "R3", "P1", "pawn"
    color: int = -1      # palette index if it differs from the owner's (K.O. colours)


@dataclass
class View:
    """What the board shows of one position: pieces by space, dice, marks (balls)."""
    pieces: dict                                   # space -> Piece
    marks: dict = field(default_factory=dict)      # space -> mark kind ("ball")
    dice: tuple = ()                               # the dice to show on the OLED
    dice_kind: int = 6
    status: str = ""                               # a short line: "dice 3-4", "throw c3>d6"


@dataclass(frozen=True)
class Option:
    """One legal action and the presses that choose it.

    `path` is the cells pressed in order: (piece, target) for a move, (cell,) for a
    placement, () for an action chosen on the OLED (pass, catch, dodge, end).  Several
    options may share a path (a Dodgeball move payable with a 3 or a 5): the player then
    picks among them on the OLED, in `order`."""
    action: Action
    path: tuple
    label: str           # shown on the OLED (oled.pages wraps it)
    order: int = 0
    kind: str = "move"   # "move", "knock" (the target holds a piece that will be hit), PASS
    # the cell where the piece ends when it is not the path's last (a KNOCKabout die is
    # pointed with a neighbouring cell and travels on): pressing it instead chooses this
    # option too, when it is the landing of no other option
    landing: Optional[int] = None


@dataclass(frozen=True)
class Step:
    """One thing the players do with the physical pieces so the board matches the program.

    kind: "move" (take the piece on src to dst), "remove" (take it off the board),
    "place" (put a piece on dst), "face" (turn the die on src to `value`),
    "ball" (a ball goes to dst, from src if given), "info" (nothing to move: a
    computer's pass or dodge, read and confirmed with OK)."""
    kind: str
    src: Optional[str] = None
    dst: Optional[str] = None
    text: str = ""       # shown on the OLED: "W8 F3>F4", "G3 out e5"
    owner: int = -1      # colour of the piece concerned
    value: int = 0       # "face": the new face
    prev: int = 0        # "face": the face before (for undo)

    def presses(self) -> tuple[Optional[str], ...]:
        """The spaces pressed, in order, that confirm this step instead of OK."""
        if self.kind == "info":
            return ()
        if self.kind == "move":
            return (self.src, self.dst)
        if self.kind in ("remove", "face"):
            return (self.src,)
        return (self.dst,) if self.dst else (self.src,)

    def reversed(self) -> Step:  # noqa: C901 (one line per kind)
        """The step that takes this one back (for undo)."""
        if self.kind in ("move", "ball") and self.src and self.dst:
            return Step(self.kind, self.dst, self.src, _back(self.text), self.owner)
        if self.kind == "remove":
            return Step("place", None, self.src, clip("back " + self.text), self.owner)
        if self.kind == "place":
            return Step("remove", self.dst, None, clip("off " + self.text), self.owner)
        if self.kind == "ball":
            return Step("ball", self.dst, None, clip("ball off " + (self.dst or "")), self.owner)
        if self.kind == "face":
            return Step("face", self.src, None, clip(f"{self.src} back to {self.prev}"),
                        self.owner, self.prev, self.value)
        return self


@dataclass
class EditBoard:
    """A position as edit mode changes it: the pieces on the cells, the pieces off the board,
    whose turn it is, and the rest of the position kept as it was.  Each game's adapter
    makes one from a state and writes it back as a position string for the engine."""
    pieces: dict                                   # space -> Piece
    turn: int                                      # the seat to act
    spare: list = field(default_factory=list)      # Pieces off the board, that may go back on
    extra: dict = field(default_factory=dict)      # the rest (dice, a throw's moves), as it was

    def copy(self) -> EditBoard:
        return EditBoard(dict(self.pieces), self.turn, list(self.spare), dict(self.extra))


def _back(text: str) -> str:
    """A move's text for taking it back: its "from>to" turned round ("W6 E4>E6" becomes
    "back W6 E6>E4"), as the LEDs then ask."""
    head, _, where = text.rpartition(" ")
    src, arrow, dst = where.partition(">")
    if arrow:
        text = f"{head} {dst}>{src}".strip()
    return "back " + text


def clip(text: str) -> str:
    """A text for the OLED: printable ASCII, whole; the session's layout (`oled.pages`)
    wraps or pages it to the 16-character lines, never cutting a word."""
    return printable(text)
