"""Shared helpers of the K.O. tests: positions built from dicts, and an oracle for paths.

The oracle re-derives the standard board from the words of RULES.md section 3 and
enumerates simple paths by brute force, independently of the engine's board tables.
"""

from knockboard.games import get_game

FILES = "abcdefghi"
LETTERS = "RGYB"                       # clockwise seating order of the standard board
SEATS = {2: "RB/GY", 3: "R/G/Y", 4: "R/G/Y/B"}
COLORS_IN_PLAY = {2: "RBGY", 3: "RGY", 4: "RGYB"}   # seat by seat
POINTS = {1: 3, 2: 2, 3: 1, 4: 1, 5: 2, 6: 3}   # the sheet's table
STARTS = {
    "R": ["a1", "b1", "c1", "a2", "b2", "a3"],
    "G": ["a9", "b9", "c9", "a8", "b8", "a7"],
    "Y": ["i9", "h9", "g9", "i8", "h8", "i7"],
    "B": ["i1", "h1", "g1", "i2", "h2", "i3"],
}


def standard_graph():
    """Spaces a1..i9; orthogonal neighbors, and diagonal neighbors whose endpoints have an
    even coordinate sum (a1 = (0, 0))."""
    graph = {}
    for x in range(9):
        for y in range(9):
            name = f"{FILES[x]}{y + 1}"
            graph[name] = set()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (dx, dy) == (0, 0):
                        continue
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < 9 and 0 <= ny < 9):
                        continue
                    if dx and dy and (x + y) % 2:
                        continue
                    graph[name].add(f"{FILES[nx]}{ny + 1}")
    return graph


GRAPH = standard_graph()


def path_ends(start, steps, graph=GRAPH):
    """Every space where a path of exactly `steps` steps from `start` can end, never
    visiting a space twice (the start included)."""
    ends = set()

    def walk(here, seen, left):
        if left == 0:
            ends.add(here)
            return
        for nxt in graph[here]:
            if nxt not in seen:
                walk(nxt, seen | {nxt}, left - 1)

    walk(start, {start}, steps)
    return ends


def position(players, phase, **colors):
    """A position string; colors not given have all their pieces out."""
    fields = [SEATS[players], phase]
    for letter in COLORS_IN_PLAY[players]:
        fields.append(f"{letter}=" + ",".join(colors.get(letter, ["-"] * 6)))
    return " ".join(fields)


def state_of(players, phase, **colors):
    game = get_game("ko", players=players)
    return game.from_position(position(players, phase, **colors))


def seat_of(players, letter):
    return next(i for i, seat in enumerate(SEATS[players].split("/")) if letter in seat)


def expected_moves(players, colors, piece, steps):
    """Notation of the moves of `piece` (e.g. 'R3') by `steps` in the position `colors`,
    by the rules: any simple path end that is empty or holds an opponent's piece of the
    same number (written with 'x')."""
    letter, number = piece[0], int(piece[1])
    start = colors[letter][number - 1]
    occupant = {}
    for other, spots in colors.items():
        for k, spot in enumerate(spots):
            if spot not in ("-", "?"):
                occupant[spot] = (other, k + 1)
    moves = set()
    for end in path_ends(start, steps):
        if end not in occupant:
            moves.add(f"{piece}-{end}")
        else:
            other, other_number = occupant[end]
            if other_number == number and seat_of(players, other) != seat_of(players, letter):
                moves.add(f"{piece}x{end}")
    return moves


def quick_start(players):
    return {letter: list(STARTS[letter]) for letter in COLORS_IN_PLAY[players]}
