"""K.O. boards: the boards as plain data (RULES.md section 3, ruling KO-0), checked and
precomputed into what the rules ask of them.

A board is a JSON-compatible dict; `KOBoard` checks it and precomputes what the rules
need.  Describing another printed board means writing another such dict (or
a JSON file with the same keys), never changing code:

- "name", "title": identification.
- "spaces": the space names (lower-case letters and digits), in any order.
- "lines": the lines joining spaces, as "a1-b1" strings (undirected; no duplicates).
- "colors": in clockwise seating order; each with a "name", a one-letter upper-case
  "letter" (used in notation and positions) and its six "start" spaces.  The order of the
  start spaces is the quick-start order: piece k goes on the k-th start space.
- "seats": for each player count, the colors each seat plays, seats in clockwise order.

The rules only ever ask "which spaces can a piece on s reach by a path of exactly k steps
along lines that visits no space twice?".  Pieces on the way do not matter (they are jumped
over), so the answer depends on the board alone and is computed once per board for every
space and every die value: move generation is then a table look-up.
"""

import json
import re
from typing import Any, Iterable, Iterator, List, NoReturn, Set, Tuple

from ..base import BoardDataError

PIECES_PER_COLOR = 6          # pieces 1..6, one per die face
MAX_STEPS = 6                 # the largest die value
_NAME = re.compile(r"[a-z0-9]+\Z")
_LETTER = re.compile(r"[A-Z]\Z")

# The standard board: a 9x9 lattice, files a..i, ranks 1..9, a1 bottom-left.  Lines join
# every orthogonal neighbor pair, and the diagonal neighbors whose endpoints have an even
# coordinate sum (a1 = (0, 0)), as on an alquerque board: 144 + 64 = 208 lines.  Listed
# rank by rank, each space with its lines going right and up.
STANDARD = {
    "name": "standard",
    "title": "K.O. standard board: 9x9 lattice with alquerque diagonals",
    "spaces": [f + r for r in "123456789" for f in "abcdefghi"],
    "lines": """
        a1-b1 a1-a2 a1-b2 b1-c1 b1-b2 c1-d1 c1-c2 c1-d2 c1-b2 d1-e1 d1-d2 e1-f1 e1-e2
        e1-f2 e1-d2 f1-g1 f1-f2 g1-h1 g1-g2 g1-h2 g1-f2 h1-i1 h1-h2 i1-i2 i1-h2
        a2-b2 a2-a3 b2-c2 b2-b3 b2-c3 b2-a3 c2-d2 c2-c3 d2-e2 d2-d3 d2-e3 d2-c3 e2-f2
        e2-e3 f2-g2 f2-f3 f2-g3 f2-e3 g2-h2 g2-g3 h2-i2 h2-h3 h2-i3 h2-g3 i2-i3
        a3-b3 a3-a4 a3-b4 b3-c3 b3-b4 c3-d3 c3-c4 c3-d4 c3-b4 d3-e3 d3-d4 e3-f3 e3-e4
        e3-f4 e3-d4 f3-g3 f3-f4 g3-h3 g3-g4 g3-h4 g3-f4 h3-i3 h3-h4 i3-i4 i3-h4
        a4-b4 a4-a5 b4-c4 b4-b5 b4-c5 b4-a5 c4-d4 c4-c5 d4-e4 d4-d5 d4-e5 d4-c5 e4-f4
        e4-e5 f4-g4 f4-f5 f4-g5 f4-e5 g4-h4 g4-g5 h4-i4 h4-h5 h4-i5 h4-g5 i4-i5
        a5-b5 a5-a6 a5-b6 b5-c5 b5-b6 c5-d5 c5-c6 c5-d6 c5-b6 d5-e5 d5-d6 e5-f5 e5-e6
        e5-f6 e5-d6 f5-g5 f5-f6 g5-h5 g5-g6 g5-h6 g5-f6 h5-i5 h5-h6 i5-i6 i5-h6
        a6-b6 a6-a7 b6-c6 b6-b7 b6-c7 b6-a7 c6-d6 c6-c7 d6-e6 d6-d7 d6-e7 d6-c7 e6-f6
        e6-e7 f6-g6 f6-f7 f6-g7 f6-e7 g6-h6 g6-g7 h6-i6 h6-h7 h6-i7 h6-g7 i6-i7
        a7-b7 a7-a8 a7-b8 b7-c7 b7-b8 c7-d7 c7-c8 c7-d8 c7-b8 d7-e7 d7-d8 e7-f7 e7-e8
        e7-f8 e7-d8 f7-g7 f7-f8 g7-h7 g7-g8 g7-h8 g7-f8 h7-i7 h7-h8 i7-i8 i7-h8
        a8-b8 a8-a9 b8-c8 b8-b9 b8-c9 b8-a9 c8-d8 c8-c9 d8-e8 d8-d9 d8-e9 d8-c9 e8-f8
        e8-e9 f8-g8 f8-f9 f8-g9 f8-e9 g8-h8 g8-g9 h8-i8 h8-h9 h8-i9 h8-g9 i8-i9
        a9-b9 b9-c9 c9-d9 d9-e9 e9-f9 f9-g9 g9-h9 h9-i9
    """.split(),
    "colors": [
        {"name": "red", "letter": "R", "start": ["a1", "b1", "c1", "a2", "b2", "a3"]},
        {"name": "green", "letter": "G", "start": ["a9", "b9", "c9", "a8", "b8", "a7"]},
        {"name": "yellow", "letter": "Y", "start": ["i9", "h9", "g9", "i8", "h8", "i7"]},
        {"name": "blue", "letter": "B", "start": ["i1", "h1", "g1", "i2", "h2", "i3"]},
    ],
    "seats": {
        "2": [["red", "blue"], ["green", "yellow"]],
        "3": [["red"], ["green"], ["yellow"]],
        "4": [["red"], ["green"], ["yellow"], ["blue"]],
    },
}

