"""A home's drawings for the browser page (remote/view.py), without a broker: every game's
position drawing stays within what Mosquitto's WebSocket listener hands a browser at once
(4 KB: benchmarks/websocket_page.py), whole random games long; the drawings are plain data
(colours `#rrggbb` or nothing, no markup), the position's tagged with the record's length
and chain; and the result is the rules' (or the ending's) as `knockboard watch` says it."""

import json
import random
import re
from types import SimpleNamespace

import pytest

from knockboard.games import game_names, get_game
from knockboard.remote import transcript
from knockboard.remote.ending import RESIGNED
from knockboard.remote.view import ViewMaker, view_topic
from knockboard.session.adapters import get_ui

WEBSOCKET_AT_ONCE = 4096       # bytes a message: more goes at 4 KB a tenth of a second
MQTT_HEADER = 5                # fixed header and remaining length (QoS 0: no packet id)
COLOUR = re.compile(r"#[0-9a-f]{6}\Z", re.I)
ROOM = "r" * 64                # the longest room name (remote/address.py), in topic and payload


class _Game(SimpleNamespace):
    """What ViewMaker reads of a RemoteGame: its engine, room, record with chains, state,
    whether it is over and how it ended."""

    @property
    def over(self):
        return self.state.is_terminal() or self.ending.ended is not None


def _played(name, seed, plies=400, **options):
    game = get_game(name, **options)
    g = _Game(game=game, game_name=name, room=ROOM, record=[], state=game.new_initial_state(),
              chains=[transcript.start(ROOM)], ending=SimpleNamespace(ended=None))
    rng = random.Random(seed)
    while not g.state.is_terminal() and len(g.record) < plies:
        s = g.state
        action = rng.choice([a for a, _ in s.chance_outcomes()]) if s.is_chance_node() \
            else rng.choice(s.legal_actions())
        g.record.append(s.action_to_string(action))
        g.chains.append(transcript.follow(g.chains[-1], g.record[-1]))
        s.apply(action)
        yield g


@pytest.mark.parametrize("name, options", [(name, {}) for name in game_names()] +
                         [("knockoff", {"players": 4}), ("ko", {"players": 2})])
def test_a_positions_drawing_fits_what_the_websocket_listener_sends_at_once(name, options):
    largest = 0
    for seed in (1, 2):
        maker = None
        for g in _played(name, seed, **options):
            maker = maker or ViewMaker(g)
            payload = maker.payload(2)
            size = len(payload) + len(view_topic(ROOM, 2)) + 2 + MQTT_HEADER
            largest = max(largest, size)
            data = json.loads(payload)
            assert (data["ply"], data["chain"], data["seat"]) == \
                (len(g.record), g.chains[-1], 2)
        assert data["result"] == (get_ui(g.game).result(g.state) or "game over"
                                  if g.state.is_terminal() else None)
        assert (data["turn"] is None) == g.state.is_terminal()
    print(f"\n{name} {options}: largest position drawing {largest} bytes with its topic")
    assert largest <= WEBSOCKET_AT_ONCE


@pytest.mark.parametrize("name", game_names())
def test_the_drawings_are_plain_data(name):
    g = next(_played(name, 3))
    maker = ViewMaker(g)
    board, view = json.loads(maker.board(1)), json.loads(maker.payload(1))
    assert board["kind"] == "board" and board["game"] == name
    assert board["width"] > 0 and board["height"] > 0 and len(board["shapes"]) > 50
    for shape in board["shapes"] + view["shapes"]:
        kind, points, fill, outline, width = shape[:5]
        assert kind in ("polygon", "oval", "line", "text")
        assert all(type(p) is int for p in points)
        assert fill == "" or COLOUR.match(fill)
        assert outline == "" or COLOUR.match(outline)
        assert len(shape) == (9 if kind == "text" else 5)


def test_a_resignation_is_the_drawings_result():
    g = next(_played("knockabout", 4))
    g.ending.ended = (RESIGNED, [1])
    view = json.loads(ViewMaker(g).payload(1))
    assert view["result"] == "Black resigned" and view["turn"] is None
