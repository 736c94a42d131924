"""Dodgeball's board: the chessboard's squares, the king distance between them, each team's
half and back row, and the three starting balls on the center line (RULES.md section 2)."""

# A square is file + 8 * rank, both 0-based: a1 = 0, h1 = 7, a8 = 56.
FILES = "abcdefgh"
SQUARE_NAMES = [FILES[s % 8] + str(s // 8 + 1) for s in range(64)]
SQUARES = {name: s for s, name in enumerate(SQUARE_NAMES)}


def _king_distance(a: int, b: int) -> int:
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


DIST = [[_king_distance(a, b) for b in range(64)] for a in range(64)]

# HALF[team]: the squares a team's pawns may stand on (team 1 ranks 1-4, team 2 ranks 5-8).
HALF = (range(0, 32), range(32, 64))
BACK_ROW = (tuple(range(0, 8)), tuple(range(56, 64)))
QUICK_FILES = "bcdef"
# King steps that stay on the team's own half: paths of a MOVE never leave it (D-2).
STEPS = tuple(
    tuple(tuple(n for n in range(64) if DIST[s][n] == 1 and n in HALF[team]) for s in range(64))
    for team in (0, 1))

# The three starting balls sit on the center line at the corners a|b, d|e, g|h; each touches
# the two squares on each side of the line.  They are named by the files they lie between.
START_NAMES = ("ab", "de", "gh")
START_TOUCH = tuple(tuple(SQUARES[f + r] for f in pair for r in "45") for pair in START_NAMES)
TOUCHES = [-1] * 64          # square -> index of the starting ball it touches, or -1
for _ball, _squares in enumerate(START_TOUCH):
    for _s in _squares:
        TOUCHES[_s] = _ball
