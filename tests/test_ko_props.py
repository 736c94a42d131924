"""K.O. properties over random play, driven by hypothesis-drawn seeds: knock-outs, the end
and the points as the rules say. The engine contract (undo, position and notation round
trips) is checked with every other game's in tests/test_engine_contract.py.

Each game is played from the real start (set-up, roll-off included) by random players that
prefer knock-outs with some probability, so that games end in a few hundred plies."""

import random

from hypothesis import given
from hypothesis import strategies as st

from knockboard.games import get_game, sample_chance

from ko_helpers import POINTS

MAX_PLIES = 200_000


def parse_fields(text):
    """seat of every color letter, and {piece: space or '-' or '?'} from a position."""
    fields = text.split()
    seat_of = {letter: seat for seat, token in enumerate(fields[0].split("/"))
               for letter in token}
    pieces = {}
    for field in fields[2:]:
        letter, _, spots = field.partition("=")
        for number, spot in enumerate(spots.split(","), 1):
            pieces[(letter, number)] = spot
    return fields[1], seat_of, pieces


def points_by_hand(text):
    _, seat_of, pieces = parse_fields(text)
    totals = [0] * (max(seat_of.values()) + 1)
    for (letter, number), spot in pieces.items():
        if spot not in "-?":
            totals[seat_of[letter]] += POINTS[number]
    return totals


def knockout_possible_by_hand(text):
    _, seat_of, pieces = parse_fields(text)
    for number in range(1, 7):
        seats = {seat_of[letter] for (letter, n), spot in pieces.items()
                 if n == number and spot not in "-?"}
        if len(seats) > 1:
            return True
    return False


def choose(state, rng, bias):
    if state.is_chance_node():
        return sample_chance(state, rng)
    legal = state.legal_actions()
    knocks = [a for a in legal if "x" in state.action_to_string(a)[2:3]]
    if knocks and rng.random() < bias:
        return rng.choice(knocks)
    return rng.choice(legal)


def check_ply(game, state, action):
    """Plays `action`; the knock-out it made, if any, is KO's: the mover's number, another
    seat's piece, the mover on its space. Returns the pieces knocked out."""
    before = state.to_position()
    notation = state.action_to_string(action)
    state.apply(action)
    after = state.to_position()

    # the knock-out, if any: same number, another seat
    _, seat_of, old = parse_fields(before)
    _, _, new = parse_fields(after)
    gone = [piece for piece in old if old[piece] not in "-?" and new[piece] == "-"]
    assert len(gone) <= 1
    if gone:
        mover = notation[:1], int(notation[1:2])
        assert notation[2] == "x"
        assert gone[0][1] == mover[1]
        assert seat_of[gone[0][0]] != seat_of[mover[0]]
        assert new[mover] == old[gone[0]]
    assert state.points() == points_by_hand(after)
    phase = after.split()[1].split(":")[0]
    if after.split()[1] == "end:quiet":        # KO-3: full rounds without a knock-out
        assert knockout_possible_by_hand(after)
    else:
        assert (phase == "end") == (phase not in ("setup", "rolloff")
                                    and not knockout_possible_by_hand(after))
    return gone


@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([2, 3, 4]),
       quick=st.booleans(), bias=st.floats(0.3, 1.0))
def test_random_games_knock_out_by_the_rules_and_score_by_hand(seed, players, quick, bias):
    game = get_game("ko", players=players, quick_start=quick)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        check_ply(game, state, choose(state, rng, bias))
        assert len(state.history) < MAX_PLIES
    assert state.returns() == [float(p) for p in points_by_hand(state.to_position())]


@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_games_always_end_and_score_by_the_table(seed, players):
    game = get_game("ko", players=players, quick_start=True)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        mover = None
        if not state.is_chance_node():
            action = rng.choice(state.legal_actions())
            if action < game.setup_base:
                mover = action // game.num_spaces
        else:
            action = sample_chance(state, rng)
        state.apply(action)
        victim = state.last_knockout()
        if victim is not None:
            assert victim % 6 == mover % 6
            assert game.seat_of_piece[victim] != game.seat_of_piece[mover]
        assert len(state.history) < MAX_PLIES, "a random game did not end"
    final = state.to_position()
    assert not knockout_possible_by_hand(final) or final.split()[1] == "end:quiet"
    assert state.returns() == [float(p) for p in points_by_hand(final)]
    places = state.places()
    for seat, p in enumerate(state.returns()):
        assert places[seat] == 1 + sum(1 for q in state.returns() if q > p)
