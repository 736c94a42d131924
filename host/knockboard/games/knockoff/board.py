"""Knock-Off boards as data (RULES.md section 4, KO-F0).

The printed sheet lost its picture, so the board is a description in a small text format,
compiled once into lookup tables for the engine.  Describing another printed board means
writing another description (and passing it as the game's `board` option), not code.

Format, one statement per line, `#` starts a comment:

    homes H1>1a H2>1c ...           home bases and the platform each one's arrow leads to
    seats 2 H1 H3                   the home bases used by N players, in clockwise order
    arrows 1a>2a,2b 1b>2b,2a ...    arrows from a platform to platforms one level up

A platform is named `<level><label>` (`3c`: level 3, label c); its number is its level, the
price of stepping onto it.  A home base is named `H<digits>` and counts as level 0.  The top
row is the highest level.
"""

import re
from typing import Dict, List, Tuple

from ..base import BoardDataError

MAX_ROLL = 12  # two d6: the largest value one move can cost

STANDARD = """\
# The standard Knock-Off board: 6 levels x 8 platforms, the columns a..h forming a ring
# (a round tower seen from above).  Every platform has an arrow straight up and one
# crossing arrow: on odd levels within the pairs a-b c-d e-f g-h, on even levels within
# b-c d-e f-g h-a.
homes H1>1a H2>1c H3>1e H4>1g
seats 2 H1 H3
seats 3 H1 H2 H3
seats 4 H1 H2 H3 H4
arrows 1a>2a,2b 1b>2b,2a 1c>2c,2d 1d>2d,2c 1e>2e,2f 1f>2f,2e 1g>2g,2h 1h>2h,2g
arrows 2a>3a,3h 2b>3b,3c 2c>3c,3b 2d>3d,3e 2e>3e,3d 2f>3f,3g 2g>3g,3f 2h>3h,3a
arrows 3a>4a,4b 3b>4b,4a 3c>4c,4d 3d>4d,4c 3e>4e,4f 3f>4f,4e 3g>4g,4h 3h>4h,4g
arrows 4a>5a,5h 4b>5b,5c 4c>5c,5b 4d>5d,5e 4e>5e,5d 4f>5f,5g 4g>5g,5f 4h>5h,5a
arrows 5a>6a,6b 5b>6b,6a 5c>6c,6d 5d>6d,6c 5e>6e,6f 5f>6f,6e 5g>6g,6h 5h>6h,6g
"""

_PLATFORM_RE = re.compile(r"([1-9][0-9]*)([a-z]+)")
_HOME_RE = re.compile(r"H[1-9][0-9]*")
# A description as read: (homes {home: platform}, seats {count: [home]}, arrows
# {platform: [platform]})
Description = Tuple[Dict[str, str], Dict[int, List[str]], Dict[str, List[str]]]


class KnockoffBoard:
    """A compiled board.

    Nodes are numbered: platforms 0..num_platforms-1 ordered by (level, label), then the
    home bases in the order of the `homes` statement.  Tables, indexed by node:
    `level`, `names`, `arrows` (targets), `reach[node][cost]` (tuple of platforms a move of
    exactly `cost` ends on, cost <= MAX_ROLL), `cost[node]` (dict platform -> price of a
    move there, for every platform reachable by arrows)."""

    def __init__(self, text: str, name: str = "custom") -> None:
        self.name = name
        self.text = text
        homes, seats, arrows = _parse(text)
        level_of = _levels(homes, arrows)
        order = sorted(level_of, key=lambda p: (level_of[p], _platform(p)[1]))
        self.top = max(level_of.values())
        self.num_platforms = len(order)
        self.home_names = list(homes)
        self.names = order + self.home_names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.num_nodes = len(self.names)
        self.level = [level_of[p] for p in order] + [0] * len(homes)
        self.is_top = [lv == self.top for lv in self.level]
        self.arrows = self._arrows(homes, arrows, level_of)
        self.seats = {count: self._seating(count, names, homes) for count, names in seats.items()}
        self.cost = [self._costs(n) for n in range(self.num_nodes)]
        self.reach = [self._reach(n) for n in range(self.num_nodes)]

    def _arrows(self, homes: Dict[str, str], arrows: Dict[str, List[str]],
                level_of: Dict[str, int]) -> List[Tuple[int, ...]]:
        targets: List[List[int]] = [[] for _ in range(self.num_nodes)]
        for home, platform in homes.items():
            if level_of[platform] != 1:
                raise BoardDataError(f"{home}>{platform}: a home base's arrow must lead "
                                     "to level 1")
            targets[self.index[home]].append(self.index[platform])
        for src, dsts in arrows.items():
            for dst in dsts:
                if level_of[dst] != level_of[src] + 1:
                    # The price of a move is the sum of the levels climbed (RULES.md 4); an
                    # arrow skipping or descending levels would leave it undefined.
                    raise BoardDataError(f"{src}>{dst}: an arrow must climb exactly one level")
                if self.index[dst] in targets[self.index[src]]:
                    raise BoardDataError(f"{src}>{dst}: arrow listed twice")
                targets[self.index[src]].append(self.index[dst])
        return [tuple(sorted(t)) for t in targets]

    def _seating(self, count: int, names: List[str], homes: Dict[str, str]) -> Tuple[int, ...]:
        for h in names:
            if h not in homes:
                raise BoardDataError(f"seats {count}: unknown home base {h}")
        if len(set(names)) != len(names):
            raise BoardDataError(f"seats {count}: a home base is listed twice")
        return tuple(self.index[h] for h in names)

    def _reach(self, node: int) -> List[Tuple[int, ...]]:
        by_cost: List[List[int]] = [[] for _ in range(MAX_ROLL + 1)]
        for dst, c in self.cost[node].items():
            if c <= MAX_ROLL:
                by_cost[c].append(dst)
        return [tuple(sorted(d)) for d in by_cost]

    def _costs(self, start: int) -> Dict[int, int]:
        # Every arrow climbs one level, so all paths to a platform cost the same.
        costs: Dict[int, int] = {}
        frontier = [start]
        spent = 0
        while frontier:
            nxt: set = set()
            for node in frontier:
                nxt.update(self.arrows[node])
            if not nxt:
                break
            spent += self.level[next(iter(nxt))]
            for node in nxt:
                costs[node] = spent
            frontier = sorted(nxt)
        return costs

    def __repr__(self) -> str:
        return f"<Knock-Off board {self.name!r}>"


