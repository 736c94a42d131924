"""K.O. boards as plain data (RULES.md section 3, ruling KO-0).

A board is a JSON-compatible dict; `board.KOBoard.from_data` checks it and precomputes
what the rules need.  Describing another printed board means writing another such dict (or
a JSON file with the same keys), never changing code:

- "name", "title": identification.
- "spaces": the space names (lower-case letters and digits), in any order.
- "lines": the lines joining spaces, as "a1-b1" strings (undirected; no duplicates).
- "colors": in clockwise seating order; each with a "name", a one-letter upper-case
  "letter" (used in notation and positions) and its six "start" spaces.  The order of the
  start spaces is the quick-start order: piece k goes on the k-th start space.
- "seats": for each player count, the colors each seat plays, seats in clockwise order.
"""

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
