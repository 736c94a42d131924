"""A second, deliberately naive KNOCKabout mover written straight from RULES.md section 1.

It shares no code or tables with the engine: cells are axial (q, r) pairs named with the
formula from the rules, the gutter is the ring at distance 6, and a gutter die finds its way
round the ring by always stepping to the ring neighbour it did not come from.  Tests compare
its result with the engine's for every legal move of many positions."""

RADIUS = 6
DIRS = {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)}


def on_board(q, r):
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def in_gutter(q, r):
    return max(abs(q), abs(r), abs(q + r)) == RADIUS


def name_to_qr(name):
    q = "ABCDEFGHIJKLM".index(name[0]) - RADIUS
    r_max = min(RADIUS, RADIUS - q)
    return q, r_max - int(name[1:]) + 1


def qr_to_name(q, r):
    r_max = min(RADIUS, RADIUS - q)
    return "ABCDEFGHIJKLM"[q + RADIUS] + str(r_max - r + 1)


def parse(position):
    tokens = position.split()
    side, dice, roll = tokens[0], {}, None
    for tok in tokens[1:]:
        if tok.startswith("roll:"):
            roll = name_to_qr(tok[5:])
            continue
        cell, die = tok.split(":")
        dice[name_to_qr(cell)] = (die[0], int(die[1]), int(die.split("=")[1]))
    return side, dice, roll


def fmt(side, dice, roll):
    order = sorted(dice, key=lambda qr: (qr[0], -qr[1]))   # column, then row from the bottom
    parts = [side] + [f"{qr_to_name(*qr)}:{o}{s}={f}" for qr in order for o, s, f in [dice[qr]]]
    if roll is not None:
        parts.append("roll:" + qr_to_name(*roll))
    return " ".join(parts)


def ring_neighbours(q, r):
    return [(q + dq, r + dr) for dq, dr in DIRS.values()
            if on_board(q + dq, r + dr) and in_gutter(q + dq, r + dr)]


def move(position, notation):
    """The position after `notation` (e.g. 'F3-N') by the rules text; `roll:` marks a reroll."""
    side, dice, _ = parse(position)
    name, dname = notation.split("-")
    start = name_to_qr(name)
    dq, dr = DIRS[dname]
    budget = dice[start][2]
    mover, hit = start, None
    if in_gutter(*start):
        came_from = None
        first = (start[0] + dq, start[1] + dr)
        assert first in ring_neighbours(*start), "not a ring direction"

        def next_cell(cell, came):
            if came is None:
                return first
            return next(n for n in ring_neighbours(*cell) if n != came)
        position_of_mover = start
        while budget > 0:
            nxt = next_cell(position_of_mover, came_from)
            if nxt in dice:
                hit = mover = nxt
                # the hit die continues the same way round: it "came from" the cell before it
                came_from = position_of_mover
                position_of_mover = nxt
                continue
            dice[nxt] = dice.pop(position_of_mover)
            came_from, position_of_mover = position_of_mover, nxt
            mover = nxt
            budget -= 1
    else:
        while budget > 0:
            if in_gutter(*mover):          # a gutter die hit from the main board cannot move
                break
            nxt = (mover[0] + dq, mover[1] + dr)
            if nxt in dice:
                hit = mover = nxt
                continue
            dice[nxt] = dice.pop(mover)
            mover = nxt
            budget -= 1
            if in_gutter(*nxt):
                break
    if hit is None:
        return fmt("B" if side == "W" else "W", dice, None)
    return fmt(side, dice, mover)