def _platform(name: str) -> Tuple[int, str]:
    """(level, label) of a platform name the statements' readers checked: "3b" -> (3, "b")."""
    found = _PLATFORM_RE.fullmatch(name)
    if found is None:
        raise BoardDataError(f"{name!r} is not a platform like 3b")
    return int(found.group(1)), found.group(2)


def _levels(homes: Dict[str, str], arrows: Dict[str, List[str]]) -> Dict[str, int]:
    """{platform: level} of every platform the arrows and home bases name."""
    platforms = set(homes.values())
    for src, dsts in arrows.items():
        platforms.add(src)
        platforms.update(dsts)
    if not platforms:
        raise BoardDataError("the board has no platforms")
    level_of = {p: _platform(p)[0] for p in platforms}
    top = max(level_of.values())
    missing = sorted(set(range(1, top + 1)) - set(level_of.values()))
    if missing:
        raise BoardDataError(f"no platform on level {missing[0]} (levels must be 1..{top})")
    return level_of


def _parse(text: str) -> Description:
    """(homes {home: platform}, seats {count: [home]}, arrows {platform: [platform]}) of
    a description, each statement read by its own function."""
    board: Description = ({}, {}, {})
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        where = f"board line {number}"
        read = _STATEMENTS.get(line[0])
        if read is None:
            raise BoardDataError(f"{where}: unknown statement {line[0]!r} "
                                 f"(expected homes, seats or arrows)")
        read(board, where, line[1:])
    if not board[0]:
        raise BoardDataError("the board has no home bases (a 'homes' statement)")
    if not board[1]:
        raise BoardDataError("the board has no 'seats' statement")
    return board


def _read_homes(board: Description, where: str, args: List[str]) -> None:
    homes = board[0]
    for item in args:
        home, sep, platform = item.partition(">")
        if not sep or not _HOME_RE.fullmatch(home) or not _PLATFORM_RE.fullmatch(platform):
            raise BoardDataError(f"{where}: {item!r} is not <home>><platform> like H1>1a")
        if home in homes:
            raise BoardDataError(f"{where}: home base {home} declared twice")
        homes[home] = platform


def _read_seats(board: Description, where: str, args: List[str]) -> None:
    seats = board[1]
    if not args or not args[0].isdigit():
        raise BoardDataError(f"{where}: expected 'seats <count> <home> ...'")
    count = int(args[0])
    if len(args) - 1 != count:
        raise BoardDataError(f"{where}: seats {count} lists {len(args) - 1} home bases")
    if count in seats:
        raise BoardDataError(f"{where}: seats {count} given twice")
    seats[count] = args[1:]


def _read_arrows(board: Description, where: str, args: List[str]) -> None:
    arrows = board[2]
    for item in args:
        src, sep, rest = item.partition(">")
        dsts = rest.split(",") if sep else []
        if not _PLATFORM_RE.fullmatch(src) or not dsts or \
                not all(_PLATFORM_RE.fullmatch(d) for d in dsts):
            raise BoardDataError(f"{where}: {item!r} is not <platform>><platform>,... "
                                 f"like 1a>2a,2b")
        arrows.setdefault(src, []).extend(dsts)


_STATEMENTS = {"homes": _read_homes, "seats": _read_seats, "arrows": _read_arrows}


_BOARDS = {"standard": STANDARD}
_compiled: dict = {}


def board_names() -> List[str]:
    return sorted(_BOARDS)


def get_board(name: str) -> "KnockoffBoard":
    """The named built-in board, compiled once."""
    if name not in _compiled:
        _compiled[name] = KnockoffBoard(_BOARDS[name], name)
    return _compiled[name]
