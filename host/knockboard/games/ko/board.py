"""K.O. board geometry: checks a board's data and precomputes where a piece can go.

The rules only ever ask "which spaces can a piece on s reach by a path of exactly k steps
along lines that visits no space twice?".  Pieces on the way do not matter (they are jumped
over), so the answer depends on the board alone and is computed once per board for every
space and every die value: move generation is then a table look-up.
"""

import json
import re

from ..base import GameError
from .boards import BOARDS

PIECES_PER_COLOR = 6          # pieces 1..6, one per die face
MAX_STEPS = 6                 # the largest die value
_NAME = re.compile(r"[a-z0-9]+\Z")
_LETTER = re.compile(r"[A-Z]\Z")


class BoardError(GameError):
    """Board data that does not describe a usable K.O. board."""


class KOBoard:
    """A checked K.O. board.  Spaces and colors are referred to by index."""

    def __init__(self, data):
        try:
            self._load(data)
        except BoardError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise BoardError(f"K.O. board data: malformed ({type(err).__name__}: {err})") \
                from None

    @classmethod
    def from_data(cls, data):
        return cls(data)

    @classmethod
    def from_json(cls, text):
        try:
            data = json.loads(text)
        except ValueError as err:
            raise BoardError(f"K.O. board data: not JSON ({err})") from None
        return cls(data)

    def _load(self, data):
        if not isinstance(data, dict):
            raise BoardError("K.O. board data: expected a dict")
        self.name = str(data.get("name", "custom"))
        self.title = str(data.get("title", self.name))
        self._load_spaces(list(data["spaces"]))
        self._load_lines(data["lines"])
        colors = list(data["colors"])
        self._load_colors(colors)
        self.starts = tuple(self._load_starts(colors))
        self.seats = {int(count): self._load_seating(int(count), seat_list)
                      for count, seat_list in data["seats"].items()}
        self.reach = self._reach_table()

    def _fail(self, message):
        raise BoardError(f"K.O. board {self.name}: {message}")

    def _load_spaces(self, spaces):
        for name in spaces:
            if not isinstance(name, str) or not _NAME.match(name):
                self._fail(f"space name {name!r} must be lower-case letters and digits")
        if len(set(spaces)) != len(spaces):
            dup = next(n for n in spaces if spaces.count(n) > 1)
            self._fail(f"space {dup} listed twice")
        self.spaces = tuple(spaces)
        self.index = {name: i for i, name in enumerate(spaces)}

    def _load_lines(self, data):
        neighbors = [set() for _ in self.spaces]
        lines = []
        for line in data:
            i, j = self._line_ends(line)
            if j in neighbors[i]:
                self._fail(f"line {line!r} listed twice")
            neighbors[i].add(j)
            neighbors[j].add(i)
            lines.append((min(i, j), max(i, j)))
        self.lines = tuple(sorted(lines))
        self.neighbors = tuple(tuple(sorted(n)) for n in neighbors)

    def _line_ends(self, line):
        """The two spaces a line "a-b" (or pair) joins, by index."""
        a, b = line.split("-") if isinstance(line, str) else line
        for end in (a, b):
            if end not in self.index:
                self._fail(f"line {line!r} names unknown space {end!r}")
        if a == b:
            self._fail(f"line {line!r} joins a space to itself")
        return self.index[a], self.index[b]

    def _load_colors(self, colors):
        if len(colors) < 2:
            self._fail("needs at least two colors")
        self.color_names = tuple(str(c["name"]) for c in colors)
        self.letters = tuple(str(c["letter"]) for c in colors)
        for letter in self.letters:
            if not _LETTER.match(letter):
                self._fail(f"color letter {letter!r} must be one upper-case letter")
        if len(set(self.letters)) != len(colors) or len(set(self.color_names)) != len(colors):
            self._fail("color names and letters must differ")

    def _load_starts(self, colors):
        used = set()
        for color in colors:
            start = [self._space(name, f"start space of {color['name']}")
                     for name in color["start"]]
            if len(start) != PIECES_PER_COLOR or len(set(start)) != PIECES_PER_COLOR:
                self._fail(f"{color['name']} needs {PIECES_PER_COLOR} different start spaces")
            if used & set(start):
                self._fail(f"{color['name']} shares a start space with another color")
            used |= set(start)
            yield tuple(start)

    def _load_seating(self, count, seat_list):
        seats = [self._load_seat(count, seat) for seat in seat_list]
        flat = [c for seat in seats for c in seat]
        if len(seats) != count or len(set(flat)) != len(flat):
            self._fail(f"seating for {count} players must give {count} seats distinct colors")
        return tuple(seats)

    def _load_seat(self, count, seat):
        for color in seat:
            if color not in self.color_names:
                self._fail(f"seating for {count} players names unknown color {color!r}")
        if not seat:
            self._fail(f"an empty seat for {count} players")
        return tuple(self.color_names.index(color) for color in seat)

    def _space(self, name, what):
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise BoardError(f"K.O. board {self.name}: {what} {name!r} is not a space") \
                from None

    def _reach_table(self):
        """reach[s][k]: the spaces ending a path of exactly k steps from s that never
        visits a space twice (s included), sorted.

        A depth-first walk over simple paths, pruned where it cannot find anything new:
        an endpoint r more steps away lies within graph distance r, so once every
        unvisited space of that ball is known to be reachable at that depth for every
        remaining r, the branch is done.  81 spaces x 6 depths take ~30 ms."""
        n = len(self.spaces)
        nbrs = self.neighbors
        ball = []
        for v in range(n):
            dist = {v: 0}
            frontier = [v]
            while frontier:
                nxt = []
                for u in frontier:
                    for w in nbrs[u]:
                        if w not in dist:
                            dist[w] = dist[u] + 1
                            nxt.append(w)
                frontier = nxt
            if len(dist) < n:
                # pieces in different parts could never meet, and a game might not end
                lost = next(self.spaces[w] for w in range(n) if w not in dist)
                raise BoardError(f"K.O. board {self.name}: no path of lines joins "
                                 f"{self.spaces[v]} and {lost}")
            masks = [0] * (MAX_STEPS + 1)
            for w, d in dist.items():
                for r in range(d, MAX_STEPS + 1):
                    masks[r] |= 1 << w
            ball.append(masks)

        table = []
        for s in range(n):
            found = [0] * (MAX_STEPS + 1)

            def walk(v, visited, depth):
                masks = ball[v]
                for r in range(1, MAX_STEPS - depth + 1):
                    if masks[r] & ~visited & ~found[depth + r]:
                        break
                else:
                    return
                for w in nbrs[v]:
                    if not visited >> w & 1:
                        found[depth + 1] |= 1 << w
                        if depth + 1 < MAX_STEPS:
                            walk(w, visited | 1 << w, depth + 1)

            walk(s, 1 << s, 0)
            table.append(tuple(tuple(w for w in range(n) if found[k] >> w & 1)
                               for k in range(MAX_STEPS + 1)))
        return tuple(table)

    def __repr__(self):
        return f"<KOBoard {self.name}: {len(self.spaces)} spaces, {len(self.lines)} lines>"


_CACHE: dict = {}


def get_board(name):
    """The packaged board called `name`, built once per process."""
    if name not in _CACHE:
        if name not in BOARDS:
            raise BoardError(f"unknown K.O. board {name!r} (known: {', '.join(sorted(BOARDS))})")
        _CACHE[name] = KOBoard(BOARDS[name])
    return _CACHE[name]
