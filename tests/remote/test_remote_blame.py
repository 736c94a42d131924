"""Which seat rewrote a game, without a broker: two homes joined directly play Knockabout,
every message kept as the broker retains it (a seat's pages keep the last one of each kind
and entry, its hello topic the last hello); then one seat's messages are rewritten and a
spectator reads them all.  A seat is named only where its own
messages contradict each other: an honest seat is never named, whether the other seat
rewrote everything it sent from the entry on (consistently) or rewrote its own pins to
frame it; the spectator then says only where the histories part."""

from knockboard.games import get_game
from knockboard.remote import MemoryKeys, RemoteGame, transcript
from knockboard.remote.messages import ACT, HELLO, Message, decode

from test_remote_refusals import Wire

GAME = "knockabout"
PLIES = 40


def _key(m):
    """Where the broker keeps `m`: a line of its seat's pages, one a kind and entry, or its
    seat's hello topic."""
    return (m.seat, m.kind, m.ply if m.kind != HELLO else None)


def _played():
    """(the record, the retained messages: _key -> Message) after PLIES entries."""
    w = Wire(GAME, {})
    store = {}
    for home in (0, 1):
        send = w.games[home].send

        def keep(message, retain=False, send=send):
            store[_key(message)] = message
            return send(message, retain)
        w.games[home].send = keep
    for _ in range(500):
        if len(w.games[0].record) >= PLIES:
            break
        for g in w.games:
            if g.local_turn():
                g.play(g.state.action_to_string(g.state.legal_actions()[0]))
        w.flush()
    assert w.games[0].record == w.games[1].record and len(w.games[0].record) >= PLIES
    for g in w.games:                 # every message of the game in its pages, as the homes
        g._resend_from(0)             # leave the broker (the first roll came before `keep`)
        g.hello()
    w.flush()
    return list(w.games[0].record), store


def _position(record):
    state = get_game(GAME).new_initial_state()
    for entry in record:
        state.apply(state.parse_action(entry))
    return state


def _a_move_with_another_choice(record, seat):
    """(ply, another legal move there) for a move of 0-based `seat` after the first few."""
    for ply in range(6, len(record)):
        state = _position(record[:ply])
        if state.current_player() == seat:
            others = [state.action_to_string(a) for a in state.legal_actions()
                      if state.action_to_string(a) != record[ply]]
            if others:
                return ply, others[0]
    raise AssertionError("no move with another choice")


def _own_chains(record, seat, store):
    """Seat `seat`'s own chain before each entry of `record`, its commitments as stored."""
    owns = [transcript.own_start("wire", seat)]
    for ply, entry in enumerate(record):
        act = store.get((seat + 1, ACT, ply))
        commit = store.get((seat + 1, "commit", ply))
        part = ("act", act["action"]) if act is not None and act["action"] == entry else \
            ("commit", commit["hash"]) if commit is not None else None
        owns.append(owns[-1] if part is None else transcript.own_follow(owns[-1], ply, part))
    return owns


def _rewritten(store, seat, ply, record, *, chains_from=None, owns_from=None):
    """`store` with 0-based `seat`'s messages from entry `ply` on given the chains of
    `chains_from` (a record) and the own chains of `owns_from` (a list), where given."""
    chains = transcript.chains("wire", chains_from) if chains_from else None
    out = dict(store)
    for name, m in store.items():
        if m.seat != seat + 1 or m.ply < ply or m.kind not in (ACT, "commit", "reveal",
                                                              HELLO):
            continue
        body = dict(m.body)
        if chains is not None:
            body["chain"] = chains[m.ply]
        if owns_from is not None:
            body["own"] = owns_from[m.ply]
        out[name] = Message(m.room, m.seat, m.kind, m.ply, body)
    return out


def _spectator(store):
    """A spectator that reads every stored message, a ply at a time as a window would."""
    g = RemoteGame("wire", GAME, {}, [], MemoryKeys(), send=lambda *a, **k: None, log=[].append)
    messages = sorted(store.values(), key=lambda m: (m.kind != HELLO, m.ply, m.seat, m.kind))
    for m in messages:
        g.receive(decode(m.topic(), m.encode(), "wire"))
    return g


def test_the_stored_game_read_whole_names_nobody():
    record, store = _played()
    g = _spectator(store)
    assert g.stopped is None and g.record == record and g.blamed is None


def test_a_seat_that_rewrote_one_move_of_its_own_is_named():
    record, store = _played()
    ply, other = _a_move_with_another_choice(record, 1)
    key = (2, ACT, ply)
    store[key] = Message("wire", 2, ACT, ply, dict(store[key].body, action=other))
    g = _spectator(store)
    assert g.blamed == 1
    assert g.stopped == (f"Black (seat 2) rewrote entry {ply + 1}: showing the game as every "
                         f"seat agreed up to entry {ply}")


def test_a_seat_that_rewrote_everything_it_sent_since_consistently_is_not_told_from_a_framer():
    """Seat 2 rewrites its move and every message it sent after it, chains and own chains
    over its new history: its messages agree with each other, so the spectator names
    nobody (above all not seat 1, whose messages are the true ones)."""
    record, store = _played()
    ply, other = _a_move_with_another_choice(record, 1)
    new = record[:ply] + [other] + record[ply + 1:]
    key = (2, ACT, ply)
    store[key] = Message("wire", 2, ACT, ply, dict(store[key].body, action=other))
    store = _rewritten(store, 1, ply + 1, record, chains_from=new,
                       owns_from=_own_chains(new, 1, store))
    g = _spectator(store)
    assert g.blamed is None and g.stopped.startswith("the seats' histories conflict: ")


def test_a_seat_framing_the_other_by_its_pins_names_nobody():
    """Seat 1 rewrites its own messages after one of seat 2's moves so that they pin
    another move there: seat 2's messages (all true) agree with each other, and seat 1's
    own part is unchanged, so nobody's own messages contradict them: nobody is named."""
    record, store = _played()
    ply, other = _a_move_with_another_choice(record, 1)
    framed = record[:ply] + [other] + record[ply + 1:]
    store = _rewritten(store, 0, ply + 1, record, chains_from=framed)
    g = _spectator(store)
    assert g.blamed is None and g.stopped.startswith("the seats' histories conflict: ")
    assert g.record[:ply + 1] == record[:ply + 1]