BOARDS = {"standard": STANDARD}


class KOBoard:
    """A checked K.O. board.  Spaces and colors are referred to by index."""

    def __init__(self, data: Any) -> None:
        try:
            self._load(data)
        except BoardDataError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise BoardDataError(f"K.O. board data: malformed ({type(err).__name__}: {err})") \
                from None

    @classmethod
    def from_data(cls, data: Any) -> "KOBoard":
        return cls(data)

    @classmethod
    def from_json(cls, text: str) -> "KOBoard":
        try:
            data = json.loads(text)
        except ValueError as err:
            raise BoardDataError(f"K.O. board data: not JSON ({err})") from None
        return cls(data)

    def _load(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise BoardDataError("K.O. board data: expected a dict")
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

    def _fail(self, message: str) -> NoReturn:
        raise BoardDataError(f"K.O. board {self.name}: {message}")

    def _load_spaces(self, spaces: List[Any]) -> None:
        for name in spaces:
            if not isinstance(name, str) or not _NAME.match(name):
                self._fail(f"space name {name!r} must be lower-case letters and digits")
        if len(set(spaces)) != len(spaces):
            dup = next(n for n in spaces if spaces.count(n) > 1)
            self._fail(f"space {dup} listed twice")
        self.spaces = tuple(spaces)
        self.index = {name: i for i, name in enumerate(spaces)}

    def _load_lines(self, data: Iterable[Any]) -> None:
        neighbors: List[Set[int]] = [set() for _ in self.spaces]
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

    def _line_ends(self, line: Any) -> Tuple[int, int]:
        """The two spaces a line "a-b" (or pair) joins, by index."""
        a, b = line.split("-") if isinstance(line, str) else line
        for end in (a, b):
            if end not in self.index:
                self._fail(f"line {line!r} names unknown space {end!r}")
        if a == b:
            self._fail(f"line {line!r} joins a space to itself")
        return self.index[a], self.index[b]

    def _load_colors(self, colors: List[Any]) -> None:
        if len(colors) < 2:
            self._fail("needs at least two colors")
        self.color_names = tuple(str(c["name"]) for c in colors)
        self.letters = tuple(str(c["letter"]) for c in colors)
        for letter in self.letters:
            if not _LETTER.match(letter):
                self._fail(f"color letter {letter!r} must be one upper-case letter")
        if len(set(self.letters)) != len(colors) or len(set(self.color_names)) != len(colors):
            self._fail("color names and letters must differ")

    def _load_starts(self, colors: List[Any]) -> Iterator[Tuple[int, ...]]:
        used: Set[int] = set()
        for color in colors:
            start = [self._space(name, f"start space of {color['name']}")
                     for name in color["start"]]
            if len(start) != PIECES_PER_COLOR or len(set(start)) != PIECES_PER_COLOR:
                self._fail(f"{color['name']} needs {PIECES_PER_COLOR} different start spaces")
            if used & set(start):
                self._fail(f"{color['name']} shares a start space with another color")
            used |= set(start)
            yield tuple(start)

    def _load_seating(self, count: int, seat_list: Iterable[Any]) -> Tuple[Tuple[int, ...], ...]:
        seats = [self._load_seat(count, seat) for seat in seat_list]
        flat = [c for seat in seats for c in seat]
        if len(seats) != count or len(set(flat)) != len(flat):
            self._fail(f"seating for {count} players must give {count} seats distinct colors")
        return tuple(seats)

    def _load_seat(self, count: int, seat: Any) -> Tuple[int, ...]:
        for color in seat:
            if color not in self.color_names:
                self._fail(f"seating for {count} players names unknown color {color!r}")
        if not seat:
            self._fail(f"an empty seat for {count} players")
        return tuple(self.color_names.index(color) for color in seat)

    def _space(self, name: Any, what: str) -> int:
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise BoardDataError(f"K.O. board {self.name}: {what} {name!r} is not a space") \
                from None

    def _reach_table(self) -> Tuple[Tuple[Tuple[int, ...], ...], ...]:
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
                raise BoardDataError(f"K.O. board {self.name}: no path of lines joins "
                                 f"{self.spaces[v]} and {lost}")
            masks = [0] * (MAX_STEPS + 1)
            for w, d in dist.items():
                for r in range(d, MAX_STEPS + 1):
                    masks[r] |= 1 << w
            ball.append(masks)

        table = []
        for s in range(n):
            found = [0] * (MAX_STEPS + 1)

            def walk(v: int, visited: int, depth: int) -> None:
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

    def __repr__(self) -> str:
        return f"<KOBoard {self.name}: {len(self.spaces)} spaces, {len(self.lines)} lines>"


_CACHE: dict = {}


def get_board(name: str) -> "KOBoard":
    """The packaged board called `name`, built once per process."""
    if name not in _CACHE:
        if name not in BOARDS:
            raise BoardDataError(f"unknown K.O. board {name!r} "
                                 f"(known: {', '.join(sorted(BOARDS))})")
        _CACHE[name] = KOBoard(BOARDS[name])
    return _CACHE[name]
