"""K.O. on the board: each player places pieces 1-6 secretly on their start spaces (the
OLED names the piece, the free start spaces light up); on a turn, press a piece and then
the space where it ends.  The piece's number decides which value of the throw it moves.
In edit mode pieces are moved, knocked out (off the board) and put back; the throw's moves
left stay as they are."""

from ..types import EditBoard, Option, Piece, Step, View, clip
from .base import GameUI

LETTERS = "RGYB"
NAMES = {"R": "Red", "G": "Green", "Y": "Yellow", "B": "Blue"}


class Parsed:
    def __init__(self, text):
        fields = text.split()
        self.seats = fields[0].split("/")          # ["R", "G"] or ["RB", "GY"]
        self.phase = fields[1]
        self.spaces = {}                           # "R3" -> space
        for f in fields[2:]:
            color, _, value = f.partition("=")
            for number, space in enumerate(value.split(","), 1):
                if space not in ("-", "?"):
                    self.spaces[f"{color}{number}"] = space

    def seat_of(self, color):
        return next(i for i, s in enumerate(self.seats) if color in s)


class KOUI(GameUI):
    name = "ko"
    PALETTE = {"R": (255, 0, 0), "G": (0, 255, 0), "Y": (255, 170, 0), "B": (0, 60, 255)}
    TARGET = (255, 255, 255)

    def color(self, index):
        return self.PALETTE[LETTERS[index % 4]]

    def view(self, state):
        p = Parsed(state.to_position())
        pieces = {space: Piece(p.seat_of(name[0]), name, LETTERS.index(name[0]))
                  for name, space in p.spaces.items()}
        dice, status = (), ""
        if p.phase.startswith("turn:") and not p.phase.endswith(":roll"):
            tasks = p.phase.split(":")[2].split(",")
            dice = tuple(int(t.split(">")[1]) for t in tasks)
            status = " ".join(tasks)
        return View(pieces, {}, dice, 6, status)

    def seat_color(self, seat):
        """The colour a seat is shown in: its (first) colour's."""
        seats = self.game.num_players
        letters = ("RB", "GY") if seats == 2 else LETTERS[:seats]
        return LETTERS.index(letters[seat][0])

    def option(self, state, action):
        text = state.action_to_string(action)
        if "@" in text:
            return Option(action, (self.cell(text.split("@")[1]),), clip(text))
        if text == "pass":
            return Option(action, (), "pass")
        piece, dst = text[:2], text[3:]
        src = Parsed(state.to_position()).spaces[piece]
        return Option(action, (self.cell(src), self.cell(dst)), clip(text), 0,
                      "knock" if text[2] == "x" else "move")

    def prompt(self, state):
        p = Parsed(state.to_position())
        if p.phase.startswith("setup:"):
            piece = p.phase[6:]
            return clip(f"{NAMES[piece[0]]}: put {piece}")
        seat = self.seat_name(state.current_player())
        # "Green+Yellow to move" is 20 characters: the OLED line holds 16
        return clip(f"{seat} to move" if len(seat) <= 8 else seat)

    def hides(self, state, action):
        return state.to_position().split()[1].startswith("setup:")

    def steps(self, before, action, after):
        text = before.action_to_string(action)
        p = Parsed(before.to_position())
        if "@" in text:
            piece, dst = text.split("@")
            return [Step("place", None, dst, clip(f"{piece} on {dst}"), p.seat_of(piece[0]))]
        if len(text) < 4 or text[2] not in "-x":
            return []
        piece, dst = text[:2], text[3:]
        src = p.spaces[piece]
        out = []
        if text[2] == "x":
            victim = next(n for n, s in p.spaces.items() if s == dst)
            out.append(Step("remove", dst, None, clip(f"{victim} out {dst}"), p.seat_of(victim[0])))
        out.append(Step("move", src, dst, clip(f"{piece} {src}>{dst}"), p.seat_of(piece[0])))
        return out

    def dice_labels(self, state):
        return ["d6", "d6"]

    # --- edit mode ----------------------------------------------------------------------------
    def edit_refusal(self, state):
        reason = super().edit_refusal(state)
        if reason is None and state.to_position().split()[1].startswith("setup:"):
            return "setup"                    # the set-up is secret
        return reason

    def edit_board(self, state):
        text = state.to_position()
        p, fields = Parsed(text), text.split()
        colors = [f.partition("=")[0] for f in fields[2:]]
        pieces = {space: self._piece(p, name) for name, space in p.spaces.items()}
        spare = [self._piece(p, f"{c}{k}") for c in colors for k in range(1, 7)
                 if f"{c}{k}" not in p.spaces]
        _, seat, moves = (fields[1].split(":") + ["", ""])[:3]
        turn = p.seats.index(seat) if seat in p.seats else 0
        return EditBoard(pieces, turn, spare, {"seats": tuple(p.seats), "colors": tuple(colors),
                                               "moves": moves})

    def _piece(self, parsed, name):
        return Piece(parsed.seat_of(name[0]), name, LETTERS.index(name[0]))

    def edit_settings(self, board):
        seat = self.seat_name(board.turn)
        if len(seat) > 8:                   # "Green+Yellow": the OLED line holds 14 after "> "
            seat = board.extra["seats"][board.turn]
        label = f"{seat} to move" if len(seat) <= 6 else f"turn: {seat}"
        return [("turn", clip(label))]

    def edit_position(self, board):
        where = {piece.name: space for space, piece in board.pieces.items()}
        seats = board.extra["seats"]
        fields = ["/".join(seats), f"turn:{seats[board.turn]}:{board.extra['moves']}"]
        for c in board.extra["colors"]:
            fields.append(f"{c}=" + ",".join(where.get(f"{c}{k}", "-") for k in range(1, 7)))
        return " ".join(fields)
